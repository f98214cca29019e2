// The table page: one WebSocket for this seat; every "state" message redraws the page.
import { cardElement, cardName, cardValue, meldCards, pretty, splitCards } from "./cards.js";
import { applySettings, h, saveSettings, saveTable, settings, sha256Hex, tokenFor } from "./common.js";

const tableId = location.pathname.split("/").filter(Boolean).pop();
// A seat link carries its token after "#" (never sent to the server, so never in its logs or
// in a Referer); older links had "?s=". Either way it moves into this browser's storage and
// out of the address bar at once.
const linkToken = new URLSearchParams(location.hash.slice(1)).get("s") || new URLSearchParams(location.search).get("s");
if (linkToken) history.replaceState(null, "", location.pathname);
let token = tokenFor(tableId);
// Opening a link of a table this browser already sits at never gives away its own seat: if the
// link is the other seat's, we keep ours, and may watch that seat's link as a spectator.
let otherSeatLink = null;
if (linkToken && token && linkToken !== token) otherSeatLink = linkToken;
else if (linkToken) { saveTable(tableId, linkToken); token = linkToken; }
let watching = false; // watching as a spectator although this browser holds a seat
// A seat link pasted into this tab changes only the part after "#", which loads nothing: look
// at it as a fresh page would.
window.addEventListener("hashchange", () => { if (location.hash.includes("s=")) location.reload(); });

let ws = null;
let state = null;
let selected = null;
let customOrder = null; // the player's own card order, when dragged
let orderHand = 0;
let hints = null;
let retry = 500;
// hand number -> the commitment as first seen and the hand we were dealt, kept in this browser so
// that a reload mid-hand still checks the deal against what was published before the first move
const DEALS_KEY = `ginrummy.deals.${tableId}`;
const commitments = (() => {
  try { return JSON.parse(localStorage.getItem(DEALS_KEY) || "{}"); } catch { return {}; }
})();
function saveCommitments() {
  const keep = Object.keys(commitments).map(Number).sort((a, b) => b - a).slice(0, 3);
  for (const k of Object.keys(commitments)) if (!keep.includes(Number(k))) delete commitments[k];
  try { localStorage.setItem(DEALS_KEY, JSON.stringify(commitments)); } catch { /* full or disabled */ }
}
const $ = (id) => document.getElementById(id);
let opts = applySettings();

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  // The seat's token goes in the first message, not in the socket's URL.
  ws = new WebSocket(`${proto}://${location.host}/ws/${tableId}`);
  ws.onopen = () => {
    retry = 500; setConn(true);
    if (token && !watching) ws.send(JSON.stringify({ type: "hello", token }));
  };
  ws.onclose = () => { setConn(false); setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); };
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "state") { state = msg; hints = null; render(); }
    else if (msg.type === "error") toast(msg.message, true);
    else if (msg.type === "hints") { hints = msg.hints; renderHints(); }
  };
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  else toast("Reconnecting…", true);
}
const act = (action) => { selected = null; send({ type: "action", action }); };

function setConn(ok) {
  $("conn").textContent = ok ? "" : "Connection lost: reconnecting…";
  $("conn").hidden = ok;
}

function toast(text, isError = false) {
  const el = $("toast");
  el.textContent = text;
  el.className = "toast show" + (isError ? " error" : "");
  clearTimeout(toast.t);
  toast.t = setTimeout(() => (el.className = "toast"), 3500);
}

function announce(text) { $("live").textContent = text; }

// ---------------------------------------------------------------------------------------------

function names() { return state.table.names; }
function nameOf(seat) { return seat == null ? "" : names()[seat]; }
function mySeat() { return state.table.seat; }
function legal() { return (state.view && state.view.legal_actions) || []; }
function isLegal(a) { return legal().includes(a); }

