// The table page: one WebSocket for this seat; every "state" message redraws the page.
// What the page holds lives in one object, `app` (tablestate.js); each area of the page is drawn
// by a module that reads it (players, middle, hand, actions, showdown; keys listens to the
// keyboard); the other modules are functions of their arguments (words, arrange, drag, motion,
// movelog, sound, board, review, sheet, verify).

import { askHints, HINTS_ASKED, renderActions, renderHints, undo } from "./actions.js";
import { splitCards } from "./cards.js";
import { applySettings, h, saveSettings, saveTable, settings, shareLink, themeChoice } from "./common.js";
import { enableDrag } from "./drag.js";
import { onDrop, renderHand } from "./hand.js";
import { renderMiddle } from "./middle.js";
import { play as animate, snapshot } from "./motion.js";
import { renderLog } from "./movelog.js";
import { renderClock, renderInvite, renderNameForm, renderPlayers } from "./players.js";
import { renderSheet } from "./sheet.js";
import { renderShowdown, showReview } from "./showdown.js";
import { playSound } from "./sound.js";
import {
  $,
  app,
  button,
  followRematch,
  myTurn,
  placeToast,
  saveCommitments,
  send,
  setMovedAway,
  table,
  tableId,
  toast,
  view,
  words,
} from "./tablestate.js";
import { dealtHand } from "./verify.js";
// The keys: keys.js listens to them once loaded.
import "./keys.js";

// A seat link carries its token after "#" (never sent to the server, so never in its logs or
// in a Referer); older links had "?s=". Either way it moves into this browser's storage and
// out of the address bar at once.
const linkToken = new URLSearchParams(location.hash.slice(1)).get("s") || new URLSearchParams(location.search).get("s");
if (linkToken) history.replaceState(null, "", location.pathname);

// Opening a link of a table this browser already sits at never gives away its own seat: if the
// link is the other seat's, we keep ours, and may watch that seat's link as a spectator.
if (linkToken && app.token && linkToken !== app.token) app.otherSeatLink = linkToken;
else if (linkToken) {
  saveTable(tableId, linkToken);
  app.token = linkToken;
}
// A seat link pasted into this tab changes only the part after "#", which loads nothing: look
// at it as a fresh page would.
window.addEventListener("hashchange", () => {
  if (location.hash.includes("s=")) location.reload();
});

