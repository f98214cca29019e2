// The theme chosen in the settings (common.js, themeChoice), set on <html> before the page is
// first drawn. Each page loads this classic script in its <head>, after the style sheet: it runs
// before the body is parsed, whereas the page's modules run only once it has been, so that a page
// with dark chosen on a light device (or light on a dark one) never shows the other theme first.
try {
  const theme = JSON.parse(localStorage.getItem("ginrummy.settings") || "{}").theme;
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
} catch {
  /* storage disabled or unreadable: the device's theme */
}