function render() {
  const t = state.table;
  const v = state.view;
  document.title = `Gin Rummy: ${t.names[0]} vs ${t.names[1]}`;
  $("names").textContent = `${t.names[0]} ${t.scores[0]} – ${t.scores[1]} ${t.names[1]}`;
  const bits = [`Hand ${t.hand_number}`, `Game to ${t.rules.game_target}`];
  if (t.options.match) bits.push(`Match ${t.match_totals[0]}–${t.match_totals[1]} to ${t.rules.match_target}`);
  if (v) bits.push(`Knock limit ${v.knock_limit === 0 ? "gin only" : v.knock_limit}`);
  if (v && v.multiplier > 1) bits.push("Spade upcard: points doubled");
  $("info").textContent = bits.join(" · ");
  $("rules-text").textContent = t.rules_text;
  $("commitment").textContent = t.commitment ? `Deal commitment ${t.commitment.slice(0, 16)}…` : "";
  $("undo").hidden = !t.can_undo;
  const fair = t.fair_play || {};
  $("hint").hidden = !(fair.hints && v && v.seat != null && v.current_player === v.seat);
  $("fair-play").textContent = fairPlayText(t);
  if (v && t.commitment && !commitments[t.hand_number] && v.seat != null) {
    commitments[t.hand_number] = { commitment: t.commitment, dealt: v.history.length === 0 ? v.hand : null };
    saveCommitments();
  }
  renderOpponent(v);
  renderMiddle(v);
  renderHand(v);
  renderActions(v);
  renderShowdown(v);
  renderSheet(t);
  renderHints();
  renderClock(t);
}

function fairPlayText(t) {
  const fair = t.fair_play || {};
  const bits = [];
  const vsComputer = t.options.mode === "computer";
  bits.push(fair.hints ? (vsComputer ? "Hints are on." : "Hints are on for both players.") : "No hints at this table.");
  if (fair.undo) bits.push("Undo takes back your last move until the computer shows a card; never a card drawn from the stock.");
  else bits.push("No undo: every move is final.");
  if (fair.undo_used) bits.push("Undo was used in this game, so it does not count in statistics.");
  if (t.abandoned) bits.push("This game was closed as abandoned.");
  return bits.join(" ");
}

function renderOpponent(v) {
  const box = $("opponent");
  box.replaceChildren();
  if (!v) return;
  const me = mySeat() ?? 0;
  const opp = 1 - me;
  const label = h("div", { class: "seat-label" }, nameOf(opp),
    v.current_player === opp ? h("span", { class: "turn-dot" }, state.table.options.mode === "computer" ? " thinking…" : " to play") : "");
  box.append(label);
  const row = h("div", { class: "cards opp" });
  if (v.seat == null) {
    // spectator: counts and known cards for the far seat
    const known = splitCards(v.known[opp]);
    known.forEach((c) => row.append(cardElement(c, opts)));
    for (let i = known.length; i < v.counts[opp]; i++) row.append(cardElement(null));
  } else if (v.knocker === opp && !v.opponent_hand) {
    row.append(h("span", { class: "muted" }, "laid out on the table"));
  } else if (v.opponent_hand) {
    splitCards(v.opponent_hand).forEach((c) => row.append(cardElement(c, opts)));
  } else {
    const known = splitCards(v.opponent_known);
    known.forEach((c) => { const el = cardElement(c, opts); el.classList.add("known"); el.title = `${pretty(c)}: taken from the pile`; row.append(el); });
    for (let i = known.length; i < v.opponent_count; i++) row.append(cardElement(null));
  }
  row.setAttribute("aria-label", `${nameOf(opp)} holds ${v.seat == null ? v.counts[opp] : v.opponent_count} cards` +
    (v.opponent_known ? `, known: ${splitCards(v.opponent_known).map(cardName).join(", ")}` : ""));
  box.append(row);
}

