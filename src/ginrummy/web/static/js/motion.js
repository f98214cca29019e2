// Card movements animated: each card slides from where it was to where it is now (a drawn card
// from the stock, a discard from the hand or the opponent's seat to the pile, melds laid down).
// Nothing moves for people who ask their system for less motion.
const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function rects(root) {
  const out = new Map();
  for (const el of root.querySelectorAll("[data-card]")) {
    if (!out.has(el.dataset.card)) out.set(el.dataset.card, el.getBoundingClientRect());
  }
  return out;
}

function rectOf(root, selector) {
  const el = root.querySelector(selector);
  return el ? el.getBoundingClientRect() : null;
}

// Where everything is now: call before redrawing.
export function snapshot(root) {
  return {
    cards: rects(root),
    stock: rectOf(root, "#stock"),
    opponent: rectOf(root, "#opponent .cards"),
  };
}

// After redrawing: slide every card that moved from its old place (or, for a card that was
// nowhere to be seen, from the stock when it lands in your hand and from the opponent's seat
// when it lands anywhere else).
export function play(root, before, { duration = 260 } = {}) {
  if (!before || reduced()) return 0;
  let moved = 0;
  const done = new Set();
  for (const el of root.querySelectorAll("[data-card]")) {
    const card = el.dataset.card;
    if (done.has(card)) continue;
    done.add(card);
    const now = el.getBoundingClientRect();
    let from = before.cards.get(card);
    if (!from) from = el.closest("#hand") ? before.stock : before.opponent;
    if (!from) continue;
    const dx = from.left - now.left;
    const dy = from.top - now.top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) continue;
    el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration, easing: "ease-out" });
    moved += 1;
  }
  return moved;
}
