// The result of a hand: what happened in words, both arrangements laid out, the deal checked
// against its commitment, the expert's review, and the next hand or the rematch.

import { meldCards } from "./cards.js";
import { h } from "./common.js";
import { meldGroup } from "./middle.js";
import { clockText, secondsLeft } from "./players.js";
import { renderReview } from "./review.js";
import { finalPanel } from "./sheet.js";
import { $, app, button, followRematch, mySeat, send, table, words } from "./tablestate.js";
import { verifyDeal } from "./verify.js";
import { resultHeadline, resultWords } from "./words.js";

export function renderShowdown(v) {
  const box = $("showdown");
  const t = table();
  // The result is a live region: built anew, a screen reader reads it all again. So it is
  // built again only when something it shows has changed (not for a sound turned on).
  const shows = v?.result
    ? JSON.stringify([
        t.id,
        t.hand_number,
        t.names,
        v,
        t.final,
        t.over,
        t.game_over,
        t.ready,
        t.ready_wait,
        t.rematch,
        t.seat,
        t.options,
        app.state.reveal,
        app.opts.large,
        app.opts.fourColour,
      ])
    : null;
  if (shows && shows === renderShowdown.shown) return;
  renderShowdown.shown = shows;
  clearInterval(renderShowdown.timer);
  box.replaceChildren();
  box.hidden = !v?.result;
  if (!v?.result) return;
  const r = v.result;
  if (app.resultShown !== t.hand_number) {
    // On a phone the result opens below the hand: bring it into view, once a hand.
    app.resultShown = t.hand_number;
    requestAnimationFrame(() => box.scrollIntoView({ block: "nearest" }));
  }
  const n = words();
  box.append(h("h2", {}, resultHeadline(r, n)));
  box.append(
    h(
      "p",
      { class: "result-words" },
      resultWords(r, { n, layoffs: v.layoffs || [], rules: t.rules, dealerNext: t.dealer_next }),
    ),
  );
  const shown = v.showdown || [];
  for (const [seat, arr] of [
    [r.knocker, shown[0]],
    [r.knocker == null ? null : 1 - r.knocker, shown[1]],
  ]) {
    if (seat == null || !arr) continue;
    const row = h("div", { class: "meld-row" });
    // The knocker's melds with the cards laid off on them (the arrangement has them bare, and
    // the defender's has them no more), each marked.
    const off = new Set((v.layoffs || []).map(([c]) => c));
    const melds = seat === r.knocker && v.table_melds?.length ? v.table_melds.map(meldCards) : arr.melds;
    for (const m of melds) row.append(meldGroup(m, "", off));
    if (arr.deadwood.length) row.append(meldGroup(arr.deadwood, "deadwood"));
    // whose cards these are, the player's own marked as on the table ("Ann (you)")
    const whose = seat === mySeat() ? `${t.names[seat]} (you)` : t.names[seat];
    box.append(h("div", { class: "seat-label" }, whose), row);
  }
  const verify = h("p", { class: "verify", id: "verify" }, "Checking the deal…");
  box.append(verify);
  if (t.final) box.append(finalPanel(t, n));
  if (mySeat() != null && (t.options.mode === "computer" || t.game_over || t.over)) {
    box.append(h("div", { id: "review", class: "review", "aria-live": "polite" }));
    showReview();
  }
  if (mySeat() != null) {
    const bar = h("div", { class: "bar" });
    if (t.over && t.rematch) {
      // asked for by the other player (or by this one, on a page opened again since)
      bar.append(
        h("p", { id: "rematch-offer", class: "muted" }, "The rematch is dealt: the same seats, a new deal."),
        button("Play the rematch", () => followRematch(t.rematch), "primary"),
        h("a", { class: "button", href: "/" }, "Lobby"),
      );
    } else if (t.over) {
      const ask = () => {
        app.askedRematch = true;
        send({ type: "rematch" });
      };
      bar.append(button("Rematch", ask, "primary"), h("a", { class: "button", href: "/" }, "Lobby"));
    } else {
      // Between people the next hand waits until both have seen this one's result.
      const ready = t.ready || [];
      const other = t.names[1 - mySeat()];
      const what = t.game_over ? "game" : "hand";
      // The seconds left, said once in the sentence (the result is a live region) and counted
      // down beside it for the eyes only, as the move clock is.
      const wait = t.ready_deadline ? secondsLeft(t.ready_deadline) : t.ready_wait;
      if (ready.includes(mySeat())) {
        bar.append(
          h(
            "p",
            { id: "waiting-next", class: "muted" },
            `Waiting for ${other} to see the result: the next ${what} is dealt when both of you are ready (in ${wait} seconds at most).`,
          ),
        );
      } else {
        bar.append(button(`Next ${what} (N)`, () => send({ type: "next" }), "primary"));
        if (ready.length)
          bar.append(
            h("span", { class: "muted" }, `${other} is ready: the next ${what} is dealt in ${wait} seconds at most.`),
          );
      }
      if (ready.length && t.ready_deadline) bar.append(countdown(t.ready_deadline));
    }
    box.append(bar);
  } else if (t.rematch) {
    box.append(h("p", {}, h("a", { href: `/t/${t.rematch}` }, "The players moved on to a rematch: watch it")));
  }
  if (app.state.reveal)
    verifyDeal(app.state.reveal, v, app.commitments[t.hand_number], t.commitment).then((text) => {
      verify.textContent = text;
    });
}

// The seconds until the next hand comes anyway, ticking (hidden from a screen reader: the
// sentence beside it said them once).
function countdown(deadline) {
  const el = h("span", { class: "next-clock", "aria-hidden": "true" });
  const tick = () => {
    el.textContent = clockText(secondsLeft(deadline));
  };
  tick();
  renderShowdown.timer = setInterval(tick, 1000);
  return el;
}

export function showReview() {
  const box = $("review");
  if (!box) return;
  const review = app.review && app.review.hand === table().hand_number ? app.review : null;
  renderReview(box, { review, names: table().names, you: mySeat(), n: words(), ask: () => send({ type: "review" }) });
}