function renderMiddle(v) {
  const stock = $("stock");
  const pile = $("pile");
  stock.replaceChildren();
  pile.replaceChildren();
  if (!v) return;
  const stockCard = cardElement(null, { button: true });
  stockCard.classList.toggle("playable", isLegal("draw"));
  stockCard.setAttribute("aria-label", `stock, ${v.stock_count} cards` + (isLegal("draw") ? ": draw" : ""));
  stockCard.onclick = () => isLegal("draw") && act("draw");
  stock.append(stockCard, h("div", { class: "count" }, `${v.stock_count} in stock`));
  const pileCards = splitCards(v.discard_pile);
  const top = pileCards[pileCards.length - 1];
  if (top) {
    const el = cardElement(top, { ...opts, button: true });
    el.classList.toggle("playable", isLegal("take"));
    el.setAttribute("aria-label", `discard pile, top card ${cardName(top)}` + (isLegal("take") ? ": take it" : ""));
    el.onclick = () => isLegal("take") && act("take");
    pile.append(el);
  } else {
    pile.append(h("div", { class: "empty-pile" }, "discard pile"));
  }
  pile.ondragover = (e) => { if (state.view && state.view.phase === "discard") e.preventDefault(); };
  pile.ondrop = (e) => { e.preventDefault(); const c = e.dataTransfer.getData("text/card"); if (c && isLegal(`discard ${c}`)) act(`discard ${c}`); };
  const hist = $("discards");
  hist.replaceChildren(h("span", { class: "muted" }, "Discards: "),
    ...pileCards.map((c) => h("span", { class: `mini s-${c[1]}` }, pretty(c))));
  // what the table shows after a knock
  const melds = $("melds");
  melds.replaceChildren();
  if (v.knocker != null && v.table_melds.length) {
    melds.append(h("div", { class: "seat-label" }, `${nameOf(v.knocker)} knocked: melds on the table`));
    const row = h("div", { class: "meld-row" });
    v.table_melds.forEach((m) => {
      const g = h("div", { class: "meld" });
      meldCards(m).forEach((c) => g.append(cardElement(c, opts)));
      row.append(g);
    });
    const dead = splitCards(v.knocker_deadwood);
    if (dead.length) {
      const g = h("div", { class: "meld deadwood" });
      dead.forEach((c) => g.append(cardElement(c, opts)));
      row.append(g);
    }
    melds.append(row);
    if (v.layoffs.length) melds.append(h("div", { class: "muted" }, "Laid off: " + v.layoffs.map(([c]) => pretty(c)).join(" ")));
  }
}

function handOrder(v) {
  const cards = splitCards(v.hand);
  if (customOrder && orderHand === state.table.hand_number) {
    const kept = customOrder.filter((c) => cards.includes(c));
    const added = cards.filter((c) => !kept.includes(c));
    return { groups: [kept.concat(added)], custom: true };
  }
  const groups = v.arrangement.melds.map(meldCards);
  const dead = splitCards(v.arrangement.deadwood).sort((a, b) => cardValue(b) - cardValue(a));
  if (dead.length) groups.push(dead);
  return { groups, custom: false, deadStart: v.arrangement.melds.length };
}

function renderHand(v) {
  const box = $("hand");
  box.replaceChildren();
  if (!v || v.seat == null) { $("deadwood").textContent = ""; return; }
  const order = handOrder(v);
  order.groups.forEach((group, gi) => {
    const g = h("div", { class: "group" + (!order.custom && gi >= order.deadStart ? " deadwood" : " meld") });
    group.forEach((c) => {
      const el = cardElement(c, { ...opts, button: true });
      el.draggable = true;
      if (c === selected) el.classList.add("selected");
      if (c === v.taken_card) { el.classList.add("taken"); el.title += " (just taken: cannot be discarded)"; }
      el.onclick = () => onCardClick(c);
      el.ondblclick = () => isLegal(`discard ${c}`) && act(`discard ${c}`);
      el.ondragstart = (e) => { e.dataTransfer.setData("text/card", c); };
      el.ondragover = (e) => e.preventDefault();
      el.ondrop = (e) => { e.preventDefault(); reorder(e.dataTransfer.getData("text/card"), c); };
      g.append(el);
    });
    box.append(g);
  });
  const a = v.arrangement;
  $("deadwood").textContent = `Deadwood ${a.count}` + (a.count === 0 ? " — gin!" : "");
  $("auto-arrange").hidden = !order.custom;
}

function reorder(moved, target) {
  if (!moved || moved === target) return;
  const v = state.view;
  const current = handOrder(v).groups.flat().filter((c) => c !== moved);
  current.splice(current.indexOf(target), 0, moved);
  customOrder = current;
  orderHand = state.table.hand_number;
  renderHand(v);
}

