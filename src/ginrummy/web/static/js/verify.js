// The browser's own check of a deal once the hand is over: the revealed deck and salt hash to
// the commitment published before the first move, the deck is 52 different cards, the upcard is
// the deck's, the cards this seat was dealt came from it, and so did those it drew from the
// stock, in the deck's order.

import { splitCards } from "./cards.js";
import { sha256Hex } from "./common.js";

// The cards this seat was dealt, from the first state this page saw of the hand: the hand less
// what it drew or took, plus what it discarded.
export function dealtHand(v) {
  const cards = new Set(splitCards(v.hand));
  for (const e of v.history) {
    if (e.seat !== v.seat) continue;
    const [kind, card] = e.action.split(" ");
    if ((kind === "draw" || kind === "take") && e.card) cards.delete(e.card);
    if ((kind === "discard" || kind === "knock" || kind === "gin") && card) cards.add(card);
  }
  return [...cards].join(" ");
}

const DECK_TEXT = /^(?:[A2-9TJQK][shdc]){52}$/;

// Whether each card this seat drew from the stock is the deck's card at that draw: the stock
// is the deck past the first 21 cards, drawn from the top by both seats (the other's draws
// name no card, but count). A server that committed to one deck and fed the stock from
// another would pass the other checks.
function drawsFollow(deck, v) {
  let next = 21;
  for (const e of v.history || []) {
    if (e.action !== "draw") continue;
    if (e.seat === v.seat && e.card && deck[next] !== e.card) return false;
    next += 1;
  }
  return true;
}

// ``seen``: what this page kept at the deal ({commitment, dealt}); ``published``: the
// commitment the hand ends with, checked against when the page saw nothing of the deal.
export async function verifyDeal(reveal, v, seen, published) {
  // The commitment that counts is the one this page saw before the first move: a server that
  // published another since has dealt another deck.
  const committed = seen?.commitment || published;
  if (committed !== published) return "✗ The commitment changed during the hand: this is not the deck that was dealt!";
  let digest;
  try {
    digest = await sha256Hex(`${reveal.deck}:${reveal.salt}`);
  } catch {
    return "This browser cannot check the deal (no SHA-256 here).";
  }
  if (digest !== committed) return "✗ The revealed deck does NOT match the commitment published at the deal!";
  // 52 different cards and nothing else: a server that committed to the deal's 21 cards alone
  // (or could split the committed text elsewhere) would have left the stock free.
  const deck = DECK_TEXT.test(reveal.deck) ? reveal.deck.match(/.{2}/g) : [];
  if (new Set(deck).size !== 52) return "✗ The revealed deck is not a deck of 52 different cards!";
  if (v.upcard && deck[20] !== v.upcard) return "✗ The revealed deck does not match the upcard!";
  if (!drawsFollow(deck, v))
    return "✗ The cards you drew from the stock do not come from the revealed deck in its order!";
  if (seen?.dealt && v.seat != null) {
    const mine = deck.slice(0, 20).filter((_, i) => (i % 2 === 0) === (v.seat !== v.dealer));
    // The eleven-card deal turns no upcard: the 21st card is the non-dealer's.
    if (!v.upcard && v.seat !== v.dealer) mine.push(deck[20]);
    const dealt = splitCards(seen.dealt);
    if (!mine.every((c) => dealt.includes(c))) return "✗ Your dealt cards do not come from the revealed deck!";
    return "✓ Deal verified: the revealed deck matches the commitment published before the first move, and your cards came from it.";
  }
  return "✓ Deal verified: the revealed deck matches the commitment published before the first move.";
}
