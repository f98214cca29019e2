// Your hand: its cards in groups as arranged (selected, just drawn, one that lays off), its
// deadwood, the arrangement's controls, and what a click or a drop on a card does.

import { renderActions } from "./actions.js";
import { arrangeHand, MODES, moveCard, savedOrder, saveMode, saveOrder } from "./arrange.js";
import { cardElement, cardName, cardValue, pretty, splitCards } from "./cards.js";
import { h } from "./common.js";
import { publicLabel, seatInPublic } from "./players.js";
import { $, act, app, isLegal, table, tableId, toast, view } from "./tablestate.js";

// The card you just drew or took: marked until you discard.
function justDrawn(v) {
  const last = v.history[v.history.length - 1];
  if (!last || last.seat !== v.seat || v.phase !== "discard") return null;
  return last.action === "draw" || last.action === "take" ? last.card || null : null;
}

export function handCards(v) {
  return arrangeHand(v, app.mode, savedOrder(tableId, table().hand_number));
}

export function renderHand(v) {
  const box = $("hand");
  box.replaceChildren();
  renderArrangeControls();
  if (!v || v.seat == null) {
    // a spectator: the near seat (the first player) as the far one, face down
    $("deadwood").textContent = "";
    $("mine").hidden = !v;
    $("arrange").hidden = true;
    if (v) {
      const row = h("div", { class: "cards opp", role: "img", "aria-label": publicLabel(v, 0) });
      seatInPublic(row, v, 0);
      box.append(row);
    }
    return;
  }
  $("mine").hidden = false;
  $("arrange").hidden = v.knocker === v.seat;
  if (v.knocker === v.seat) {
    // knocked: the cards lie on the table (above), melds and deadwood, and not also here
    const dead = splitCards(v.knocker_deadwood).reduce((sum, c) => sum + cardValue(c), 0);
    box.append(h("p", { class: "muted laid-out" }, "Your cards are laid out on the table."));
    $("deadwood").textContent = `Deadwood ${dead}${dead === 0 ? ": gin!" : ""}`;
    return;
  }
  const drawn = justDrawn(v);
  // a meld and the deadwood are groups with a name, for those who do not see their shading
  const groupNames = { meld: "Meld", deadwood: "Deadwood" };
  for (const group of handCards(v)) {
    const name = groupNames[group.kind];
    const g = h("div", { class: `group ${group.kind}`, role: name && "group", "aria-label": name });
    for (const c of group.cards) {
      const el = cardElement(c, { ...app.opts, button: true });
      if (c === app.selected) {
        el.classList.add("selected");
        el.setAttribute("aria-pressed", "true");
      } else el.setAttribute("aria-pressed", "false");
      if (c === v.taken_card) {
        el.classList.add("taken");
        el.title += " (just taken from the pile: cannot be discarded now)";
      }
      if (c === drawn) {
        el.classList.add("drawn");
        el.title += " (just drawn)";
        el.setAttribute("aria-label", `${cardName(c)}, just drawn`);
      }
      if (v.phase === "layoff" && isLegal(`layoff ${c}`)) {
        // a card that lays off is ringed, as the stock is when it may be drawn: a click lays it off
        el.classList.add("playable");
        el.setAttribute("aria-label", `${cardName(c)}: lay it off`);
      }
      el.onclick = () => onCardClick(c);
      el.ondblclick = () => isLegal(`discard ${c}`) && act(`discard ${c}`);
      g.append(el);
    }
    box.append(g);
  }
  $("deadwood").textContent = deadwoodText(v);
}

function deadwoodText(v) {
  const after = v.discard_deadwood || {};
  const choices = Object.entries(after);
  if (!choices.length) return `Deadwood ${v.arrangement.count}${v.arrangement.count === 0 ? ": gin!" : ""}`;
  const best = Math.min(...choices.map(([, d]) => d));
  const bestCards = choices.filter(([, d]) => d === best).map(([c]) => pretty(c));
  let text = `Deadwood after the best discard (${bestCards.join(" or ")}): ${best}`;
  if (app.selected && after[app.selected] != null && after[app.selected] !== best) {
    text += `; after ${pretty(app.selected)}: ${after[app.selected]}`;
  }
  return text;
}

function renderArrangeControls() {
  const box = $("arrange");
  if (box.childElementCount) {
    for (const input of box.querySelectorAll("input")) input.checked = input.value === app.mode;
    return;
  }
  box.append(
    h("legend", { class: "sr-only" }, "Arrange your hand"),
    h("span", { class: "muted", "aria-hidden": "true" }, "Arrange:"),
  );
  for (const [mode, label] of MODES) {
    const input = h("input", { type: "radio", name: "arrange", value: mode, checked: mode === app.mode });
    input.onchange = () => setMode(mode);
    box.append(h("label", { class: "seg" }, input, label));
  }
}

function setMode(mode) {
  app.mode = mode;
  saveMode(mode);
  if (mode === "custom" && app.state && view() && !savedOrder(tableId, table().hand_number)) {
    saveOrder(
      tableId,
      table().hand_number,
      handCards(view()).flatMap((g) => g.cards),
    );
  }
  if (app.state) renderHand(view());
}

// A card dropped on another (reorder: the hand is now arranged by hand) or on the pile.
export function onDrop(card, target) {
  const v = view();
  if (!v || v.seat == null) return;
  if (target === "pile") {
    if (isLegal(`discard ${card}`)) act(`discard ${card}`);
    else if (v.phase === "discard") toast(`${pretty(card)} cannot be discarded now.`, true);
    return;
  }
  keepOrder(
    v,
    moveCard(
      handCards(v).flatMap((g) => g.cards),
      card,
      target,
    ),
  );
}

// The hand in ``order``, arranged by hand from now on (the player's own view: no move).
function keepOrder(v, order) {
  saveOrder(tableId, table().hand_number, order);
  if (app.mode !== "custom") {
    app.mode = "custom";
    saveMode("custom");
  }
  renderHand(v);
}

// The keyboard's drag (Shift+←/→): ``card`` one place along the hand (``by`` -1 or 1), said
// to a screen reader, and keeping the focus to move on.
export function shiftCard(card, by) {
  const v = view();
  if (!v || v.seat == null || !$("hand").querySelector(`[data-card="${card}"]`)) return;
  const order = handCards(v).flatMap((g) => g.cards);
  const from = order.indexOf(card);
  if (from < 0) return;
  const to = from + by;
  if (to < 0 || to >= order.length) {
    $("live").textContent = `${cardName(card)} is ${to < 0 ? "first" : "last"} in your hand already.`;
    return;
  }
  order.splice(from, 1);
  order.splice(to, 0, card);
  keepOrder(v, order);
  $("live").textContent = `${cardName(card)} moved to place ${to + 1} of ${order.length}.`;
  document.querySelector(`#hand [data-card="${card}"]`)?.focus();
}

function onCardClick(c) {
  const v = view();
  if (v.phase === "layoff" && isLegal(`layoff ${c}`)) {
    act(`layoff ${c}`);
    return;
  }
  app.selected = app.selected === c ? null : c;
  renderHand(v);
  renderActions(v);
  document.querySelector(`#hand [data-card="${c}"]`)?.focus();
}
