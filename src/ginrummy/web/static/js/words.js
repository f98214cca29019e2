// Sentences about the game, right for any name and for "you": "You win the hand", "Ann wins".
// Pure functions of the data the server sends; nothing here touches the page.
import { pretty } from "./cards.js";

// Who is who on this page: names by seat, and which seat (if any) is "you".
export function namer(names, mySeat) {
  const you = (seat) => mySeat != null && seat === mySeat;
  return {
    // the subject of a sentence: "You" or the name
    who: (seat) => (seat == null ? "Nobody" : you(seat) ? "You" : names[seat]),
    // the object of a sentence, or a subject within one: "you" or the name
    whom: (seat) => (you(seat) ? "you" : names[seat]),
    // a verb agreeing with its subject: does(seat, "win") is "win" for you, "wins" for Ann
    does: (seat, verb) => (you(seat) ? verb : thirdPerson(verb)),
    whose: (seat) => (you(seat) ? "your" : `${names[seat]}'s`),
    you,
  };
}

const IRREGULAR = { go: "goes", have: "has", are: "is", do: "does", lay: "lays" };
export function thirdPerson(verb) {
  const [head, ...rest] = verb.split(" ");
  let out = IRREGULAR[head];
  if (!out) out = /(s|sh|ch|x|z)$/.test(head) ? `${head}es` : `${head}s`;
  return [out, ...rest].join(" ");
}

// "You take 7♣ from the pile" and the like: one line of the move log for one event.
export function moveLine(event, n, { upcard = null, hidden = false } = {}) {
  const s = event.seat;
  const who = n.who(s);
  const does = (verb) => `${who} ${n.does(s, verb)}`;
  const [kind, cardText] = event.action.split(" ");
  const card = event.card || cardText;
  switch (kind) {
    case "pass":
      return upcard ? `${does("pass")} on the upcard ${pretty(upcard)}.` : `${does("pass")}.`;
    case "take":
      return card ? `${does("take")} ${pretty(card)} from the pile.` : `${does("take")} the top discard.`;
    case "draw":
      return card ? `${does("draw")} ${pretty(card)} from the stock.` : `${does("draw")} from the stock.`;
    case "discard":
      return `${does("discard")} ${pretty(card)}.`;
    case "knock":
      return card && !hidden
        ? `${does("knock")}, discarding ${pretty(card)} face down.`
        : `${does("knock")}, discarding face down.`;
    case "gin":
      return card ? `${does("go")} gin, discarding ${pretty(card)}!` : `${does("go")} gin!`;
    case "biggin":
      return `${does("make")} big gin with all eleven cards!`;
    case "layoff":
      return `${does("lay")} off ${pretty(card)}.`;
    case "auto": {
      const off = event.laid_off || [];
      return off.length
        ? `${does("lay")} off ${off.map(pretty).join(" ")}.`
        : `${who} ${n.does(s, "have")} nothing to lay off.`;
    }
    case "done":
      return `${who} ${n.does(s, "are")} done laying off.`;
    default:
      return `${who}: ${event.action}.`;
  }
}

// The hand's opening line: who deals, and the upcard.
export function dealLine(handNumber, dealer, upcard, n) {
  const up = upcard ? `; the upcard is ${pretty(upcard)}` : "";
  return `Hand ${handNumber}: ${n.who(dealer)} ${n.does(dealer, "deal")}${up}.`;
}

// How the first dealer was chosen: each cut, seat 0's card first.
export function cutLine(cuts, firstDealer, n) {
  if (!cuts?.length) return "";
  const parts = cuts.map(([a, b]) => `${n.who(0)} ${n.does(0, "cut")} ${pretty(a)}, ${n.whom(1)} ${pretty(b)}`);
  const again = cuts.length > 1 ? " (equal ranks cut again)" : "";
  return `Cut for the deal: ${parts.join("; then ")}${again}. Low card deals: ${n.who(firstDealer)} ${n.does(firstDealer, "deal")}.`;
}

// The showdown's headline and its sentence in words.
export function resultHeadline(r, n) {
  if (r.kind === "dead") return "Dead hand";
  if (r.winner == null) return "No score";
  const how = { gin: " with gin", big_gin: " with big gin", undercut: " with an undercut" }[r.kind] || "";
  return `${n.who(r.winner)} ${n.does(r.winner, "win")} the hand${how}`;
}

