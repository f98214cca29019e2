// The table page's keys (listed in the page's settings panel): a letter for each move, the
// digits and arrows to select a card, Enter or X to discard it, Esc to put it back, and
// Shift with an arrow to move the selected (or focused) card along the hand.

import { askHints, renderActions, undo } from "./actions.js";
import { handCards, renderHand, shiftCard } from "./hand.js";
import { $, act, app, isLegal, legal, send, table, view } from "./tablestate.js";

document.addEventListener("keydown", (e) => {
  if (!app.state || !view()) return;
  // Typing goes to the field typed in. A clicked radio button or checkbox (the arrangement,
  // the settings) keeps only space and Enter: the shortcuts, arrows included, work on (the
  // handled keys' defaults are prevented below, so an arrow selects a card, not a radio).
  const toggle = e.target.matches?.('input[type="radio"], input[type="checkbox"]');
  if (e.target.closest("textarea,select,dialog") || (e.target.closest("input") && !toggle)) return;
  if (toggle && (e.key === " " || e.key === "Enter")) return;
  // Enter on the selected card, which has the focus once an arrow or a click selected it,
  // discards it, as the keys say ("X or Enter"): pressing its button took the selection back.
  const onSelected = e.target.closest?.("#hand .card")?.dataset.card === app.selected;
  if (e.key === "Enter" && onSelected && isLegal(`discard ${app.selected}`)) {
    e.preventDefault();
    act(`discard ${app.selected}`);
    return;
  }
  // Enter and space on a focused button press that button (a card selects itself), as always.
  if ((e.key === "Enter" || e.key === " ") && e.target.closest("button,a")) return;
  const v = view();
  const L = legal();
  const k = e.key.toLowerCase();
  const cards = v.hand ? handCards(v).flatMap((g) => g.cards) : [];
  const sel = app.selected;
  if (k === "d" && L.includes("draw")) act("draw");
  else if (k === "t" && L.includes("take")) act("take");
  else if (k === "p" && L.includes("pass")) act("pass");
  else if (k === "a" && L.includes("auto")) act("auto");
  else if (k === "f" && L.includes("done")) act("done");
  else if (k === "h" && table().fair_play && table().fair_play.hints) askHints();
  else if (k === "u" && table().can_undo) undo();
  else if (k === "n" && v.phase === "over" && !table().over) send({ type: "next" });
  else if ((k === "x" || k === "enter") && sel && L.includes(`discard ${sel}`)) act(`discard ${sel}`);
  else if (k === "escape" && sel) {
    app.selected = null;
    renderHand(v);
    renderActions(v);
  } else if (k === "k" || k === "g") {
    const found = $("actions").querySelector(k === "k" ? "button.knock" : "button.gin");
    if (found) found.click();
  } else if ((k === "arrowright" || k === "arrowleft") && e.shiftKey) {
    const focused = e.target.closest?.("#hand .card")?.dataset.card;
    const card = sel || focused;
    if (!card || !cards.includes(card)) return;
    shiftCard(card, k === "arrowright" ? 1 : -1);
  } else if (k === "arrowright" || k === "arrowleft") {
    if (!cards.length) return;
    const i = cards.indexOf(sel);
    const next =
      i < 0
        ? k === "arrowright"
          ? 0
          : cards.length - 1
        : (i + (k === "arrowright" ? 1 : cards.length - 1)) % cards.length;
    app.selected = cards[next];
    renderHand(v);
    renderActions(v);
    document.querySelector(`#hand [data-card="${app.selected}"]`)?.focus();
  } else if (/^[0-9]$/.test(k)) {
    const i = k === "0" ? 9 : Number(k) - 1;
    if (!cards[i]) return;
    app.selected = cards[i];
    renderHand(v);
    renderActions(v);
  } else return;
  e.preventDefault();
});