function onCardClick(c) {
  const v = state.view;
  if (v.phase === "layoff" && isLegal(`layoff ${c}`)) { act(`layoff ${c}`); return; }
  selected = selected === c ? null : c;
  renderHand(v);
  renderActions(v);
}

function button(label, onClick, cls = "") {
  return h("button", { type: "button", class: cls, onclick: onClick }, label);
}

function renderActions(v) {
  const bar = $("actions");
  bar.replaceChildren();
  const status = $("status");
  if (!v) { status.textContent = "Waiting for the deal…"; return; }
  const me = v.seat;
  if (v.phase === "over") { status.textContent = "The hand is over."; return; }
  if (me == null) { status.textContent = `${nameOf(v.current_player)} to play.`; return; }
  if (v.current_player !== me) {
    status.textContent = v.phase === "layoff" ? `${nameOf(v.current_player)} is laying off…` : `${nameOf(v.current_player)} to play.`;
    return;
  }
  const L = legal();
  if (v.phase === "first_upcard") {
    status.textContent = `Take the upcard ${pretty(v.discard_pile.split(" ").pop())} or pass.`;
    bar.append(button("Take upcard (T)", () => act("take"), "primary"), button("Pass (P)", () => act("pass")));
  } else if (v.phase === "draw") {
    status.textContent = L.includes("take") ? "Draw from the stock (D) or take the top discard (T)." : "Draw from the stock (D).";
    if (L.includes("draw")) bar.append(button("Draw from stock (D)", () => act("draw"), "primary"));
    if (L.includes("take")) bar.append(button("Take discard (T)", () => act("take")));
  } else if (v.phase === "discard") {
    status.textContent = selected ? `${pretty(selected)} selected.` : "Choose a card to discard (click, or drag it to the pile).";
    if (selected) {
      if (L.includes(`discard ${selected}`)) bar.append(button(`Discard ${pretty(selected)} (X)`, () => act(`discard ${selected}`), "primary"));
      if (L.includes(`knock ${selected}`)) bar.append(button(`Knock with ${pretty(selected)} (K)`, () => confirmKnock(`knock ${selected}`), "knock"));
      if (L.includes(`gin ${selected}`)) bar.append(button(`Gin with ${pretty(selected)} (G)`, () => confirmKnock(`gin ${selected}`), "gin"));
    }
    const knocks = L.filter((a) => a.startsWith("knock ") || a.startsWith("gin "));
    if (!selected && knocks.length) {
      status.textContent += ` You can ${knocks.some((a) => a.startsWith("gin")) ? "go gin" : "knock"}: discard ` +
        knocks.map((a) => pretty(a.split(" ")[1])).join(", ") + ".";
    }
    if (L.includes("biggin")) bar.append(button("Big gin!", () => confirmKnock("biggin"), "gin"));
  } else if (v.phase === "layoff") {
    const offs = L.filter((a) => a.startsWith("layoff "));
    status.textContent = offs.length ? "Lay off cards onto the knocker's melds (click them), or let the optimal layoffs be made." : "Nothing to lay off.";
    offs.forEach((a) => bar.append(button(`Lay off ${pretty(a.split(" ")[1])}`, () => act(a))));
    bar.append(button("Optimal layoffs (A)", () => act("auto"), "primary"), button("Done (F)", () => act("done")));
  } else if (v.phase === "wall") {
    status.textContent = "The stock is down to two cards: take the last discard only to knock with it, or pass.";
    if (L.includes("take")) bar.append(button("Take to knock", () => act("take"), "primary"));
    bar.append(button("Pass", () => act("pass")));
  }
  announce(status.textContent);
}

