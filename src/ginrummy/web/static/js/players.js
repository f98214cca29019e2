// The two seats: their labels (name, dealer, whose turn, whether connected), the far seat's
// cards, and a seat as a spectator sees it; the move clock; the form where a player gives a name.

import { cardElement, cardName, pretty, splitCards } from "./cards.js";
import { forgetInvite, h, inviteButton, inviteFor, saveSettings, settings } from "./common.js";
import { $, app, button, mySeat, myTurn, notComeYet, send, table, toast, view } from "./tablestate.js";

// The two seats' labels: name, dealer, whose turn, and whether a person is connected.
export function renderPlayers() {
  if (!app.state) return;
  const v = view();
  const t = table();
  const me = mySeat() ?? 0;
  const opp = 1 - me;
  const computer = t.options.mode === "computer";
  const connected = app.connected || [true, true];
  const label = (seat, el, mine) => {
    const parts = [h("span", { class: "who" }, mine && mySeat() != null ? `${t.names[seat]} (you)` : t.names[seat])];
    if (v && v.dealer === seat) parts.push(h("span", { class: "badge" }, "Dealer"));
    if (!computer) {
      // between people, whether each is here (against the computer, both always are)
      const on = connected[seat];
      const off = notComeYet(seat) ? "○ not here yet" : "○ away";
      parts.push(h("span", { class: `presence ${on ? "on" : "off"}` }, on ? "● connected" : off));
    }
    if (v && v.phase !== "over" && v.current_player === seat) {
      parts.push(
        computer && seat === 1 && !app.offline
          ? h(
              "span",
              { class: "turn thinking", role: "status" },
              "thinking",
              h("span", { class: "dots", "aria-hidden": "true" }, "…"),
            )
          : h("span", { class: "turn" }, mine && mySeat() != null ? "your turn" : "to play"),
      );
    }
    el.replaceChildren(...parts);
  };
  label(opp, $("opp-label"), false);
  label(me, $("my-label"), true);
  renderOpponentCards(v, opp);
}

function renderOpponentCards(v, opp) {
  const row = $("opp-cards");
  row.replaceChildren();
  if (!v) return;
  const t = table();
  if (v.seat == null) {
    seatInPublic(row, v, opp);
  } else if (v.knocker === opp) {
    row.append(h("span", { class: "muted" }, "laid out on the table"));
  } else if (v.opponent_hand) {
    for (const c of splitCards(v.opponent_hand)) row.append(cardElement(c, app.opts));
  } else {
    const known = splitCards(v.opponent_known);
    known.forEach((c) => {
      const el = cardElement(c, app.opts);
      el.classList.add("known");
      el.title = `${pretty(c)}: taken from the pile`;
      row.append(el);
    });
    for (let i = known.length; i < v.opponent_count; i++) row.append(cardElement(null));
  }
  row.setAttribute(
    "aria-label",
    v.seat == null ? publicLabel(v, opp) : heldLabel(t.names[opp], v.opponent_count, v.opponent_known),
  );
}

function heldLabel(name, count, known) {
  const seen = known ? `, known: ${splitCards(known).map(cardName).join(", ")}` : "";
  return `${name} holds ${count} cards${seen}`;
}

export const publicLabel = (v, seat) => heldLabel(table().names[seat], v.counts[seat], v.known[seat]);

// A seat as a spectator sees it: the cards it took from the pile and backs for the rest, its
// cards laid out once it knocked, and its whole hand once the hand is over.
export function seatInPublic(row, v, seat) {
  if (v.knocker === seat) {
    // the knocker's cards lie on the table (and, once the hand is over, in the result too)
    row.append(h("span", { class: "muted" }, "laid out on the table"));
  } else if (v.hands) {
    for (const c of splitCards(v.hands[seat])) row.append(cardElement(c, app.opts));
  } else {
    const known = splitCards(v.known[seat]);
    for (const c of known) row.append(cardElement(c, app.opts));
    for (let i = known.length; i < v.counts[seat]; i++) row.append(cardElement(null));
  }
}

// The seconds left until ``deadline`` (the server's time, in seconds), and how a clock shows
// them: the move clock, and the wait for the next hand. The device's clock is taken as the
// server's by the offset the pongs measured (``app.skew``), so a device whose clock is minutes
// off shows the time the server gives.
export const secondsLeft = (deadline) => Math.max(0, Math.round(deadline - (Date.now() / 1000 + app.skew)));
export const clockText = (seconds) => `⏱ ${seconds}s`;

export function renderClock(t) {
  clearInterval(renderClock.timer);
  const el = $("clock");
  if (t.clock_held != null) {
    // the seat to move is away: its time waits for it (the clock never plays for it)
    const away = t.names[view()?.current_player ?? 1];
    el.textContent = `⏸ ${t.clock_held}s`;
    el.title = `The clock waits while ${away} is away.`;
    return;
  }
  el.title = "";
  if (!t.deadline) {
    el.textContent = "";
    return;
  }
  const tick = () => {
    const left = secondsLeft(t.deadline);
    el.textContent = clockText(left);
    // The clock is a timer, not read out at each tick (it drowned everything else): the
    // player to move is told once that time is running out.
    if (left <= 10 && myTurn() && renderClock.warned !== t.deadline) {
      renderClock.warned = t.deadline;
      $("live").textContent = `${left} seconds left to move.`;
    }
  };
  tick();
  renderClock.timer = setInterval(tick, 1000);
}

// The invited player (or anyone still called by a default name) may say who they are.
export function renderNameForm(t) {
  const box = $("name-form");
  const seat = mySeat();
  const show =
    seat != null && !t.over && /^Player [12]$/.test(t.names[seat]) && !(t.options.mode === "computer" && seat === 1);
  box.hidden = !show;
  if (!show || box.childElementCount) return;
  const input = h("input", { id: "my-name", maxlength: "40", autocomplete: "nickname", value: settings().name || "" });
  box.append(
    h("span", { class: "muted" }, `${t.names[1 - seat]} sees you as "${t.names[seat]}": tell them who you are.`),
    h("label", { for: "my-name" }, "Your name "),
    input,
    button("Save", () => saveName(input.value)),
  );
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") saveName(input.value);
  });
}

function saveName(name) {
  const clean = name.trim();
  if (!clean) {
    toast("Type a name first.", true);
    return;
  }
  saveSettings({ ...settings(), name: clean });
  send({ type: "name", name: clean });
}

// While the friend has not come (the server says the invite is still open, and from which
// table: a rematch's is the first table's, whose link was sent), the one who opened the table
// in this browser may still send the invite from here.
export function renderInvite(t) {
  const box = $("invite-box");
  const from = t.seat === 0 && t.options.mode === "friend" ? t.invite_open : null;
  const link = from ? inviteFor(from) : null;
  const connected = app.connected || t.connected;
  const came = connected[1] || !from;
  if (t.seat === 0 && came) forgetInvite(from || t.id);
  box.hidden = !link || came || t.over;
  if (box.hidden || $("table-invite-link").value === link) return;
  $("table-invite-link").value = link;
  inviteButton($("table-copy-invite"), $("table-invite-link"), $("table-invite-said"), link);
}
