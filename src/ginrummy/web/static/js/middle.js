// The middle of the table: the stock and the discard pile (each a button when it may be drawn
// or taken), the discards so far, and the melds on the table after a knock.

import { cardElement, cardName, cardValue, meldCards, pretty, splitCards } from "./cards.js";
import { h } from "./common.js";
import { $, act, app, isLegal, words } from "./tablestate.js";

export function renderMiddle(v) {
  const stock = $("stock");
  const pile = $("pile");
  stock.replaceChildren();
  pile.replaceChildren();
  const melds = $("melds");
  melds.replaceChildren();
  if (!v) return;
  const stockCard = cardElement(null, { button: true });
  stockCard.classList.toggle("playable", isLegal("draw"));
  stockCard.setAttribute("aria-label", `stock, ${v.stock_count} cards${isLegal("draw") ? ": draw" : ""}`);
  stockCard.onclick = () => isLegal("draw") && act("draw");
  stock.append(stockCard, h("div", { class: "count" }, `${v.stock_count} in stock`));
  const pileCards = splitCards(v.discard_pile);
  const top = pileCards[pileCards.length - 1];
  if (top) {
    const el = cardElement(top, { ...app.opts, button: true });
    el.classList.toggle("playable", isLegal("take"));
    el.setAttribute("aria-label", `discard pile, top card ${cardName(top)}${isLegal("take") ? ": take it" : ""}`);
    el.onclick = () => isLegal("take") && act("take");
    pile.append(el);
  } else {
    pile.append(h("div", { class: "empty-pile" }, "discard pile"));
  }
  $("discards").replaceChildren(
    ...(pileCards.length
      ? [
          h("span", { class: "muted" }, "Discards: "),
          ...pileCards.map((c) => h("span", { class: `mini s-${c[1]}` }, pretty(c))),
        ]
      : []),
  );
  // what the table shows after a knock
  if (v.knocker != null && v.table_melds.length) {
    const n = words();
    // a gin is called so (it ends the hand at once, so the result names it), and a knock's
    // deadwood is counted: the defender needs it to lay off and to see an undercut coming
    const kind = v.result?.kind;
    const verb = kind === "gin" ? "go gin" : kind === "big_gin" ? "make big gin" : "knock";
    const dead = splitCards(v.knocker_deadwood);
    const count = dead.length ? ` (${dead.reduce((sum, c) => sum + cardValue(c), 0)} deadwood)` : "";
    melds.append(
      h("div", { class: "seat-label" }, `${n.who(v.knocker)} ${n.does(v.knocker, verb)}: melds on the table${count}`),
    );
    const row = h("div", { class: "meld-row" });
    // the melds as the layoffs extend them, each card laid off marked on its meld (it slides
    // over from the defender's hand)
    const off = new Set(v.layoffs.map(([c]) => c));
    for (const m of v.table_melds) row.append(meldGroup(meldCards(m), "", off));
    if (dead.length) row.append(meldGroup(dead, "deadwood"));
    melds.append(row);
    if (v.layoffs.length)
      melds.append(h("div", { class: "muted" }, `Laid off: ${v.layoffs.map(([c]) => pretty(c)).join(" ")}`));
  }
}

// A meld's cards, or the deadwood's: that group is named, with its count, in words (its darker
// background alone told it from the melds by colour only, and not at all to a screen reader).
export function meldGroup(cards, extra = "", laidOff = new Set()) {
  const g = h("div", { class: `meld ${extra}`.trim() });
  if (extra === "deadwood") {
    const count = cards.reduce((sum, c) => sum + cardValue(c), 0);
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", `deadwood, ${count}`);
    g.append(h("span", { class: "meld-caption", "aria-hidden": "true" }, `deadwood ${count}`));
  }
  for (const c of cards) {
    const el = cardElement(c, app.opts);
    if (laidOff.has(c)) {
      el.classList.add("laid-off");
      el.title = `${el.title || cardName(c)} (laid off)`;
    }
    g.append(el);
  }
  return g;
}