function confirmKnock(action) {
  const v = state.view;
  const options = (v.knock_options && v.knock_options[action]) || [];
  const dlg = $("knock-dialog");
  const list = $("knock-list");
  list.replaceChildren();
  const [kind, card] = action.split(" ");
  $("knock-title").textContent = kind === "gin" ? `Go gin, discarding ${pretty(card)}?` :
    kind === "biggin" ? "Big gin: lay down all eleven cards?" : `Knock, discarding ${pretty(card)}?`;
  options.forEach((arr, i) => {
    const [meldsText, dead] = arr.split("|").map((s) => s.trim());
    const label = meldsText.split(" ").filter((m) => m && m !== "-").map((m) => meldCards(m).map(pretty).join(" ")).join("  |  ");
    const id = `arr-${i}`;
    list.append(h("label", { for: id, class: "arr" },
      h("input", { type: "radio", name: "arr", id, value: meldsText, checked: i === 0 }),
      ` ${label}` + (dead && dead !== "-" ? `  — deadwood ${splitCards(dead).map(pretty).join(" ")}` : "")));
  });
  $("knock-ok").onclick = () => {
    const chosen = list.querySelector("input:checked");
    let text = action;
    if (chosen && options.length > 1 && chosen.id !== "arr-0" && chosen.value !== "-") text += " " + chosen.value;
    dlg.close();
    act(text);
  };
  dlg.showModal();
}

function resultWords(r, v) {
  const n = nameOf;
  const layoffs = v.layoffs && v.layoffs.length ? `laid off ${v.layoffs.map(([c]) => pretty(c)).join(" ")} and ` : "";
  const doubled = r.multiplier > 1 ? " (doubled: the first upcard was a spade)" : "";
  const rules = state.table.rules;
  switch (r.kind) {
    case "gin": return `${n(r.knocker)} went gin! ${n(1 - r.knocker)} had ${r.defender_deadwood} deadwood: ${n(r.winner)} scores ${r.points} (${r.defender_deadwood} + ${rules.gin_bonus} gin bonus)${doubled}.`;
    case "big_gin": return `${n(r.knocker)} made big gin! ${n(r.winner)} scores ${r.points}${doubled}.`;
    case "knock":
      if (r.winner == null) return `${n(r.knocker)} knocked with ${r.knocker_deadwood}; ${n(1 - r.knocker)} ${layoffs}tied with ${r.defender_deadwood}: no score.`;
      return `${n(r.knocker)} knocked with ${r.knocker_deadwood} deadwood; ${n(1 - r.knocker)} ${layoffs}had ${r.defender_deadwood}. ${n(r.winner)} scores ${r.points}${doubled}.`;
    case "undercut": return `${n(r.knocker)} knocked with ${r.knocker_deadwood}, but ${n(r.winner)} ${layoffs}had only ${r.defender_deadwood}: undercut! ${n(r.winner)} scores ${r.points} (${r.knocker_deadwood - r.defender_deadwood} + ${rules.undercut_bonus} bonus)${doubled}.`;
    default: return `Dead hand: the stock ran down to two cards with no knock. No score; ${n(state.table.dealer_next)} deals again.`;
  }
}

async function renderShowdown(v) {
  const box = $("showdown");
  box.replaceChildren();
  box.hidden = !(v && v.result);
  if (!v || !v.result) return;
  const r = v.result;
  box.append(h("h2", {}, r.kind === "dead" ? "Dead hand" : `${nameOf(r.winner) || "Nobody"} wins the hand`));
  box.append(h("p", { class: "result-words" }, resultWords(r, v)));
  for (const [seat, arr] of [[r.knocker, r.knocker_arrangement], [r.knocker == null ? null : 1 - r.knocker, r.defender_arrangement]]) {
    if (seat == null || !arr) continue;
    const [meldsText, dead] = arr.split("|").map((s) => s.trim());
    const row = h("div", { class: "meld-row" });
    meldsText.split(" ").filter((m) => m && m !== "-").forEach((m) => {
      const g = h("div", { class: "meld" }); meldCards(m).forEach((c) => g.append(cardElement(c, opts))); row.append(g);
    });
    const d = splitCards(dead === "-" ? "" : dead);
    if (d.length) { const g = h("div", { class: "meld deadwood" }); d.forEach((c) => g.append(cardElement(c, opts))); row.append(g); }
    box.append(h("div", { class: "seat-label" }, `${nameOf(seat)}`), row);
  }
  const t = state.table;
  const verify = h("p", { class: "verify", id: "verify" }, "Checking the deal…");
  box.append(verify);
  if (t.final) box.append(finalPanel(t));
  const next = t.over ? button("New game", () => (location.href = "/"), "primary")
    : button(t.game_over ? "Next game (N)" : "Next hand (N)", () => send({ type: "next" }), "primary");
  if (mySeat() != null) box.append(h("div", { class: "bar" }, next));
  if (state.reveal) verifyDeal(state.reveal, t.hand_number, v).then((text) => (verify.textContent = text));
}

