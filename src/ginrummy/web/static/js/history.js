// This browser's finished games, a page at a time, and its record: only games this browser
// holds a seat at (their tokens are kept in its storage), never everyone's.
import { h, savedTables } from "./common.js";

const tables = savedTables().map((t) => ({ id: t.id, token: t.token }));
let page = 1;

async function post(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return res.json();
}

async function load() {
  const data = await post(`/api/history?page=${page}&per_page=20`, { tables });
  const ul = document.getElementById("games");
  if (!data.games.length) {
    ul.replaceChildren(h("li", { class: "muted" }, "No finished games in this browser yet."));
    return;
  }
  ul.replaceChildren(
    ...data.games.map((g) =>
      h(
        "li",
        {},
        h("a", { href: g.url }, `${g.names[0]} vs ${g.names[1]}`),
        " ",
        h(
          "span",
          { class: "muted" },
          `${g.updated.slice(0, 16).replace("T", " ")}` +
            (g.status === "abandoned" ? " · abandoned" : "") +
            (g.final && g.final.winner != null ? ` · ${g.names[g.final.winner]} won by ${g.final.net}` : "") +
            (g.undo_used ? " · undo used (not counted)" : ""),
        ),
      ),
    ),
  );
  const nav = document.getElementById("pages");
  nav.replaceChildren(
    h(
      "button",
      {
        type: "button",
        disabled: page <= 1,
        onclick: () => {
          page -= 1;
          load();
        },
      },
      "Newer",
    ),
    h("span", { class: "muted" }, ` Page ${data.page} of ${data.pages} (${data.total} games) `),
    h(
      "button",
      {
        type: "button",
        disabled: page >= data.pages,
        onclick: () => {
          page += 1;
          load();
        },
      },
      "Older",
    ),
  );
}

async function stats() {
  const s = await post("/api/stats", { tables });
  const rows = Object.entries(s).filter(([k]) => k !== "not_counted");
  const box = document.getElementById("stats");
  box.replaceChildren(
    h(
      "table",
      { class: "sheet" },
      ...rows.map(([k, v]) =>
        h(
          "tr",
          {},
          h("th", {}, k.replaceAll("_", " ")),
          h("td", {}, typeof v === "number" ? Math.round(v * 100) / 100 : String(v)),
        ),
      ),
    ),
    s.not_counted
      ? h(
          "p",
          { class: "muted" },
          `${s.not_counted} finished game(s) not counted: undo was used or the game was abandoned.`,
        )
      : "",
  );
}
load();
stats();
