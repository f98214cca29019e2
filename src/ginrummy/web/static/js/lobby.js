// The lobby: start a game against the computer or a friend; list this browser's games.
import { h, inviteButton, savedTables, saveInvite, saveSettings, saveTable, settings, themeChoice } from "./common.js";

const form = document.getElementById("new-game");
const presetText = document.getElementById("preset-text");
let presets = [];

async function load() {
  const data = await (await fetch("/api/presets")).json();
  presets = data.presets;
  document.getElementById("preset").replaceChildren(...presets.map((p) => h("option", { value: p.name }, p.name)));
  document
    .getElementById("level")
    .replaceChildren(...data.levels.map((l) => h("option", { value: l, selected: l === "intermediate" }, l)));
  showPreset();
  listMine();
}

function showPreset() {
  const p = presets.find((x) => x.name === form.preset.value);
  presetText.textContent = p ? p.description : "";
  if (p) document.getElementById("match-label").textContent = ` Play a match (to ${p.match_target})`;
}
form.preset.addEventListener("change", showPreset);
function showMode() {
  const friend = form.mode.value === "friend";
  for (const el of document.querySelectorAll(".computer-only")) el.hidden = friend;
  for (const el of document.querySelectorAll(".friend-only")) el.hidden = !friend;
}
form.addEventListener("change", showMode);
showMode();
form.name.value = settings().name || ""; // the name given last time
// The theme, chosen here too, before sitting down (the table's settings offer the same).
themeChoice(document.getElementById("opt-theme"));

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = form;
  const options = {};
  for (const key of ["knock_limit", "game_target"]) if (f[key].value !== "") options[key] = Number(f[key].value);
  for (const key of ["big_gin", "must_gin", "wall_pickup"]) if (f[key].checked) options[key] = true;
  const body = {
    mode: f.mode.value,
    level: f.level.value,
    preset: f.preset.value,
    name: f.name.value,
    options,
    match: f.match.checked,
    stake: f.stake.value,
  };
  // Hints and the move clock are chosen for a game between friends only (their fields are
  // hidden otherwise): against the computer, hints are always on and there is no clock.
  if (f.mode.value === "friend") {
    body.hints = f.hints.checked;
    body.clock = Number(f.clock.value || 0);
  }
  if (f.name.value.trim()) saveSettings({ ...settings(), name: f.name.value.trim() });
  const res = await fetch("/api/tables", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) {
    document.getElementById("form-error").textContent = data.message;
    return;
  }
  saveTable(data.id, data.token);
  if (data.invite) {
    const link = new URL(data.invite, location.href).href;
    document.getElementById("invite").hidden = false;
    // below the form (and its options), off a phone's screen: brought into view
    document.getElementById("invite").scrollIntoView({ block: "center" });
    document.getElementById("invite-link").value = link;
    document.getElementById("go-table").href = `/t/${data.id}`; // our seat is in storage
    saveInvite(data.id, link);
    inviteButton(
      document.getElementById("copy-invite"),
      document.getElementById("invite-link"),
      document.getElementById("invite-said"),
      link,
    );
    // The table is made: the form would make another, so it rests until the page is left.
    for (const el of form.querySelectorAll("button, input, select")) el.disabled = true;
    listMine();
  } else {
    location.href = `/t/${data.id}`;
  }
});

async function listMine() {
  const tables = savedTables();
  if (!tables.length) return;
  const res = await fetch("/api/mine", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(tables),
  });
  const games = await res.json();
  const ul = document.getElementById("mine");
  if (!games.length) return;
  ul.replaceChildren(
    ...games.map((g) =>
      h(
        "li",
        {},
        h("a", { href: g.status === "open" ? `/t/${g.id}` : g.url }, `${g.names[0]} vs ${g.names[1]}`),
        " ",
        h(
          "span",
          { class: "muted" },
          g.status === "open"
            ? g.hand_number == null
              ? "open" // not loaded on the server since it started: details on opening
              : `hand ${g.hand_number}, ${g.scores[0]}–${g.scores[1]}${g.your_turn ? " · your turn" : ""}`
            : `${g.status}${g.final && g.final.winner != null ? `: ${g.names[g.final.winner]} won by ${g.final.net}` : ""}` +
                (g.undo_used ? " · undo used" : ""),
        ),
      ),
    ),
  );
}

load();