// -- the connection ------------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // The seat's token goes in the first message, not in the socket's URL.
  // history=delta: each state holds only the moves this socket has not had (joinHistory).
  const ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}?history=delta`);
  app.ws = ws;
  ws.onopen = () => {
    app.retry = 500;
    setConn(true);
    if (app.token && !app.watching && !app.movedAway) {
      ws.send(JSON.stringify({ type: "hello", token: app.token }));
      // The server sends a spectator's state until it has read the token: kept aside, not
      // drawn (the hand face down, "Ann draws…" said of our own move), unless the seat is
      // refused.
      app.awaitingSeat = true;
    }
    // The pong says the server's time: the clocks count by it, not by this device's clock.
    app.skewTrip = Infinity;
    app.pingAt = performance.now();
    ws.send(JSON.stringify({ type: "ping" }));
  };
  ws.onclose = (e) => {
    if (e.code === 4404) {
      // No such table: asking again would find none either. Said here, for good, and not
      // also in the passing note the server's error made.
      $("toast").className = "toast";
      $("conn").replaceChildren(
        "No such table here: the link may be mistyped, or the game is over and gone. ",
        h("a", { href: "/" }, "To the lobby"),
      );
      $("conn").hidden = false;
      return;
    }
    setConn(false);
    setTimeout(connect, app.retry);
    app.retry = Math.min(app.retry * 2, 8000);
  };
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "state") {
      if (app.awaitingSeat && msg.table.seat == null) {
        app.heldState = msg;
        return;
      }
      app.awaitingSeat = false;
      app.heldState = null;
      onState(msg);
    } else if (msg.type === "pong") {
      setSkew(msg.now);
    } else if (msg.type === "presence") {
      sayPresence(app.connected, msg.connected);
      app.connected = msg.connected;
      renderPlayers();
      if (app.state) renderInvite(table());
      if (app.state) renderActions(view()); // "once they open your invite" no more
    } else if (msg.type === "error") {
      toast(msg.message, true);
      if (app.hints === HINTS_ASKED) {
        app.hints = null; // the hint was refused: nothing is being worked out
        renderHints();
      }
      if (app.awaitingSeat && app.heldState) {
        // the seat refused: watch, and say why for as long as the page shows the table
        $("seat-notice").hidden = false;
        $("seat-notice").replaceChildren(
          h("p", {}, `${msg.message.charAt(0).toUpperCase()}${msg.message.slice(1)}.`),
          h("p", {}, h("a", { href: "/" }, "To the lobby")),
        );
        onState(app.heldState);
      }
      app.awaitingSeat = false;
      app.heldState = null;
    } else if (msg.type === "moved_away") {
      setMovedAway(true);
      showMovedAway(msg.message);
    } else if (msg.type === "review") {
      app.review = msg;
      showReview();
    } else if (msg.type === "hints") {
      app.hints = msg.hints;
      renderHints();
    } else if (msg.type === "seat") {
      // The invite we opened holds no more: the seat's own token, told to us alone, does.
      app.token = msg.token;
      saveTable(tableId, msg.token);
    }
  };
}

// The server's clock less this device's, from a pong's time taken as the middle of its round
// trip; the shortest trip's measure is kept until the next connection.
function setSkew(now) {
  if (app.pingAt == null || typeof now !== "number") return;
  const trip = (performance.now() - app.pingAt) / 1000;
  app.pingAt = null;
  if (trip > app.skewTrip) return;
  app.skewTrip = trip;
  app.skew = now - (Date.now() / 1000 - trip / 2);
}

// Between people, the other player leaving or coming back is said (to a screen reader too),
// not only shown by the dot beside the name.
function sayPresence(before, now) {
  if (!app.state || !before || table().options.mode === "computer") return;
  const me = table().seat;
  for (const seat of [0, 1]) {
    if (seat === me || before[seat] === now[seat]) continue;
    const name = table().names[seat];
    $("live").textContent = now[seat] ? `${name} is back at the table.` : `${name} left the table.`;
  }
}

// Our seat was opened in another browser, which holds it now: we watch, and say so for as long
// as the page shows the table. Taking it back is the player's choice, and moves it again (the
// other browser is told, as we were).
function showMovedAway(message) {
  const box = $("seat-notice");
  box.hidden = false;
  const back = button("Take the seat back here", () => {
    setMovedAway(false);
    box.hidden = true;
    app.ws?.close(); // it reconnects, and says hello with the seat's token
  });
  back.id = "take-seat-back";
  box.replaceChildren(
    h("p", {}, `${message.charAt(0).toUpperCase()}${message.slice(1)}.`),
    h("div", { class: "bar" }, back),
  );
}

// A seat whose cards were open in another browser (Table.moves on the server): said to the seat
// itself for good, and to the other player, not in a passing note.
function renderSeatMoves(t) {
  const moves = t.seat_moves || [0, 0];
  const lines = [];
  if (t.seat != null && moves[t.seat] > 0)
    lines.push(
      "This seat was open in another browser before you came: whoever opened it there saw its cards. If that was not you, the game is not fair.",
    );
  for (const seat of [0, 1])
    if (seat !== t.seat && moves[seat] > 0) lines.push(`${t.names[seat]}'s seat moved to another browser.`);
  $("seat-moves").hidden = lines.length === 0;
  $("seat-moves").replaceChildren(...lines.map((line) => h("p", {}, line)));
}

// The notice of a lost connection is pinned at the top of the screen: the page moves down by its
// height while it shows (style.css), so that it never lies over the header's Hint, Undo and Share.
new ResizeObserver(() => document.body.style.setProperty("--conn-h", `${$("conn").offsetHeight}px`)).observe($("conn"));

function setConn(ok) {
  $("conn").textContent = ok ? "" : "Connection lost: reconnecting…";
  $("conn").hidden = ok;
  placeToast(); // a note on the screen moves below the notice, or back up
  // The turn and the status say the game waits for the connection (not "Computer is
  // thinking…" for as long as it is down), and say whose turn it is again once it is back.
  if (app.offline === !ok) return;
  app.offline = !ok;
  if (app.state) {
    renderPlayers();
    renderActions(view());
  }
}

// -- reading the state ---------------------------------------------------------------------------

// A state that holds only the newest moves (view.history_from: how many came before them)
// gets the earlier ones from the last state; false if that does not have them (then the whole
// state is asked for again).
function joinHistory(msg, before) {
  const v = msg.view;
  if (!v || v.history_from == null) return true;
  const earlier = before?.view?.history;
  if (!earlier || earlier.length < v.history_from) return false;
  v.history = earlier.slice(0, v.history_from).concat(v.history);
  delete v.history_from;
  return true;
}

