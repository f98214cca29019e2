// Your moves: the bar of buttons for the moves of this phase (with what the page says of it),
// the knock dialog that asks how to lay down, the hints, and undo.

import { cardValue, pretty, prettyText } from "./cards.js";
import { h } from "./common.js";
import { $, act, app, button, legal, notComeYet, send, table, toast, view, withKeys, words } from "./tablestate.js";
import { actionWords, hintReason } from "./words.js";

// A touch screen is tapped, not clicked (the same test as style.css's for hiding key hints).
const press = () => (matchMedia("(hover: none) and (pointer: coarse)").matches ? "tap" : "click");

export function renderActions(v) {
  drawActions(v);
  // Without the connection no move comes or goes: said instead of the turn's words (the
  // notice at the top says the connection is lost). The buttons stay, not to move the hand.
  if (app.offline && v && v.phase !== "over")
    $("status").textContent = "Waiting for the connection: the game goes on when it is back.";
}

function drawActions(v) {
  const bar = $("actions");
  bar.replaceChildren();
  const status = $("status");
  if (!v) {
    status.textContent = "Waiting for the deal…";
    return;
  }
  const me = v.seat;
  const n = words();
  if (v.phase === "over") {
    status.textContent = "The hand is over.";
    return;
  }
  if (me == null || v.current_player !== me) {
    const who = v.current_player;
    status.textContent =
      v.phase === "layoff"
        ? `${n.who(who)} ${n.does(who, "are")} laying off…`
        : table().options.mode === "computer" && who === 1
          ? `${n.who(who)} is thinking…`
          : notComeYet(who)
            ? `${n.who(who)} to play, once they open your invite.`
            : `${n.who(who)} to play.`;
    return;
  }
  const L = legal();
  if (v.phase === "first_upcard") {
    status.textContent = `Take the upcard ${pretty(v.discard_pile.split(" ").pop())} or pass.`;
    bar.append(
      button("Take upcard (T)", () => act("take"), "primary"),
      button("Pass (P)", () => act("pass")),
    );
  } else if (v.phase === "draw") {
    status.replaceChildren(
      ...withKeys(
        L.includes("take") ? "Draw from the stock (D) or take the top discard (T)." : "Draw from the stock (D).",
      ),
    );
    if (L.includes("draw")) bar.append(button("Draw from stock (D)", () => act("draw"), "primary"));
    if (L.includes("take")) bar.append(button("Take discard (T)", () => act("take")));
  } else if (v.phase === "discard") {
    discardActions(v, L, bar, status);
  } else if (v.phase === "layoff") {
    const offs = L.filter((a) => a.startsWith("layoff "));
    showLayoffs();
    status.replaceChildren(
      ...withKeys(
        offs.length
          ? `Lay off the ringed cards onto the knocker's melds (${press()} them), or let the optimal layoffs be made.`
          : "Nothing to lay off: press Done (F) to see the result.",
      ),
    );
    for (const a of offs) bar.append(button(`Lay off ${pretty(a.split(" ")[1])}`, () => act(a)));
    // with nothing to lay off, Done is the move asked for (the optimal layoffs of nothing are
    // no more than it)
    bar.append(
      button("Optimal layoffs (A)", () => act("auto"), offs.length ? "primary" : ""),
      button("Done (F)", () => act("done"), offs.length ? "" : "primary"),
    );
  } else if (v.phase === "wall") {
    status.textContent = "The stock is down to two cards: take the last discard only to knock with it, or pass.";
    if (L.includes("take")) bar.append(button("Take to knock", () => act("take"), "primary"));
    bar.append(button("Pass", () => act("pass")));
  }
}

// On a phone the knocker's melds come in above the hand and push it below the screen: once a
// hand, the page is scrolled up to the hand, as far as the melds stay in view.
function showLayoffs() {
  if (app.layoffsShown === table().hand_number) return;
  app.layoffsShown = table().hand_number;
  requestAnimationFrame(() => {
    const mine = $("mine").getBoundingClientRect();
    // a little past the hand's edge (flush, a fraction of a pixel left the cards' foot cut)
    const by = Math.min(Math.ceil(mine.bottom - innerHeight) + 8, Math.floor($("melds").getBoundingClientRect().top));
    if (by > 0) scrollBy(0, by);
  });
}