async function verifyDeal(reveal, number, v) {
  const seen = commitments[number];
  const published = seen ? seen.commitment : state.table.commitment;
  let digest;
  try { digest = await sha256Hex(`${reveal.deck}:${reveal.salt}`); } catch { return "This browser cannot check the deal (no SHA-256 here)."; }
  if (digest !== published) return "✗ The revealed deck does NOT match the commitment published at the deal!";
  const deck = reveal.deck.match(/.{2}/g);
  if (v.upcard && deck[20] !== v.upcard) return "✗ The revealed deck does not match the upcard!";
  if (seen && seen.dealt && v.seat != null) {
    const mine = deck.slice(0, 20).filter((_, i) => (i % 2 === 0) === (v.seat !== v.dealer));
    const dealt = splitCards(seen.dealt);
    if (!mine.every((c) => dealt.includes(c))) return "✗ Your dealt cards do not come from the revealed deck!";
    return "✓ Deal verified: the revealed deck matches the commitment published before the first move, and your cards came from it.";
  }
  return "✓ Deal verified: the revealed deck matches the commitment published before the first move.";
}

function finalPanel(t) {
  const f = t.final;
  const n = t.names;
  const rows = [["Hand points", "hand_points"], ["Boxes", "boxes"], ["Game bonus", "game_bonus"], ["Shutout", "shutout"], ["Total", "total"]];
  const table = h("table", { class: "sheet" }, h("tr", {}, h("th", {}, ""), h("th", {}, n[0]), h("th", {}, n[1])),
    ...rows.map(([label, key]) => h("tr", {}, h("td", {}, label), h("td", {}, f.players[0][key]), h("td", {}, f.players[1][key]))));
  const stake = Number(f.stake) > 0 ? ` At ${f.stake} a point, ${n[1 - f.winner]} pays ${n[f.winner]} ${f.settlement}.` : "";
  const head = f.games ? "Match over" : "Game over";
  return h("div", { class: "final" }, h("h3", {}, head), f.players ? table : "",
    h("p", {}, f.winner == null ? "The totals are even." : `${n[f.winner]} wins by ${f.net}.${stake}`));
}

function renderSheet(t) {
  const s = t.sheet;
  const box = $("sheet-body");
  box.replaceChildren();
  const cols = s.columns || 1;
  const head = h("tr", {}, h("th", {}, "#"), h("th", {}, "Won by"), h("th", {}, "How"), h("th", {}, "Points"),
    ...Array.from({ length: cols }, (_, i) => [h("th", {}, `${t.names[0]}${cols > 1 ? ` (g${i + 1})` : ""}`), h("th", {}, `${t.names[1]}${cols > 1 ? ` (g${i + 1})` : ""}`)]).flat());
  const rows = s.hands.map((line) => h("tr", {}, h("td", {}, line.number), h("td", {}, line.winner == null ? "—" : t.names[line.winner]),
    h("td", {}, line.how), h("td", {}, line.points),
    ...line.totals.map((pair) => pair.map((x, seat) => h("td", { class: line.winner === seat ? "won" : "" }, x))).flat()));
  box.append(h("table", { class: "sheet" }, head, ...rows));
  if (!s.hands.length) box.append(h("p", { class: "muted" }, "No hands scored yet."));
}

function renderHints() {
  const box = $("hints");
  box.replaceChildren();
  if (!hints) { box.hidden = true; return; }
  box.hidden = false;
  box.append(h("h3", {}, "Hints"), h("ol", {}, ...hints.slice(0, 5).map((x) =>
    h("li", {}, h("button", { type: "button", class: "link", onclick: () => act(x.action) }, x.action), ` — ${x.reason}`))));
}

