// The score sheet, and the summary when a game or match is over: functions of the table's data.
import { h } from "./common.js";
import { finalLine } from "./words.js";

export function finalPanel(t, n) {
  const f = t.final;
  if (!f.games) return h("div", { class: "final" }, ...gameFinal(f, t, n, "Game over", !t.options.match));
  // a match: its last game item by item, as every other game of it was shown at its end, then
  // the match's points game by game (each game's net goes to its winner), which add up to the
  // match points
  const last = f.games.at(-1);
  const rows = [
    ...f.games.map((g, i) => [`Game ${i + 1}`, [0, 1].map((seat) => (g.winner === seat ? g.net : 0))]),
    ["Total", f.totals],
  ];
  return h(
    "div",
    { class: "final" },
    ...(last?.players ? gameFinal(last, t, n, `Game ${f.games.length} over`, false) : []),
    h("h3", {}, "Match over"),
    finalTable(rows, t.names),
    h("p", {}, finalLine(f, n, "match", true)),
  );
}

// A game's summary item by item, under its heading, and who wins it by how much.
function gameFinal(f, t, n, heading, settles) {
  const rows = [
    ["Hand points", "hand_points"],
    ["Boxes", "boxes"],
    ["Game bonus", "game_bonus"],
    ["Shutout", "shutout"],
    ["Total", "total"],
  ].map(([label, key]) => [label, f.players.map((p) => p[key])]);
  return [h("h3", {}, heading), finalTable(rows, t.names), h("p", {}, finalLine(f, n, "game", settles))];
}

function finalTable(rows, names) {
  return h(
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
      ...rows.map(([label, cells]) =>
        h("tr", {}, h("th", { scope: "row" }, label), ...cells.map((x) => h("td", {}, x))),
      ),
    ),
  );
}

export function renderSheet(box, t) {
  const s = t.sheet;
  box.replaceChildren();
  if (!s.games) {
    box.append(...gameSheet(s, t));
    return;
  }
  // a match: each game's sheet, then the match points game by game
  s.games.forEach((game, i) => {
    box.append(h("p", { class: "sheet-title" }, `Game ${i + 1}`), ...gameSheet(game, t, `game ${i + 1}`));
  });
  box.append(h("p", { class: "sheet-title" }, `Match to ${s.match_target}`));
  if (!s.lines.length) {
    box.append(h("p", { class: "muted" }, "No game finished yet."));
    return;
  }
  const head = h(
    "tr",
    {},
    ...["Game", "Won by", "Net", t.names[0], t.names[1]].map((x) => h("th", { scope: "col" }, x)),
  );
  const rows = s.lines.map((line) =>
    h(
      "tr",
      {},
      h("td", {}, line.number),
      h("td", {}, line.winner == null ? "even" : t.names[line.winner]),
      h("td", {}, line.net),
      ...line.totals.map((x, seat) => h("td", { class: line.winner === seat ? "won" : "" }, x)),
    ),
  );
  box.append(scrolling(h("table", { class: "sheet" }, h("thead", {}, head), h("tbody", {}, ...rows)), "Match points"));
}

function scrolling(table, label) {
  return h("div", { class: "scroll-x", tabindex: "0", role: "group", "aria-label": label }, table);
}

// One game's sheet: a line a hand with every column's running totals, and while the game is on
// the boxes its players have earned so far (they count only at the game's end).
function gameSheet(s, t, which = "") {
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
  const label = which ? `Score sheet, ${which}` : "Score sheet";
  const out = [scrolling(h("table", { class: "sheet" }, h("thead", {}, head), h("tbody", {}, ...rows)), label)];
  if (!s.hands.length) out.push(h("p", { class: "muted" }, "No hands scored yet."));
  else if (!s.final && s.boxes?.some(([a, b]) => a || b)) out.push(boxesLine(s.boxes, t));
  return out;
}

function boxesLine(boxes, t) {
  const each = (pair) => `${t.names[0]} ${pair[0]}, ${t.names[1]} ${pair[1]}`;
  const text = boxes.length > 1 ? boxes.map((pair, i) => `game ${i + 1}: ${each(pair)}`).join("; ") : each(boxes[0]);
  return h("p", { class: "boxes" }, `Boxes so far, added when the game ends: ${text}.`);
}
