// One position of a hand, with both hands face up: for the replay of a finished game and the
// expert's review of a hand. A "stepper" walks through the positions: back, forward, autoplay.
import { cardElement, meldCards, splitCards } from "./cards.js";
import { h } from "./common.js";

function row(cards, label) {
  const r = h("div", { class: "cards", role: "img", "aria-label": label });
  for (const c of cards) r.append(cardElement(c));
  return r;
}

// The melds laid down, one group each (run together, a meld could wrap across lines).
function melds(list) {
  const r = h("div", { class: "meld-row", role: "img", "aria-label": "melds laid down" });
  for (const m of list) {
    const g = h("div", { class: "meld" });
    for (const c of meldCards(m)) g.append(cardElement(c));
    r.append(g);
  }
  return r;
}

// The position ``step`` of a hand (see replay_hand on the server) as elements. ``you``: the
// seat of whoever looks at it, marked as the table marks it ("Ann (you)"), if any.
export function position(step, { names, dealer, you = null, heading = "h3" }) {
  const name = (seat) => {
    const marks = [seat === you ? "you" : "", dealer === seat ? "dealer" : ""].filter(Boolean);
    return names[seat] + (marks.length ? ` (${marks.join(", ")})` : "");
  };
  const out = [
    h(heading, { class: "seat-label" }, name(0)),
    row(splitCards(step.hands[0]), `${names[0]}'s hand`),
    h(heading, { class: "seat-label" }, `Discard pile (stock ${step.stock})`),
    row(splitCards(step.pile), "discard pile"),
  ];
  if (step.melds.length) {
    out.push(h(heading, { class: "seat-label" }, "Melds laid down"), melds(step.melds));
  }
  out.push(h(heading, { class: "seat-label" }, name(1)), row(splitCards(step.hands[1]), `${names[1]}'s hand`));
  return out;
}

// Back, forward and autoplay over ``count`` positions; ``show(i)`` draws position i. Returns
// {bar, go(i)}: the buttons, and a way to jump to a position.
export function stepper(count, show) {
  let at = 0;
  let timer = null;
  const back = h("button", { type: "button" }, "◀ Back");
  const forward = h("button", { type: "button" }, "Forward ▶");
  const play = h("button", { type: "button" }, "Play ▶▶");
  const go = (i) => {
    at = Math.max(0, Math.min(count - 1, i));
    back.disabled = at === 0;
    forward.disabled = at === count - 1;
    show(at);
    return at < count - 1;
  };
  const stop = () => {
    clearInterval(timer);
    timer = null;
    play.textContent = "Play ▶▶";
  };
  back.onclick = () => {
    stop();
    go(at - 1);
  };
  forward.onclick = () => {
    stop();
    go(at + 1);
  };
  play.onclick = () => {
    if (timer) return stop();
    play.textContent = "Pause ❚❚";
    timer = setInterval(() => {
      if (!go(at + 1)) stop();
    }, 900);
  };
  return {
    bar: h("div", { class: "bar" }, back, forward, play),
    go,
    step: (d) => {
      stop();
      return go(at + d);
    },
  };
}
