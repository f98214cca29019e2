// The move log: the hand so far in words, newest last, and what is new since the last time
// (for screen readers: the page puts it in its live region).
import { cutLine, dealLine, moveLine, resultHeadline } from "./words.js";

export function logLines({ view, table, n }) {
  if (!view) return [];
  const lines = [];
  const cuts = table.sheet?.cuts;
  if (table.hand_number === 1 && cuts && cuts.length) {
    const firstDealer = view.dealer;
    lines.push({ text: cutLine(cuts, firstDealer, n), kind: "deal" });
  }
  lines.push({ text: dealLine(table.hand_number, view.dealer, view.upcard, n), kind: "deal" });
  const history = view.history || [];
  const clocked = new Set(table.clock_moves || []); // moves the clock made for a seat out of time
  history.forEach((event, i) => {
    const upcard = event.action === "pass" && i < 2 ? view.upcard : null;
    let text = moveLine(event, n, { upcard });
    if (clocked.has(event.n)) text += ` (Out of time: the clock moved for ${n.whom(event.seat)}.)`;
    // a card drawn from the stock is news even to the one who drew it: it is said too
    const news = event.action === "draw" && !!event.card;
    lines.push({ text, kind: n.you(event.seat) ? "mine" : "theirs", seat: event.seat, news });
  });
  if (view.result) lines.push({ text: `${resultHeadline(view.result, n)}.`, kind: "result" });
  return lines;
}

// Draw the log into ``list`` (an <ol>). ``shown`` is what the last call returned; returns
// {fresh, shown}: fresh are the new lines that were not the viewer's own moves (but for the card
// the viewer drew, which was news).
export function renderLog(list, data, shown = { key: null, count: 0 }) {
  const lines = logLines(data);
  const key = `${data.table.id}:${data.table.hand_number}`;
  const before = shown.key === key ? shown.count : 0;
  const fresh = lines
    .slice(before)
    .filter((l) => l.kind !== "mine" || l.news)
    .map((l) => l.text);
  list.replaceChildren(
    ...lines.map((l) => {
      const li = document.createElement("li");
      li.className = `log-${l.kind}`;
      li.textContent = l.text;
      return li;
    }),
  );
  const box = list.parentElement;
  if (box) box.scrollTop = box.scrollHeight;
  // a page just opened announces only the latest line, not the whole hand
  return { fresh: before === 0 && lines.length > 2 ? fresh.slice(-1) : fresh, shown: { key, count: lines.length } };
}
