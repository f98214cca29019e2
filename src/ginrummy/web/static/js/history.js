import { h } from "./common.js";

async function load() {
  const games = await (await fetch("/api/history")).json();
  const ul = document.getElementById("games");
  if (!games.length) { ul.replaceChildren(h("li", { class: "muted" }, "No finished games yet.")); return; }
  ul.replaceChildren(...games.map((g) => h("li", {},
    h("a", { href: g.url }, `${g.names[0]} vs ${g.names[1]}`), " ",
    h("span", { class: "muted" }, `${g.created.slice(0, 16)}${g.final && g.final.winner != null ? ` · ${g.names[g.final.winner]} won by ${g.final.net}` : ""}`))));
}

document.getElementById("stats-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const name = e.target.name.value;
  const res = await fetch(`/api/stats?name=${encodeURIComponent(name)}`);
  const s = await res.json();
  const box = document.getElementById("stats");
  if (!res.ok) { box.textContent = s.message; return; }
  const rows = Object.entries(s).filter(([k]) => k !== "name");
  box.replaceChildren(h("table", { class: "sheet" }, ...rows.map(([k, v]) =>
    h("tr", {}, h("th", {}, k.replaceAll("_", " ")), h("td", {}, typeof v === "number" ? Math.round(v * 100) / 100 : String(v))))));
});
load();
