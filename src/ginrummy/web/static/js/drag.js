// Dragging a card of your hand, with a mouse, a pen or a finger: onto another card to put it
// there, onto the discard pile to discard it. A press that barely moves is a click, as before.
const THRESHOLD = 8; // pixels before a press becomes a drag

export function enableDrag(hand, { onDrop, pileSelector }) {
  let drag = null;

  hand.addEventListener("pointerdown", (e) => {
    const card = e.target.closest(".card[data-card]");
    if (!card || e.button !== 0) return;
    drag = { el: card, card: card.dataset.card, x: e.clientX, y: e.clientY, moving: false, id: e.pointerId };
  });

  window.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moving) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      drag.moving = true;
      drag.el.classList.add("dragging");
      try {
        drag.el.setPointerCapture(e.pointerId);
      } catch {
        /* released already */
      }
    }
    drag.el.style.transform = `translate(${dx}px, ${dy}px)`;
    e.preventDefault();
  });

  const finish = (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const { el, card, moving } = drag;
    drag = null;
    if (!moving) return; // a click: the card's own handler selects it
    el.classList.remove("dragging");
    el.style.transform = "";
    // swallow the click that follows the drag
    el.addEventListener(
      "click",
      (c) => {
        c.stopImmediatePropagation();
        c.preventDefault();
      },
      { capture: true, once: true },
    );
    if (e.type === "pointercancel") return;
    el.style.visibility = "hidden"; // see what lies under the pointer
    const below = document.elementFromPoint(e.clientX, e.clientY);
    el.style.visibility = "";
    if (!below) return;
    if (below.closest(pileSelector)) onDrop(card, "pile");
    else {
      const target = below.closest("#hand .card[data-card]");
      if (target && target.dataset.card !== card) onDrop(card, target.dataset.card);
      else if (below.closest("#hand")) onDrop(card, null); // the end of the hand
    }
  };
  window.addEventListener("pointerup", finish);
  window.addEventListener("pointercancel", finish);
}
