// Helpers shared by the pages: seat tokens kept in this browser, settings, small DOM helpers.
const KEY = "ginrummy.tables";

export function savedTables() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "[]");
  } catch {
    return [];
  }
}
export function saveTable(id, token) {
  const list = savedTables().filter((t) => t.id !== id);
  list.unshift({ id, token, at: Date.now() });
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, 100)));
}
export function tokenFor(id) {
  const found = savedTables().find((t) => t.id === id);
  return found ? found.token : null;
}

// The invite of a friend table this browser opened (the server keeps only its hash): kept
// so that the table page can still send it while the friend has not come.
const INVITES = "ginrummy.invites";
function invites() {
  try {
    return JSON.parse(localStorage.getItem(INVITES) || "{}");
  } catch {
    return {};
  }
}
function keepInvites(all) {
  try {
    localStorage.setItem(INVITES, JSON.stringify(all));
  } catch {
    /* full or disabled */
  }
}
export function saveInvite(id, link) {
  const all = invites();
  all[id] = link;
  keepInvites(Object.fromEntries(Object.entries(all).slice(-20))); // the newest 20
}
// The friend came: the invite opens nothing more for anyone else, so it is not offered again.
export function forgetInvite(id) {
  const all = invites();
  delete all[id];
  keepInvites(all);
}
export function inviteFor(id) {
  return invites()[id] || null;
}

// Sends ``link`` by the phone's share sheet where there is one, else to the clipboard: says
// how ("shared", "copied", "cancelled"), or "failed" where neither could (a page over plain
// http has no clipboard): then the caller shows the link to copy by hand.
export async function shareLink(link, text) {
  if (navigator.share) {
    try {
      await navigator.share({ title: "Gin Rummy", text, url: link });
      return "shared";
    } catch (e) {
      return e.name === "AbortError" ? "cancelled" : "failed";
    }
  }
  try {
    await navigator.clipboard.writeText(link);
    return "copied";
  } catch {
    return "failed";
  }
}

// A button that sends an invite (shareLink); where it cannot, the link is selected in its box
// to copy by hand. ``said`` tells what happened.
export function inviteButton(button, box, said, link) {
  if (navigator.share) button.textContent = "Share link";
  button.onclick = async () => {
    said.textContent = "";
    const how = await shareLink(link, "Play Gin Rummy with me:");
    if (how === "copied") said.textContent = "Link copied: send it to your friend.";
    else if (how === "failed") {
      box.focus();
      box.select();
      said.textContent = "The link is selected: copy it, and send it to your friend.";
    }
  };
}

export function settings() {
  try {
    return JSON.parse(localStorage.getItem("ginrummy.settings") || "{}");
  } catch {
    return {};
  }
}
export function saveSettings(s) {
  localStorage.setItem("ginrummy.settings", JSON.stringify(s));
}
export function applySettings() {
  const s = settings();
  document.body.classList.toggle("large-cards", !!s.large);
  document.body.classList.toggle("four-colour", !!s.fourColour);
  applyTheme(s.theme);
  return s;
}

// The theme chosen in the settings ("light", "dark"), or else none: then the page follows the
// device's (style.css, prefers-color-scheme). A page takes the stored one before it is first
// drawn (theme.js, in its <head>); this applies a new choice.
export function applyTheme(theme) {
  const root = document.documentElement;
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  else delete root.dataset.theme;
}

// A Theme choice (a <select> of "", "light", "dark"): shows the one saved, and saves and applies
// a new one at once; ``then`` follows a change (the table redraws with its other settings).
export function themeChoice(select, then = () => {}) {
  select.value = settings().theme || "";
  select.onchange = () => {
    saveSettings({ ...settings(), theme: select.value || undefined });
    applyTheme(select.value);
    then();
  };
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v !== false && v != null) el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export async function sha256Hex(text) {
  const data = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest("SHA-256", data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
