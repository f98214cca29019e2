// The browser's own check of a deal once the hand is over: the revealed deck and salt hash to
// the commitment published before the first move, the upcard is the deck's, and the cards this
// seat was dealt came from it.

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
  const deck = reveal.deck.match(/.{2}/g);
  if (v.upcard && deck[20] !== v.upcard) return "✗ The revealed deck does not match the upcard!";
  if (seen?.dealt && v.seat != null) {
    const mine = deck.slice(0, 20).filter((_, i) => (i % 2 === 0) === (v.seat !== v.dealer));
    const dealt = splitCards(seen.dealt);
    if (!mine.every((c) => dealt.includes(c))) return "✗ Your dealt cards do not come from the revealed deck!";
    return "✓ Deal verified: the revealed deck matches the commitment published before the first move, and your cards came from it.";
  }
  return "✓ Deal verified: the revealed deck matches the commitment published before the first move.";
}