function discardActions(v, L, bar, status) {
  const sel = app.selected;
  const after = v.discard_deadwood || {};
  // Knock and gin show as soon as they are possible: with the selected card, or else with the
  // card that leaves the least deadwood.
  const lowest = (kind) =>
    L.filter((a) => a.startsWith(`${kind} `))
      .map((a) => a.split(" ")[1])
      .sort((a, b) => (after[a] ?? 99) - (after[b] ?? 99))[0];
  if (sel) {
    status.textContent = `${pretty(sel)} selected.`;
    if (L.includes(`discard ${sel}`))
      bar.append(button(`Discard ${pretty(sel)} (X)`, () => act(`discard ${sel}`), "primary"));
  } else {
    status.textContent = `Choose a card to discard (${press()} it, or drag it to the pile).`;
  }
  // At a table without hints the page does not pick the discard for you (the best discard by
  // deadwood is help): Knock and Gin name the card you selected.
  const helped = v.discard_deadwood != null;
  const gin = sel && L.includes(`gin ${sel}`) ? sel : helped ? lowest("gin") : null;
  const knock = sel && L.includes(`knock ${sel}`) ? sel : helped ? lowest("knock") : null;
  if (gin) bar.append(button(`Gin with ${pretty(gin)} (G)`, () => confirmKnock(`gin ${gin}`), "gin"));
  else if (knock) bar.append(button(`Knock with ${pretty(knock)} (K)`, () => confirmKnock(`knock ${knock}`), "knock"));
  if (L.includes("biggin")) bar.append(button("Big gin!", () => confirmKnock("biggin"), "gin"));
  if (!sel && (gin || knock)) status.textContent += gin ? " You can go gin!" : " You can knock.";
  else if (!sel && !helped && (lowest("gin") || lowest("knock")))
    status.textContent += " You can knock: select the card to discard.";
  if (sel && v.taken_card === sel)
    status.textContent = `${pretty(sel)} was just taken from the pile: discard another card.`;
}

function confirmKnock(action) {
  const v = view();
  const options = v.knock_options?.[action] || [];
  const dlg = $("knock-dialog");
  const list = $("knock-list");
  list.replaceChildren();
  const [kind, card] = action.split(" ");
  $("knock-title").textContent =
    kind === "gin"
      ? `Go gin, discarding ${pretty(card)}?`
      : kind === "biggin"
        ? "Big gin: lay down all eleven cards?"
        : `Knock, discarding ${pretty(card)}?`;
  // each card in its suit's colour, as on the table (in plain text 7♥ 7♦ 7♣ read alike)
  const cards = (cs) => cs.flatMap((c, i) => [i ? " " : "", h("span", { class: `mini s-${c[1]}` }, pretty(c))]);
  options.forEach((arr, i) => {
    const meldsText = arr.text.split("|")[0].trim(); // what the action names
    const id = `arr-${i}`;
    const dead = arr.deadwood;
    list.append(
      h(
        "label",
        { for: id, class: "arr" },
        h("input", { type: "radio", name: "arr", id, value: meldsText, checked: i === 0 }),
        " ",
        // in one box beside the radio, which wraps on a narrow screen (on a touch screen the
        // label is a flex row: each card a box of its own, the line ran past the dialog's edge)
        h(
          "span",
          {},
          ...arr.melds.flatMap((m, j) => [j ? "  |  " : "", ...cards(m)]),
          ...(dead.length ? ["  — deadwood ", ...cards(dead), ` (${dead.reduce((s, c) => s + cardValue(c), 0)})`] : []),
        ),
      ),
    );
  });
  $("knock-intro").textContent = options.length > 1 ? "Choose how to lay down your melds:" : "Your melds:";
  // Enter on an arrangement lays it down, as the dialog's own button does.
  list.onkeydown = (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      $("knock-ok").click();
    }
  };
  $("knock-ok").onclick = () => {
    const chosen = list.querySelector("input:checked");
    let text = action;
    if (chosen && options.length > 1 && chosen.id !== "arr-0" && chosen.value !== "-") text += ` ${chosen.value}`;
    dlg.close();
    act(text);
  };
  dlg.showModal();
}

// Hints take the server a moment to work out (seconds, on a busy one): the box says so at once,
// so that a press of Hint (or H) is seen to have done something. An answer or a new state
// replaces it; a refusal takes it away (table.js).
export const HINTS_ASKED = "asked";
export function askHints() {
  app.hints = HINTS_ASKED;
  renderHints();
  send({ type: "hint" });
}

export function renderHints() {
  const box = $("hints");
  box.replaceChildren();
  if (!app.hints) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (app.hints === HINTS_ASKED) {
    box.append(h("h3", {}, "Hints"), h("p", { class: "muted", role: "status" }, "Working out your best moves…"));
    return;
  }
  box.append(
    h("h3", {}, "Hints"),
    h(
      "ol",
      {},
      ...app.hints
        .slice(0, 5)
        .map((x) =>
          h(
            "li",
            {},
            h("button", { type: "button", class: "link", onclick: () => act(x.action) }, actionWords(x.action)),
            ` — ${prettyText(hintReason(x.action, x.reason))}`,
          ),
        ),
    ),
  );
}

// Undo: the first in a game says what it costs (the game then counts in no statistics) and
// takes a second press within a few seconds.
export function undo() {
  if (!table().fair_play?.undo_used && !app.undoArmed) {
    app.undoArmed = true;
    setTimeout(() => {
      app.undoArmed = false;
    }, 6000);
    toast(
      "Undo takes back your last move, and this game will then count in no statistics: press Undo again to take it back.",
      false,
      6000, // shown as long as the second press is awaited
    );
    return;
  }
  app.undoArmed = false;
  send({ type: "undo" });
  toast("Your last move is taken back.");
}