export function resultWords(r, { n, layoffs = [], rules, dealerNext }) {
  const layoffText = layoffs.length
    ? `${n.does(1 - r.knocker, "lay")} off ${layoffs.map(([c]) => pretty(c)).join(" ")} and `
    : "";
  const doubled = r.multiplier > 1 ? " (doubled: the first upcard was a spade)" : "";
  const scores = (seat, points) => `${n.who(seat)} ${n.does(seat, "score")} ${points}`;
  const k = r.knocker;
  const d = k == null ? null : 1 - k;
  switch (r.kind) {
    case "gin":
      return `${n.who(k)} ${n.does(k, "go")} gin! ${n.who(d)} ${n.does(d, "have")} ${r.defender_deadwood} deadwood: ${scores(r.winner, r.points)} (${r.defender_deadwood} + ${rules.gin_bonus} gin bonus)${doubled}.`;
    case "big_gin":
      return `${n.who(k)} ${n.does(k, "make")} big gin! ${scores(r.winner, r.points)}${doubled}.`;
    case "knock":
      if (r.winner == null)
        return `${n.who(k)} ${n.does(k, "knock")} with ${r.knocker_deadwood}; ${n.whom(d)} ${layoffText}${n.does(d, "tie")} with ${r.defender_deadwood}: no score.`;
      return `${n.who(k)} ${n.does(k, "knock")} with ${r.knocker_deadwood} deadwood; ${n.whom(d)} ${layoffText}${n.does(d, "have")} ${r.defender_deadwood}. ${scores(r.winner, r.points)} (${r.defender_deadwood} − ${r.knocker_deadwood})${doubled}.`;
    case "undercut":
      if (r.defender_deadwood === r.knocker_deadwood)
        return `${n.who(k)} ${n.does(k, "knock")} with ${r.knocker_deadwood}, and ${n.whom(d)} ${layoffText}${n.does(d, "have")} ${r.defender_deadwood} too: a tie counts as an undercut! ${scores(r.winner, r.points)} (0 + ${rules.undercut_bonus} bonus)${doubled}.`;
      return `${n.who(k)} ${n.does(k, "knock")} with ${r.knocker_deadwood}, but ${n.whom(d)} ${layoffText}${n.does(d, "have")} only ${r.defender_deadwood}: undercut! ${scores(r.winner, r.points)} (${r.knocker_deadwood - r.defender_deadwood} + ${rules.undercut_bonus} bonus)${doubled}.`;
    default:
      return `Dead hand: the stock ran down to two cards with no knock. No score; ${n.whom(dealerNext)} ${n.does(dealerNext, "deal")} again.`;
  }
}

// "Ann wins the game by 62" / "You win the match by 310". A game of a match settles no stake
// (``settles`` false): the match settles it once.
export function finalLine(f, n, what, settles = true) {
  if (f.winner == null) return "The totals are even.";
  const stake =
    settles && Number(f.stake) > 0
      ? ` At ${f.stake} a point, ${n.whom(1 - f.winner)} ${n.does(1 - f.winner, "pay")} ${n.whom(f.winner)} ${f.settlement}.`
      : "";
  return `${n.who(f.winner)} ${n.does(f.winner, "win")} the ${what} by ${f.net}.${stake}`;
}

// An action as something one may do: "discard 8♠", "knock, discarding K♦", "draw from the stock".
export function actionWords(text) {
  const [kind, card] = text.split(" ");
  const c = card ? pretty(card) : "";
  return (
    {
      draw: "draw from the stock",
      take: "take the discard",
      pass: "pass",
      discard: `discard ${c}`,
      knock: `knock, discarding ${c}`,
      gin: `go gin, discarding ${c}`,
      biggin: "go big gin",
    }[kind] || text
  );
}

// A hint's reason without its leading "draw from the stock: " or "take Q♠: ", which the
// hint's own words for the action say already ("draw from the stock — Q♠ does not fit…").
export function hintReason(action, reason) {
  const colon = reason.indexOf(": ");
  const kind = action.split(" ")[0].replace("biggin", "big");
  return colon >= 0 && reason.slice(0, colon).split(" ")[0] === kind ? reason.slice(colon + 2) : reason;
}