function onState(msg) {
  const before = app.state;
  if (!joinHistory(msg, before)) {
    send({ type: "state" });
    return;
  }
  const felt = document.querySelector(".felt");
  const places = before ? snapshot(felt) : null;
  const focused = document.activeElement?.dataset ? document.activeElement.dataset.card : null;
  app.state = msg;
  app.hints = null;
  if (app.review && app.review.hand !== msg.table.hand_number) app.review = null;
  app.connected = msg.table.connected;
  if (!msg.table.over) app.sawOpen = true;
  // A spectator, and the player who asked for the rematch, follow it at once; the other
  // player is offered it, and reads the game's result (and reviews it) for as long as he likes.
  const follows = msg.table.seat == null || app.askedRematch;
  if (msg.table.rematch && follows && app.sawOpen && before && !before.table.rematch)
    return followRematch(msg.table.rematch);
  if (app.selected && !splitCards(msg.view?.hand).includes(app.selected)) app.selected = null;
  render();
  $("my-seat").hidden = !(app.token && !app.watching && msg.table.seat != null);
  animate(felt, places);
  if (focused) document.querySelector(`#hand [data-card="${focused}"]`)?.focus();
  sounds(before, msg);
}

function sounds(before, msg) {
  const on = !!app.opts.sound;
  const v = msg.view;
  if (!on || !v || !before?.view) return;
  if (v.result && !before.view.result) {
    playSound(v.seat != null && v.result.winner === v.seat ? "win" : v.result.winner == null ? "card" : "lose", on);
  } else if (v.knocker != null && before.view.knocker == null) playSound("knock", on);
  else if (v.history.length > before.view.history.length) {
    playSound(v.seat != null && v.current_player === v.seat ? "turn" : "card", on);
  }
}

// -- drawing the page ----------------------------------------------------------------------------

function render() {
  const t = table();
  const v = view();
  document.title = `Gin Rummy: ${t.names[0]} vs ${t.names[1]}`;
  $("names").textContent = scoreLine(t);
  const bits = [`Hand ${t.hand_number}`, `Game to ${t.rules.game_target}`];
  if (t.options.match) bits.push(`Match ${t.match_totals[0]}–${t.match_totals[1]} to ${t.rules.match_target}`);
  if (v) bits.push(`Knock limit ${v.knock_limit === 0 ? "gin only" : v.knock_limit}`);
  // what a point is worth, in view from the first move (not only in the folded rules)
  if (Number(t.rules.stake) > 0) bits.push(`Stake ${t.rules.stake} a point`);
  if (v && v.multiplier > 1) bits.push("Spade upcard: points doubled");
  $("info").textContent = bits.join(" · ");
  $("rules-text").textContent = t.rules_text;
  $("learn-link").href =
    `/learn?preset=${encodeURIComponent(t.preset || (t.options.preset || "standard").split(",")[0])}`;
  $("commitment").textContent = t.commitment ? `Deal commitment ${t.commitment.slice(0, 16)}…` : "";
  $("undo").hidden = !t.can_undo;
  const fair = t.fair_play || {};
  $("hint").hidden = !(fair.hints && myTurn());
  $("fair-play").textContent = fairPlayText(t);
  const near = t.seat == null ? `${t.names[0]}'s` : "Your";
  $("mine").setAttribute("aria-label", `${near} hand`);
  $("actions").setAttribute("aria-label", `${near} moves`);
  if (v && t.commitment && !app.commitments[t.hand_number] && v.seat != null) {
    app.commitments[t.hand_number] = { commitment: t.commitment, dealt: dealtHand(v) };
    saveCommitments();
  }
  renderPlayers();
  renderMiddle(v);
  renderHand(v);
  renderActions(v);
  renderShowdown(v);
  renderSheet($("sheet-body"), t);
  renderHints();
  renderClock(t);
  renderNameForm(t);
  renderInvite(t);
  renderSeatMoves(t);
  const log = renderLog($("log-list"), { view: v, table: t, n: words() }, app.logShown);
  app.logShown = log.shown;
  if (log.fresh.length) $("live").textContent = log.fresh.join(" ");
}

