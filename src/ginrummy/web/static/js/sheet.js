// The score sheet, and the summary when a game or match is over: functions of the table's data.
import { h } from "./common.js";
import { finalLine } from "./words.js";

export function finalPanel(t, n) {
  const f = t.final;
  const names = t.names;
  const rows = [
    ["Hand points", "hand_points"],
    ["Boxes", "boxes"],
    ["Game bonus", "game_bonus"],
    ["Shutout", "shutout"],
    ["Total", "total"],
  ];
  const sheet = h(
    "table",
    { class: "sheet" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Item")),
        h("th", { scope: "col" }, names[0]),
        h("th", { scope: "col" }, names[1]),
      ),
    ),
    h(
      "tbody",
      {},
      ...rows.map(([label, key]) =>
        h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, f.players[0][key]), h("td", {}, f.players[1][key])),
      ),
    ),
  );
  const what = f.games ? "match" : "game";
  return h(
    "div",
    { class: "final" },
    h("h3", {}, f.games ? "Match over" : "Game over"),
    f.players ? sheet : "",
    h("p", {}, finalLine(f, n, what)),
  );
}

export function renderSheet(box, t) {
  const s = t.sheet;
  box.replaceChildren();
  const cols = s.columns || 1;
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, "#"),
    h("th", { scope: "col" }, "Won by"),
    h("th", { scope: "col" }, "How"),
    h("th", { scope: "col" }, "Points"),
    ...Array.from({ length: cols }, (_, i) =>
      [0, 1].map((seat) => h("th", { scope: "col" }, `${t.names[seat]}${cols > 1 ? ` (g${i + 1})` : ""}`)),
    ).flat(),
  );
  const rows = s.hands.map((line) =>
    h(
      "tr",
      {},
      h("td", {}, line.number),
      h("td", {}, line.winner == null ? "—" : t.names[line.winner]),
      h("td", {}, line.how),
      h("td", {}, line.points),
      ...line.totals.flatMap((pair) => pair.map((x, seat) => h("td", { class: line.winner === seat ? "won" : "" }, x))),
    ),
  );
  box.append(
    h(
      "div",
      { class: "scroll-x", tabindex: "0", role: "group", "aria-label": "Score sheet" },
      h("table", { class: "sheet" }, h("thead", {}, head), h("tbody", {}, ...rows)),
    ),
  );
  if (!s.hands.length) box.append(h("p", { class: "muted" }, "No hands scored yet."));
}
