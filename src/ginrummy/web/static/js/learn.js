// How to play, for the rules chosen: the same card pictures as the table, the figures of the
// chosen preset (knock limit, bonuses, targets) filled in.
import { cardElement } from "./cards.js";
import { h, themeChoice } from "./common.js";

const $ = (id) => document.getElementById(id);

function cards(text, label) {
  const row = h("div", { class: "cards", role: "img", "aria-label": label });
  for (const c of text.split(" ")) row.append(cardElement(c));
  return row;
}

function section(title, ...body) {
  return h("section", { class: "card-panel" }, h("h2", {}, title), ...body);
}

function lesson(r, name) {
  const knock =
    r.knock_limit === 0
      ? h("p", {}, "In this game (Straight Gin) you may not knock: the only way to end a hand is gin.")
      : r.oklahoma
        ? h(
            "p",
            {},
            "In Oklahoma Gin the first upcard sets the knock limit for the hand: its value (face cards 10). ",
            r.oklahoma_ace === "gin" ? "An ace means gin only. " : "",
            r.oklahoma_spade_double ? "When it is a spade, the hand counts double." : "",
          )
        : h(
            "p",
            {},
            `When your deadwood (after discarding) is ${r.knock_limit} or less you may knock: lay down your melds, discard face down, and show your deadwood.`,
          );
  const scoring = [
    h("li", {}, "Knock: you score the difference between your opponent's deadwood (after they lay off) and yours."),
    h("li", {}, `Gin (no deadwood at all): their deadwood plus ${r.gin_bonus}; nothing may be laid off on gin.`),
    r.big_gin ? h("li", {}, `Big gin (all eleven cards in melds): their deadwood plus ${r.big_gin_bonus}.`) : "",
    h(
      "li",
      {},
      `Undercut: if the defender's deadwood is ${r.undercut_on_tie ? "equal to or " : ""}lower than the knocker's, the defender scores the difference plus ${r.undercut_bonus}.`,
    ),
    r.game_target
      ? h(
          "li",
          {},
          `The game ends when a player reaches ${r.game_target} points${r.hollywood ? " in every one of the three Hollywood columns" : ""}.` +
            (r.game_bonus ? ` The winner adds ${r.game_bonus} for the game` : "") +
            (r.box_bonus ? ` and ${r.box_bonus} for each hand won (a box)` : "") +
            (r.shutout === "bonus"
              ? `, plus ${r.shutout_bonus} if the loser scored nothing.`
              : r.shutout === "double"
                ? "; a shutout doubles it all."
                : "."),
        )
      : "",
  ];
  return [
    section(
      "The goal",
      h(
        "p",
        {},
        "Each player gets ten cards. Make melds (sets and runs) and get your unmatched cards, the deadwood, as low as you can before your opponent does.",
      ),
    ),
    section(
      "Melds",
      h("p", {}, "A set: three or four cards of the same rank."),
      cards("7h 7d 7c", "a set: seven of hearts, diamonds, clubs"),
      h("p", {}, "A run: three or more cards in a row of one suit. The ace is low: A-2-3, never Q-K-A."),
      cards("As 2s 3s 4s", "a run: ace to four of spades"),
      h(
        "p",
        {},
        "Deadwood is every card not in a meld: aces count 1, number cards their number, jacks, queens and kings 10. The table finds the melds that leave you the least.",
      ),
      cards("Kd 9c 3h", "deadwood: king of diamonds, nine of clubs, three of hearts: 22"),
    ),
    section(
      "A turn",
      h(
        "p",
        {},
        "At the start, the card turned up beside the stock may be taken by the non-dealer, then the dealer; if both pass, the non-dealer draws from the stock. After that, on your turn: draw one card, from the stock (face down) or the discard pile (face up), then discard one. You may not discard a card you just took from the pile.",
      ),
      h(
        "p",
        {},
        `When only two cards are left in the stock and nobody has knocked, the hand is dead: no score${r.dead_hand_dealer === "same" ? ", and the same dealer deals again" : ""}.`,
      ),
    ),
    section(
      "Ending a hand",
      knock,
      h(
        "p",
        {},
        "Your opponent then lays down their melds and may lay off deadwood onto yours (a card that extends your run or completes your set), unless you went gin.",
      ),
    ),
    section("Scoring", h("ul", {}, ...scoring)),
    section(
      "At this table",
      h(
        "p",
        {},
        "Click (or tap) the stock or the pile to draw, a card to select it, then Discard, Knock or Gin. Drag cards to arrange your hand, or onto the pile to discard. Every move has a key: D draw, T take, X discard, K knock, G gin. The move log says what your opponent did.",
      ),
      h("p", {}, `These are the rules called "${name}".`),
    ),
  ];
}

async function load() {
  const data = await (await fetch("/api/presets")).json();
  const select = $("preset");
  const wanted = new URLSearchParams(location.search).get("preset") || "standard";
  select.replaceChildren(
    ...data.presets.map((p) => h("option", { value: p.name, selected: p.name === wanted }, p.name)),
  );
  const show = () => {
    const p = data.presets.find((x) => x.name === select.value) || data.presets[0];
    $("preset-text").textContent = p.description;
    $("lesson").replaceChildren(...lesson(p.rules, p.name));
    history.replaceState(null, "", `/learn?preset=${encodeURIComponent(p.name)}`);
  };
  select.onchange = show;
  show();
}
load();

// The theme, chosen here as in the lobby's footer and the table's settings.
themeChoice(document.getElementById("opt-theme"));
