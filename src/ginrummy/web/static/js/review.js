// The expert's review of your play of the hand just over, with the hand replayed (both hands
// face up) and each decision the expert would not have made marked where it happened.
import { position, stepper } from "./board.js";
import { prettyText } from "./cards.js";
import { h } from "./common.js";
import { actionWords, moveLine } from "./words.js";

// The expert's review of your play of the hand just over: asked for with a button, worked out
// on the server in the background, the biggest mistakes first.
export function renderReview(box, { review, names, you, n, ask: askForIt }) {
  if (!review) {
    const ask = h("button", { type: "button" }, "Review my play");
    ask.onclick = () => {
      ask.disabled = true;
      ask.textContent = "The expert is looking at your hand…";
      askForIt();
    };
    ask.id = "review-ask";
    box.replaceChildren(ask);
    return;
  }
  const unit = (m) =>
    m.unit === "%" ? `${m.cost.toFixed(1)}% more chance of winning the game` : `${m.cost.toFixed(1)} points better`;
  const say = prettyText;
  const play = review.replay;
  const byMove = new Map(review.mistakes.map((m) => [m.move, m]));
  const label = h("p", { class: "step-label", "aria-live": "polite" });
  const board = h("div", { class: "board" });
  // the hand again, both hands face up, each of your decisions the expert would not have made
  // marked where it happened
  const walk = stepper(play.steps.length, (i) => {
    const s = play.steps[i];
    const what = s.event
      ? moveLine(s.event, n, { upcard: s.event.action === "pass" ? play.upcard : null })
      : "The deal.";
    const mistake = byMove.get(i);
    label.replaceChildren(
      `Move ${i} of ${play.steps.length - 1}: ${what}`,
      mistake ? h("strong", { class: "mistake" }, ` ✗ The expert would ${actionWords(mistake.best)}.`) : "",
    );
    board.replaceChildren(...position(s, { names, dealer: play.dealer, you, heading: "h4" }));
  });
  const list = review.mistakes.length
    ? h(
        "ol",
        {},
        ...review.mistakes.map((m) =>
          h(
            "li",
            {},
            h("button", { type: "button", class: "link", onclick: () => walk.go(m.move) }, `Move ${m.move}`),
            `: you chose to ${actionWords(m.played)}; the expert would ${actionWords(m.best)} (about ${unit(m)}). `,
            h("span", { class: "muted" }, say(m.reason)),
          ),
        ),
      )
    : h("p", {}, "The expert would have made every one of your decisions the same way.");
  box.replaceChildren(h("h3", {}, "The expert's review"), list, walk.bar, label, board);
  walk.go(review.mistakes.length ? review.mistakes[0].move : 0);
}
