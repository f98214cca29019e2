// Step through every action of a finished game, in words, with both hands face up; play it
// by itself with Play.
import { position, stepper } from "./board.js";
import { h, themeChoice } from "./common.js";
import { dealLine, moveLine, namer, resultHeadline, resultWords } from "./words.js";

const $ = (id) => document.getElementById(id);
const id = location.pathname.split("/").pop();

function stepWords(x, s, n) {
  if (!s.event) return dealLine(x.number, x.dealer, x.upcard, n);
  return moveLine(s.event, n, { upcard: s.event.action === "pass" ? x.upcard : null });
}

function showHand(data, index) {
  const x = data.hands[index];
  const n = namer(data.names, null);
  const last = x.steps.length - 1;
  const walk = stepper(x.steps.length, (i) => {
    const s = x.steps[i];
    $("step-label").textContent = `Move ${i} of ${last}: ${stepWords(x, s, n)}`;
    $("board").replaceChildren(...position(s, { names: data.names, dealer: x.dealer, heading: "h2" }));
    const r = x.result;
    const next = (data.hands[index + 1] || x).dealer;
    $("result").textContent =
      i === last && r ? `${resultHeadline(r, n)}. ${resultWords(r, { n, rules: data.rules, dealerNext: next })}` : "";
  });
  $("controls").replaceChildren(walk.bar);
  walk.go(0);
  return walk;
}

async function load() {
  const res = await fetch(`/api/replay/${id}`);
  const data = await res.json();
  if (!res.ok) {
    // the server's reason, as a sentence; nothing to choose from
    const why = data.message || "This game cannot be replayed.";
    $("title").textContent = why[0].toUpperCase() + why.slice(1);
    $("hand-select").closest("label").hidden = true;
    return;
  }
  $("title").textContent =
    `${data.names[0]} vs ${data.names[1]}` +
    (data.undo_used ? " (undo was used: not counted)" : "") +
    (data.status === "abandoned" ? " (abandoned)" : "");
  $("hand-select").replaceChildren(...data.hands.map((x, i) => h("option", { value: i }, `Hand ${x.number}`)));
  let walk = showHand(data, 0);
  $("hand-select").onchange = (e) => {
    walk = showHand(data, Number(e.target.value));
  };
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("select,input")) return;
    if (e.key === "ArrowLeft") walk.step(-1);
    if (e.key === "ArrowRight") walk.step(1);
  });
}
load();

// The theme, chosen here as in the lobby's footer and the table's settings.
themeChoice(document.getElementById("opt-theme"));
