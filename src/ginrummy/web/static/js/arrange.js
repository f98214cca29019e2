// How your hand is laid out: by melds (the best arrangement, deadwood last), by suit, by rank,
// or by hand (dragged). The mode is remembered for every table; a hand-made order for the hand
// it was made in, so both survive a reload.
import { cardIndex, splitCards } from "./cards.js";

export const MODES = [
  ["melds", "Melds"],
  ["suit", "Suit"],
  ["rank", "Rank"],
  ["custom", "By hand"],
];
const MODE_KEY = "ginrummy.arrange";
const RANKS = "A23456789TJQK";

export function savedMode() {
  try {
    const mode = localStorage.getItem(MODE_KEY);
    return MODES.some(([m]) => m === mode) ? mode : "melds";
  } catch {
    return "melds";
  }
}
export function saveMode(mode) {
  try {
    localStorage.setItem(MODE_KEY, mode);
  } catch {
    /* storage disabled */
  }
}

const orderKey = (tableId) => `ginrummy.order.${tableId}`;
// The hand-made order of this table's hand ``handNumber``, or null.
export function savedOrder(tableId, handNumber) {
  try {
    const saved = JSON.parse(localStorage.getItem(orderKey(tableId)) || "null");
    return saved && saved.hand === handNumber && Array.isArray(saved.cards) ? saved.cards : null;
  } catch {
    return null;
  }
}
export function saveOrder(tableId, handNumber, cards) {
  try {
    localStorage.setItem(orderKey(tableId), JSON.stringify({ hand: handNumber, cards }));
  } catch {
    /* disabled */
  }
}

const bySuit = (a, b) => cardIndex(a) - cardIndex(b);
const byRank = (a, b) => RANKS.indexOf(a[0]) - RANKS.indexOf(b[0]) || cardIndex(a) - cardIndex(b);

// The hand's cards in groups: [{cards, kind}] where kind is "meld", "deadwood" or "plain".
export function arrangeHand(view, mode, customOrder) {
  const cards = splitCards(view.hand);
  if (mode === "custom" && customOrder) {
    const kept = customOrder.filter((c) => cards.includes(c));
    const added = cards.filter((c) => !kept.includes(c)); // a card drawn since: at the end
    return [{ cards: kept.concat(added), kind: "plain" }];
  }
  if (mode === "suit" || mode === "rank") {
    const sorted = [...cards].sort(mode === "suit" ? bySuit : byRank);
    if (mode === "rank") return [{ cards: sorted, kind: "plain" }];
    const groups = [];
    for (const c of sorted) {
      const last = groups[groups.length - 1];
      if (last && last.cards[0][1] === c[1]) last.cards.push(c);
      else groups.push({ cards: [c], kind: "plain" });
    }
    return groups;
  }
  const groups = view.arrangement.melds.map((m) => ({ cards: m, kind: "meld" }));
  // Deadwood highest rank first (not by points: every picture counts 10, and J♣ Q♣ would part).
  const dead = [...view.arrangement.deadwood].sort((a, b) => byRank(b, a));
  if (dead.length) groups.push({ cards: dead, kind: "deadwood" });
  return groups;
}

// The order after dragging ``moved`` onto ``target`` (before it).
export function moveCard(order, moved, target) {
  if (!moved || moved === target || !order.includes(moved)) return order;
  const out = order.filter((c) => c !== moved);
  const at = target ? out.indexOf(target) : -1;
  out.splice(at < 0 ? out.length : at, 0, moved);
  return out;
}
