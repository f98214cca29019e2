// Step through every action of a finished game, in words, with both hands face up; play it
// by itself with Play.
import { cardElement, meldCards, splitCards } from "./cards.js";
import { h } from "./common.js";
import { dealLine, moveLine, namer, resultHeadline, resultWords } from "./words.js";

const $ = (id) => document.getElementById(id);
const id = location.pathname.split("/").pop();
const replay = { data: null, hand: 0, step: 0, timer: null };

async function load() {
  const res = await fetch(`/api/replay/${id}`);
  const data = await res.json();
  if (!res.ok) {
    $("title").textContent = data.message;
    return;
  }
  replay.data = data;
  $("title").textContent =
    `${data.names[0]} vs ${data.names[1]}` +
    (data.undo_used ? " (undo was used: not counted)" : "") +
    (data.status === "abandoned" ? " (abandoned)" : "");
  $("hand-select").replaceChildren(...data.hands.map((x, i) => h("option", { value: i }, `Hand ${x.number}`)));
  $("hand-select").onchange = (e) => {
    replay.hand = Number(e.target.value);
    replay.step = 0;
    render();
  };
  render();
}

function row(cards, label) {
  const r = h("div", { class: "cards", role: "img", "aria-label": label });
  for (const c of cards) r.append(cardElement(c));
  return r;
}

function stepWords(x, s, n) {
  if (!s.event) return dealLine(x.number, x.dealer, x.upcard, n);
  const upcard = s.event.action === "pass" ? x.upcard : null;
  return moveLine(s.event, n, { upcard });
}

function render() {
  const { data } = replay;
  const x = data.hands[replay.hand];
  const s = x.steps[replay.step];
  const n = namer(data.names, null);
  $("step-label").textContent = `Move ${replay.step} of ${x.steps.length - 1}: ${stepWords(x, s, n)}`;
  const held = (seat) => splitCards(s.hands[seat]);
  $("board").replaceChildren(
    h("h2", { class: "seat-label" }, data.names[0] + (x.dealer === 0 ? " (dealer)" : "")),
    row(held(0), `${data.names[0]}'s hand`),
    h("h2", { class: "seat-label" }, `Discard pile (stock ${s.stock})`),
    row(splitCards(s.pile), "discard pile"),
    s.melds.length ? h("h2", { class: "seat-label" }, "Melds laid down") : "",
    s.melds.length ? row(s.melds.flatMap(meldCards), "melds laid down") : "",
    h("h2", { class: "seat-label" }, data.names[1] + (x.dealer === 1 ? " (dealer)" : "")),
    row(held(1), `${data.names[1]}'s hand`),
  );
  const r = x.result;
  const last = replay.step === x.steps.length - 1;
  $("result").textContent =
    last && r
      ? `${resultHeadline(r, n)}. ${resultWords(r, { n, rules: data.rules, dealerNext: (data.hands[replay.hand + 1] || x).dealer })}`
      : "";
  $("prev").disabled = replay.step === 0;
  $("next").disabled = last;
}

function go(delta) {
  const steps = replay.data.hands[replay.hand].steps.length;
  const step = Math.min(steps - 1, Math.max(0, replay.step + delta));
  if (step !== replay.step) {
    replay.step = step;
    render();
  }
  return step < steps - 1;
}

function toggleAutoplay() {
  if (replay.timer) {
    clearInterval(replay.timer);
    replay.timer = null;
    $("play").textContent = "Play ▶▶";
    return;
  }
  $("play").textContent = "Pause ❚❚";
  replay.timer = setInterval(() => {
    if (!go(1)) toggleAutoplay();
  }, 900);
}

$("prev").onclick = () => go(-1);
$("next").onclick = () => go(1);
$("play").onclick = toggleAutoplay;
document.addEventListener("keydown", (e) => {
  if (!replay.data || e.target.closest("select,input")) return;
  if (e.key === "ArrowLeft") go(-1);
  if (e.key === "ArrowRight") go(1);
});
load();
