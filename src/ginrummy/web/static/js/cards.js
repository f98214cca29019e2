// Cards drawn as SVG by our own code. A card is its text: "Kh", "Ts", "As".
export const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const SUIT_NAMES = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const RANK_NAMES = {
  A: "ace",
  2: "two",
  3: "three",
  4: "four",
  5: "five",
  6: "six",
  7: "seven",
  8: "eight",
  9: "nine",
  T: "ten",
  J: "jack",
  Q: "queen",
  K: "king",
};
const RANKS = "A23456789TJQK";
const SUIT_ORDER = "shdc";

export function rankLabel(card) {
  return card[0] === "T" ? "10" : card[0];
}
export function pretty(card) {
  return rankLabel(card) + SUITS[card[1]];
}
// The card codes in a sentence ("breaks up 7c8c9c; he threw Kd") written as cards, runs of codes
// (a meld) included: "breaks up 7♣ 8♣ 9♣; he threw K♦".
export function prettyText(text) {
  return text.replace(/(?<![A-Za-z0-9])((?:[A2-9TJQK][shdc])+)(?![A-Za-z0-9])/g, (run) =>
    run
      .match(/../g)
      .map((c) => pretty(c))
      .join(" "),
  );
}
export function cardName(card) {
  return `${RANK_NAMES[card[0]]} of ${SUIT_NAMES[card[1]]}`;
}
export function cardValue(card) {
  const r = RANKS.indexOf(card[0]) + 1;
  return Math.min(r, 10);
}
export function cardIndex(card) {
  return SUIT_ORDER.indexOf(card[1]) * 13 + RANKS.indexOf(card[0]);
}
export function splitCards(text) {
  if (!text) return [];
  return text.trim().split(/\s+/).filter(Boolean);
}
export function meldCards(meld) {
  return meld.match(/.{2}/g) || [];
}

function suitColour(suit, fourColour) {
  if (fourColour) return { s: "#111", h: "#c1121f", d: "#1d4ed8", c: "#15803d" }[suit];
  return suit === "h" || suit === "d" ? "#c1121f" : "#111";
}

// An <svg> string for one card (or its back when card is null).
export function cardSVG(card, { fourColour = false } = {}) {
  if (!card) {
    return `<svg viewBox="0 0 60 84" class="card-svg" aria-hidden="true">
      <rect x="1" y="1" width="58" height="82" rx="6" fill="#1e3a8a" stroke="#0b1d4d"/>
      <rect x="6" y="6" width="48" height="72" rx="4" fill="none" stroke="#93c5fd" stroke-width="1.5"
        stroke-dasharray="3 2"/>
      <path d="M30 22 L42 42 L30 62 L18 42 Z" fill="#3b82f6" opacity="0.7"/></svg>`;
  }
  const colour = suitColour(card[1], fourColour);
  const rank = rankLabel(card);
  const suit = SUITS[card[1]];
  return `<svg viewBox="0 0 60 84" class="card-svg" aria-hidden="true">
    <rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#555"/>
    <text x="5" y="18" font-size="16" font-weight="700" fill="${colour}" font-family="system-ui,sans-serif">${rank}</text>
    <text x="5" y="32" font-size="13" fill="${colour}">${suit}</text>
    <text x="30" y="60" font-size="30" text-anchor="middle" fill="${colour}">${suit}</text>
    <text x="55" y="80" font-size="11" text-anchor="end" fill="${colour}" font-family="system-ui,sans-serif">${rank}${suit}</text></svg>`;
}

// A focusable card element.
export function cardElement(card, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "span");
  el.className = `card${card ? "" : " back"}`;
  el.innerHTML = cardSVG(card, opts);
  if (card) {
    el.dataset.card = card;
    el.setAttribute("aria-label", cardName(card));
    el.title = pretty(card);
  } else {
    el.setAttribute("aria-label", "face-down card");
  }
  if (opts.button) el.type = "button";
  else el.setAttribute("role", "img"); // a picture with a name, for screen readers
  return el;
}