function renderClock(t) {
  clearInterval(renderClock.timer);
  const el = $("clock");
  if (!t.deadline) { el.textContent = ""; return; }
  const tick = () => { const left = Math.max(0, Math.round(t.deadline - Date.now() / 1000)); el.textContent = `⏱ ${left}s`; };
  tick();
  renderClock.timer = setInterval(tick, 1000);
}

// keyboard play
document.addEventListener("keydown", (e) => {
  if (!state || !state.view || e.target.closest("input,textarea,select,dialog")) return;
  const v = state.view;
  const L = legal();
  const k = e.key.toLowerCase();
  const cards = v.hand ? handOrder(v).groups.flat() : [];
  if (k === "d" && L.includes("draw")) act("draw");
  else if (k === "t" && L.includes("take")) act("take");
  else if (k === "p" && L.includes("pass")) act("pass");
  else if (k === "a" && L.includes("auto")) act("auto");
  else if (k === "f" && L.includes("done")) act("done");
  else if (k === "h" && state.table.fair_play && state.table.fair_play.hints) send({ type: "hint" });
  else if (k === "u" && state.table.can_undo) send({ type: "undo" });
  else if (k === "n" && v.phase === "over" && !state.table.over) send({ type: "next" });
  else if ((k === "x" || k === "enter") && selected && L.includes(`discard ${selected}`)) act(`discard ${selected}`);
  else if (k === "k" && selected && L.includes(`knock ${selected}`)) confirmKnock(`knock ${selected}`);
  else if (k === "g" && selected && L.includes(`gin ${selected}`)) confirmKnock(`gin ${selected}`);
  else if (k === "arrowright" || k === "arrowleft") {
    const i = cards.indexOf(selected);
    selected = cards[(i + (k === "arrowright" ? 1 : cards.length - 1) + (i < 0 && k === "arrowleft" ? 1 : 0)) % cards.length];
    renderHand(v); renderActions(v);
    document.querySelector(`#hand [data-card="${selected}"]`)?.focus();
  } else if (/^[1-9]$/.test(k) || k === "0") {
    const i = k === "0" ? 9 : Number(k) - 1;
    if (cards[i]) { selected = cards[i]; renderHand(v); renderActions(v); }
  } else return;
  e.preventDefault();
});

$("hint").onclick = () => send({ type: "hint" });
$("undo").onclick = () => send({ type: "undo" });
$("auto-arrange").onclick = () => { customOrder = null; renderHand(state.view); };
$("knock-cancel").onclick = () => $("knock-dialog").close();
$("opt-large").checked = !!opts.large;
$("opt-four").checked = !!opts.fourColour;
$("opt-large").onchange = (e) => { saveSettings({ ...settings(), large: e.target.checked }); opts = applySettings(); state && render(); };
$("opt-four").onchange = (e) => { saveSettings({ ...settings(), fourColour: e.target.checked }); opts = applySettings(); state && render(); };
// A link of this table's other seat, opened in the browser that holds a seat here: say so.
async function checkOtherSeatLink() {
  if (!otherSeatLink) return;
  let mineValid = false;
  try {
    const res = await fetch("/api/mine", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify([{ id: tableId, token }]) });
    mineValid = res.ok && (await res.json()).length > 0;
  } catch { /* offline: keep the seat we have */ mineValid = true; }
  if (!mineValid) { // the seat this browser had is gone (another server): take the link's
    saveTable(tableId, otherSeatLink); token = otherSeatLink; otherSeatLink = null;
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "hello", token }));
    return;
  }
  const box = $("seat-notice");
  box.hidden = false;
  box.replaceChildren(
    h("p", {}, "You already sit at this table in this browser. The link you opened is the other player's seat: send it to them. Your own seat is kept."),
    h("div", { class: "bar" },
      h("button", { type: "button", id: "watch-other", onclick: () => { watching = !watching; ws.close(); box.querySelector("#watch-other").textContent = watching ? "Back to my seat" : "Watch as a spectator"; } }, "Watch as a spectator"),
      h("button", { type: "button", onclick: () => { box.hidden = true; } }, "Close")));
}

$("copy-link").onclick = async () => {
  try { await navigator.clipboard.writeText(location.href); toast("Link copied (spectator link: seats use their invite links)."); } catch { toast(location.href); }
};
connect();
checkOtherSeatLink();