// The players and their score; in a game of several columns (Hollywood) each column's score,
// as the sheet keeps them, not one sum of them.
function scoreLine(t) {
  const games = t.sheet?.games;
  const sheet = games ? games[games.length - 1] : t.sheet;
  const cols = sheet?.columns || 1;
  if (cols < 2) return `${t.names[0]} ${t.scores[0]} – ${t.scores[1]} ${t.names[1]}`;
  const last = sheet.hands?.[sheet.hands.length - 1];
  const each = Array.from({ length: cols }, (_, i) => {
    const pair = last?.totals[i] || [0, 0];
    return `g${i + 1} ${pair[0]}–${pair[1]}`;
  });
  return `${t.names[0]} – ${t.names[1]}: ${each.join(" · ")}`;
}

function fairPlayText(t) {
  const fair = t.fair_play || {};
  const bits = [];
  const vsComputer = t.options.mode === "computer";
  // A spectator is told of the players by name: the page speaks to no seat.
  const forWhom = t.seat == null ? ` for ${t.names[0]}` : "";
  bits.push(
    fair.hints
      ? vsComputer
        ? `Hints are on${forWhom}.`
        : "Hints are on for both players."
      : "No hints at this table.",
  );
  if (fair.undo)
    bits.push(
      `Undo takes back ${t.seat == null ? `${t.names[0]}'s` : "your"} last move until the computer moves; never a card drawn from the stock.`,
    );
  else bits.push("No undo: every move is final.");
  if (fair.undo_used) bits.push("Undo was used in this game, so it does not count in statistics.");
  if (t.abandoned) bits.push("This game was closed as abandoned.");
  return bits.join(" ");
}

// -- settings and the other seat's link ----------------------------------------------------------

function setting(id, key) {
  $(id).checked = !!app.opts[key];
  $(id).onchange = (e) => {
    saveSettings({ ...settings(), [key]: e.target.checked });
    app.opts = applySettings();
    if (app.state) render();
  };
}

// A link of this table's other seat, opened in the browser that holds a seat here: say so.
async function checkOtherSeatLink() {
  if (!app.otherSeatLink) return;
  let mineValid = false;
  try {
    const res = await fetch("/api/mine", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify([{ id: tableId, token: app.token }]),
    });
    mineValid = res.ok && (await res.json()).length > 0;
  } catch {
    mineValid = true;
  } // offline: keep the seat we have
  if (!mineValid) {
    // the seat this browser had is gone (another server): take the link's
    saveTable(tableId, app.otherSeatLink);
    app.token = app.otherSeatLink;
    app.otherSeatLink = null;
    if (app.ws && app.ws.readyState === WebSocket.OPEN)
      app.ws.send(JSON.stringify({ type: "hello", token: app.token }));
    return;
  }
  const box = $("seat-notice");
  box.hidden = false;
  const watch = button("Watch as a spectator", () => {
    app.watching = !app.watching;
    app.ws.close();
    watch.textContent = app.watching ? "Back to my seat" : "Watch as a spectator";
  });
  watch.id = "watch-other";
  box.replaceChildren(
    h(
      "p",
      {},
      "You already sit at this table in this browser. The link you opened is the other player's seat: send it to them. Your own seat is kept.",
    ),
    h(
      "div",
      { class: "bar" },
      watch,
      button("Close", () => {
        box.hidden = true;
      }),
    ),
  );
}

$("hint").onclick = askHints;
$("undo").onclick = undo;
$("knock-cancel").onclick = () => $("knock-dialog").close();
setting("opt-large", "large");
setting("opt-four", "fourColour");
setting("opt-sound", "sound");
// The theme: the device's (none chosen), light or dark.
themeChoice($("opt-theme"), () => {
  app.opts = applySettings();
});
// Share: the table's link, which only watches (the seat's token is never in the address), by
// the phone's share sheet or else copied.
$("copy-link").onclick = async () => {
  const link = `${location.origin}/t/${tableId}`;
  const how = await shareLink(link, "Watch my game of Gin Rummy:");
  if (how === "copied") toast("Link copied: it lets others watch (your seat stays in this browser).");
  else if (how === "failed") toast(link);
};
// The seat's own link, to move to another device: private, unlike Share's.
$("copy-seat-link").onclick = async () => {
  const link = `${location.origin}/t/${tableId}#s=${app.token}`;
  try {
    await navigator.clipboard.writeText(link);
    toast("Your seat link is copied: open it on your other device, and keep it to yourself.");
  } catch {
    toast(link);
  }
};
enableDrag($("hand"), { onDrop, pileSelector: "#pile" });
if (app.movedAway) showMovedAway("this seat was opened in another browser; watching as a spectator");
connect();
checkOtherSeatLink();
