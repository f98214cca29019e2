// What the table page holds, in one object, `app` (the state last sent, the selected card, the
// socket...), and what each part of the page uses with it: reading the state, sending a move,
// a notice to the player.

import { savedMode } from "./arrange.js";
import { applySettings, h, saveTable, tokenFor } from "./common.js";
import { namer } from "./words.js";

export const $ = (id) => document.getElementById(id);
export const tableId = location.pathname.split("/").filter(Boolean).pop();

export const app = {
  token: tokenFor(tableId),
  otherSeatLink: null, // a link of this table's other seat, opened where we hold a seat
  watching: false, // watching as a spectator although this browser holds a seat
  // our seat was opened in another browser, which has it now: watch, and never send its token
  // again by ourselves (that would take it back), nor after a reload of this tab
  movedAway: movedAwayHere(),
  ws: null,
  retry: 500,
  offline: false, // the socket is closed: the game waits for it to come back
  awaitingSeat: false, // our hello is sent and its seat's state not yet come
  heldState: null, // the spectator's state that came meanwhile
  state: null,
  connected: null, // who is connected, as last told
  selected: null,
  mode: savedMode(),
  hints: null,
  review: null, // the expert's review of the hand just over
  opts: applySettings(),
  friendCame: false, // the invited friend was seen connected here (notComeYet)
  sawOpen: false, // this page saw the game before it ended (so it follows a rematch)
  askedRematch: false, // this page asked for the rematch (so it follows it at once)
  logShown: undefined, // what the move log showed last
  commitments: loadCommitments(),
  // The server's clock less this device's, in seconds, from the pong that came back soonest
  // (its round trip the shortest): a device whose clock is off still counts the move clock and
  // the next hand's wait as the server does.
  skew: 0,
  skewTrip: Infinity,
  pingAt: null,
};

// Whether this tab's seat moved to another browser (kept for the tab: a reload keeps watching).
function movedAwayHere() {
  try {
    return sessionStorage.getItem(`ginrummy.moved.${tableId}`) === "1";
  } catch {
    return false;
  }
}
export function setMovedAway(moved) {
  app.movedAway = moved;
  try {
    if (moved) sessionStorage.setItem(`ginrummy.moved.${tableId}`, "1");
    else sessionStorage.removeItem(`ginrummy.moved.${tableId}`);
  } catch {
    /* disabled: kept for this page only */
  }
}

// hand number -> the commitment as first seen and the hand we were dealt, kept in this browser so
// that a reload mid-hand still checks the deal against what was published before the first move
function loadCommitments() {
  try {
    return JSON.parse(localStorage.getItem(`ginrummy.deals.${tableId}`) || "{}");
  } catch {
    return {};
  }
}
export function saveCommitments() {
  const c = app.commitments;
  const keep = Object.keys(c)
    .map(Number)
    .sort((a, b) => b - a)
    .slice(0, 3);
  for (const k of Object.keys(c)) if (!keep.includes(Number(k))) delete c[k];
  try {
    localStorage.setItem(`ginrummy.deals.${tableId}`, JSON.stringify(c));
  } catch {
    /* full or disabled */
  }
}

export const view = () => app.state.view;
export const table = () => app.state.table;
export const mySeat = () => table().seat;
export const legal = () => view()?.legal_actions || [];
export const isLegal = (a) => legal().includes(a);
export const words = () => namer(table().names, view() && view().seat != null ? view().seat : null);
export const myTurn = () => view() && view().seat != null && view().current_player === view().seat;
// Whether ``seat`` is the invited friend, not come yet: the invite is still open (the server
// tells its sender, seat 0) and this page has not seen the friend connected. Then he is not
// "away" (he was never here), and the table waits for him to open the invite.
export function notComeYet(seat) {
  const t = table();
  const connected = app.connected || t.connected;
  if (connected[1]) app.friendCame = true;
  return seat === 1 && t.seat === 0 && t.options.mode === "friend" && !!t.invite_open && !app.friendCame;
}

export function send(msg) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(msg));
  else toast("Reconnecting…", true);
}
export function act(action) {
  app.selected = null;
  send({ type: "action", action });
}

// Where a note goes on a phone (at the top): under the header while it is on the screen, and
// under the pinned notice of a lost connection while it shows, never over it.
export function placeToast() {
  const el = $("toast");
  const header = document.querySelector("header.top");
  const conn = $("conn");
  const below = [header, conn.hidden ? null : conn].map((e) => (e ? e.getBoundingClientRect().bottom : 0));
  el.style.setProperty("--toast-top", `${Math.max(0, ...below) + 8}px`);
}

export function toast(text, isError = false, ms = 3500) {
  const el = $("toast");
  placeToast();
  el.textContent = text;
  el.className = `toast show${isError ? " error" : ""}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    el.className = "toast";
  }, ms);
}

// A label's key, as in "Pass (P)", is a hint of its own (style.css hides it on a touch screen,
// where no key is at hand).
export function button(label, onClick, cls = "") {
  return h("button", { type: "button", class: cls, onclick: onClick }, ...keyHint(label));
}
function keyHint(label) {
  const m = /^(.*?)( \([A-Z]\))$/.exec(label);
  return m ? [m[1], h("span", { class: "key-hint" }, m[2])] : [label];
}
// A sentence's keys, as in "Draw from the stock (D).", each a hint of its own as on a button.
export function withKeys(text) {
  return text
    .split(/( \([A-Z]\))/)
    .filter((part) => part !== "")
    .map((part) => (/^ \([A-Z]\)$/.test(part) ? h("span", { class: "key-hint" }, part) : part));
}

// To the rematch's table, with this browser's seat (the seats' tokens hold there too).
export function followRematch(id) {
  if (app.token && !app.watching) saveTable(id, app.token);
  location.href = `/t/${id}`;
}
