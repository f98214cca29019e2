// This player's finished games, a page at a time, and their record: only the games this
// browser's player sat at (by its anonymous player id, and the seat tokens kept in its storage),
// never everyone's.
import { h, savedTables, themeChoice } from "./common.js";

const tables = savedTables().map((t) => ({ id: t.id, token: t.token }));
let page = 1;

async function post(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return res.json();
}

async function load() {
  const data = await post(`/api/history?page=${page}&per_page=20`, { tables });
  const ul = document.getElementById("games");
  if (!data.games.length) {
    ul.replaceChildren(h("li", { class: "muted" }, "No finished games in this browser yet."));
    return;
  }
  ul.replaceChildren(
    ...data.games.map((g) =>
      h(
        "li",
        {},
        h("a", { href: g.url }, `${g.names[0]} vs ${g.names[1]}`),
        " ",
        h(
          "span",
          { class: "muted" },
          `${g.updated.slice(0, 16).replace("T", " ")}` +
            (g.rules ? ` · ${g.rules}` : "") +
            (g.status === "abandoned" ? " · abandoned" : "") +
            (g.final && g.final.winner != null ? ` · ${g.names[g.final.winner]} won by ${g.final.net}` : "") +
            (g.undo_used ? " · undo used (not counted)" : ""),
        ),
      ),
    ),
  );
  const nav = document.getElementById("pages");
  nav.hidden = data.pages <= 1; // one page: nothing to turn
  nav.replaceChildren(
    h(
      "button",
      {
        type: "button",
        disabled: page <= 1,
        onclick: () => {
          page -= 1;
          load();
        },
      },
      "Newer",
    ),
    h(
      "span",
      { class: "muted" },
      ` Page ${data.page} of ${data.pages} (${data.total} ${data.total === 1 ? "game" : "games"}) `,
    ),
    h(
      "button",
      {
        type: "button",
        disabled: page >= data.pages,
        onclick: () => {
          page += 1;
          load();
        },
      },
      "Older",
    ),
  );
}

const LABELS = [
  ["games", "Games finished"],
  ["wins", "Won"],
  ["losses", "Lost"],
  ["hands", "Hands in those games"],
  ["hands_won", "Hands won"],
  ["gins", "Gins"],
  ["undercuts", "Undercuts (yours)"],
  ["points", "Hand points scored"],
];

function percent(part, whole) {
  return whole ? `${Math.round((100 * part) / whole)}%` : "—";
}

// Your running total of net points, game after game: a line above or below zero, on a scale
// (the highest, zero and the lowest total marked on the left, the games counted along the foot).
function chart(series) {
  const width = 320;
  const height = 150;
  const left = 44; // room for the points' labels
  const foot = 26; // room for the games' labels
  let total = 0;
  const points = [0, ...series.map((g) => (total += g.net))];
  const top = Math.max(10, ...points);
  const bottom = Math.min(-10, ...points);
  const x = (i) => left + 6 + (points.length > 1 ? (i * (width - left - 16)) / (points.length - 1) : 0);
  const y = (v) => 8 + ((top - v) * (height - foot - 16)) / (top - bottom);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute(
    "aria-label",
    `Net points over your last ${series.length} games: from 0 to ${total} (highest ${top}, lowest ${bottom})`,
  );
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    svg.append(el);
  };
  const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0");
  const marked = [];
  for (const v of [0, top, bottom]) {
    add("line", { x1: left, y1: y(v), x2: width - 4, y2: y(v), class: v === 0 ? "axis" : "grid" });
    if (marked.some((m) => Math.abs(y(m) - y(v)) < 14)) continue; // too close to read apart
    marked.push(v);
    add("text", { x: left - 4, y: y(v) + 4, class: "label", "text-anchor": "end" }, signed(v));
  }
  add("line", { x1: left, y1: 8, x2: left, y2: height - foot - 8, class: "axis" });
  const base = height - foot + 6;
  add("text", { x: x(0), y: base, class: "label", "text-anchor": "start" }, "start");
  if (series.length)
    add("text", { x: x(series.length), y: base, class: "label", "text-anchor": "end" }, `game ${series.length}`);
  add("text", { x: (left + width) / 2, y: height - 3, class: "label", "text-anchor": "middle" }, "games played →");
  add("polyline", { points: points.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "trend" });
  add("circle", { cx: x(points.length - 1), cy: y(total), r: 3.5, class: "now" });
  return svg;
}

// A table that scrolls sideways on a narrow screen, not the page.
function scrolling(table, label) {
  return h("div", { class: "scroll-x", tabindex: "0", role: "group", "aria-label": label }, table);
}

async function stats() {
  const s = await post("/api/stats", { tables });
  const box = document.getElementById("stats");
  const rows = LABELS.map(([key, label]) => h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, s[key])));
  rows.push(
    h("tr", {}, h("th", { scope: "row" }, "Win rate"), h("td", {}, percent(s.wins, s.games))),
    h(
      "tr",
      {},
      h("th", { scope: "row" }, "Points per hand"),
      h("td", {}, s.hands ? (s.points / s.hands).toFixed(1) : "—"),
    ),
  );
  // each opponent and rules: a line naming them across the table, then its figures (in
  // columns of their own beside them, the rules' names squeezed the table past its panel)
  const by = (s.by || []).map((r) =>
    h(
      "tbody",
      {},
      h(
        "tr",
        {},
        h(
          "th",
          { scope: "rowgroup", colspan: "5", class: "group" },
          `Against ${r.against === "a person" ? "a person" : `the computer (${r.against})`}: `,
          h("span", { class: "rules" }, r.rules),
        ),
      ),
      h(
        "tr",
        {},
        h("td", {}, r.games),
        h("td", {}, percent(r.wins, r.games)),
        h("td", {}, r.hands ? (r.points / r.hands).toFixed(1) : "—"),
        h("td", {}, r.gins ?? "—"),
        h("td", {}, r.undercuts ?? "—"),
      ),
    ),
  );
  box.replaceChildren(
    h("table", { class: "sheet" }, h("tbody", {}, ...rows)),
    by.length
      ? scrolling(
          h(
            "table",
            { class: "sheet by" },
            h("caption", {}, "By opponent and rules"),
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", { scope: "col" }, "Games"),
                h("th", { scope: "col" }, "Won"),
                h("th", { scope: "col" }, "Points a hand"),
                h("th", { scope: "col" }, "Gins"),
                h("th", { scope: "col" }, "Undercuts"),
              ),
            ),
            ...by,
          ),
          "By opponent and rules",
        )
      : "",
    s.series?.length
      ? h("figure", {}, chart(s.series), h("figcaption", { class: "muted small" }, "Your net points, game after game"))
      : "",
    s.not_counted
      ? h(
          "p",
          { class: "muted" },
          `${s.not_counted} finished game(s) not counted: undo was used or the game was abandoned.`,
        )
      : "",
  );
}
load();
stats();

// The theme, chosen here as in the lobby's footer and the table's settings.
themeChoice(document.getElementById("opt-theme"));
