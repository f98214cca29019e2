// Step through every action of a finished game.
import { cardElement, meldCards, splitCards } from "./cards.js";
import { h } from "./common.js";

const id = location.pathname.split("/").pop();
let data = null;
let hand = 0;
let step = 0;

async function load() {
  const res = await fetch(`/api/replay/${id}`);
  data = await res.json();
  if (!res.ok) { document.getElementById("title").textContent = data.message; return; }
  document.getElementById("title").textContent = `${data.names[0]} vs ${data.names[1]}`
    + (data.undo_used ? " (undo was used: not counted)" : "") + (data.status === "abandoned" ? " (abandoned)" : "");
  document.getElementById("hand-select").replaceChildren(...data.hands.map((x, i) => h("option", { value: i }, `Hand ${x.number}`)));
  document.getElementById("hand-select").onchange = (e) => { hand = Number(e.target.value); step = 0; render(); };
  render();
}

function row(cards) {
  const r = h("div", { class: "cards" });
  cards.forEach((c) => r.append(cardElement(c)));
  return r;
}

function render() {
  const x = data.hands[hand];
  const s = x.steps[step];
  document.getElementById("step-label").textContent = `${step}/${x.steps.length - 1} ${s.label ? "· " + s.label.replace(/^(\d)/, (m) => data.names[Number(m)]) : "· the deal"}`;
  const board = document.getElementById("board");
  board.replaceChildren(
    h("div", { class: "seat-label" }, data.names[0]), row(splitCards(s.hands[0])),
    h("div", { class: "seat-label" }, `Discard pile (stock ${s.stock})`), row(splitCards(s.pile)),
    s.melds.length ? h("div", { class: "seat-label" }, "Melds laid down") : "", s.melds.length ? row(s.melds.flatMap(meldCards)) : "",
    h("div", { class: "seat-label" }, data.names[1]), row(splitCards(s.hands[1])));
  const r = x.result;
  document.getElementById("result").textContent = step === x.steps.length - 1 && r
    ? (r.winner == null ? "No score." : `${data.names[r.winner]} scores ${r.points} (${r.kind.replace("_", " ")}).`) : "";
}

document.getElementById("prev").onclick = () => { if (step > 0) { step--; render(); } };
document.getElementById("next").onclick = () => { if (step < data.hands[hand].steps.length - 1) { step++; render(); } };
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") document.getElementById("prev").click();
  if (e.key === "ArrowRight") document.getElementById("next").click();
});
load();
