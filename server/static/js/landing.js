// GET /: what Tussle is, the public encounters (kept fresh), and "create an encounter" built from
// GET /rulesets and the option schemas of /openapi.json.

import { api, el, newCommandId, viewLink, linkRow } from "./api.js";
import { keepReceipt } from "./receipts.js";
import { onceLink, rememberToken } from "./device.js";
import { resolverOf, schemaInput } from "./schema-input.js";

const DICE_HELP = {
  server: "the server rolls committed dice that anyone can check once the seed is revealed",
  manual: "the table rolls physical dice and types the faces in; the server applies the rules",
  mixed: "server dice, unless a command supplies the faces it rolled",
};

let rulesets = [];
let openapi = null;

function optionSchemas(id) {
  const entry = openapi && openapi["x-tussle-rulesets"] && openapi["x-tussle-rulesets"][id];
  const schemas = (openapi && openapi.components && openapi.components.schemas) || {};
  const props = {};
  for (const key of ["options", "engine_options"]) {
    const ref = entry && entry[key] && entry[key].$ref;
    const s = ref ? schemas[ref.split("/").pop()] : null;
    Object.assign(props, (s && s.properties) || {});
  }
  return props;
}

// An option's input from its JSON Schema (schema-input.js), its default shown, its meaning in one line.
function optionInput(opt, schema, resolve) {
  const description = firstLine((schema && schema.description) || opt.description || opt.doc || "");
  const dflt = opt.default;
  const f = schemaInput(schema || { type: typeof dflt === "boolean" ? "boolean" : typeof dflt === "number" ? "integer" : "string" },
    { name: opt.name, value: dflt, resolve, describe: false });
  f.node.id = `opt-${opt.name}`;
  // A schema's description may say its default already ("Default (when omitted): true."): not twice.
  const said = /Default \(when omitted\)/.test(description);
  f.node.append(el("small", { class: "help" }, `${description ? `${description} ` : ""}${said ? "" : `(default: ${shortJson(dflt)})`}`.trim()));
  return { name: opt.name, wrap: f.node, read: f.read, dflt };
}

function firstLine(text) { return String(text).split("\n")[0]; }

function shortJson(v) {
  const t = JSON.stringify(v);
  return t.length > 60 ? `${t.slice(0, 57)}…` : t;
}

let optionFields = [];
const described = new Map();

// GET /rulesets/{id} says what each option means (a server without it: the names and defaults only).
async function descriptions(id) {
  if (!described.has(id)) {
    described.set(id, api("GET", `/rulesets/${encodeURIComponent(id)}`).then((d) => {
      const out = {};
      for (const o of [...(d.options || []), ...(d.engine_options || [])]) if (o.description) out[o.name] = o.description;
      return out;
    }).catch(() => ({})));
  }
  return described.get(id);
}

async function showOptions() {
  const id = document.getElementById("c-ruleset").value;
  const about = await descriptions(id);
  if (document.getElementById("c-ruleset").value !== id) return; // changed again meanwhile
  const r = rulesets.find((x) => x.id === id);
  const box = document.getElementById("c-options");
  box.replaceChildren(el("legend", {}, "Options"));
  const help = document.getElementById("c-ruleset-help");
  help.replaceChildren(r ? `${r.title} (version ${r.version}; map: ${r.geometry.kind === "plane" ? "table-top inches" : "hexes"}) — ` : "",
    r ? el("a", { href: `/rulesets/${encodeURIComponent(r.id)}/guide` }, "the player's guide") : "");
  const schemas = optionSchemas(id);
  // rotate_seed_each_turn has its own "recommended" box under Dice (rotateEachTurnField): one control, not two.
  optionFields = (r ? r.options : []).filter((o) => o.name !== "rotate_seed_each_turn").map((o) => optionInput({ description: about[o.name], ...o }, schemas[o.name], resolverOf(openapi)));
  if (!optionFields.length) box.append(el("p", {}, "This ruleset has no options."));
  for (const f of optionFields) box.append(f.wrap);
  box.dataset.ruleset = id;
}

function showDiceHelp() {
  const dice = document.getElementById("c-dice").value;
  document.getElementById("c-dice-help").textContent = DICE_HELP[dice] || "";
  // Manual dice have no seed to rotate.
  const rotate = document.getElementById("c-rotate-each-turn");
  if (rotate) rotate.closest(".field").hidden = dice === "manual";
}

// Rotating the seed each turn (engine option rotate_seed_each_turn) lets a play-by-post group check every
// roll of a turn as soon as the next one starts: ticked by default here, for the GM to untick (the API's
// default is unchanged).
function rotateEachTurnField() {
  const box = el("input", { type: "checkbox", id: "c-rotate-each-turn", name: "rotate_seed_each_turn", checked: true });
  // A box beside its label, as every other checkbox (a plain field is a column: the box sat centred above it).
  return el("div", { class: "field field-boolean" }, box, el("label", { for: "c-rotate-each-turn" }, "Rotate the dice seed each turn (recommended)"),
    el("small", { class: "help" }, "every roll of a turn can be checked as soon as the next turn starts (docs/verifying.md)"));
}

function rotatesEachTurn() {
  const box = document.getElementById("c-rotate-each-turn");
  return !!box && box.checked && document.getElementById("c-dice").value !== "manual";
}

function showCreated(created) {
  keepReceipt(created.id, created); // seq 1's receipt: it pins the creation whole (docs/verifying.md §1)
  if (created.gm_token) rememberToken(created.id, created.gm_token); // this browser opens the encounter as its GM from any link
  const box = document.getElementById("created");
  const gmUrl = viewLink(created.id, created.gm_token);
  const seats = el("div", { class: "made-links" });
  const seatName = el("input", { id: "seat-name", autocomplete: "off", value: "Player 1" });
  const seatCombatants = el("input", { id: "seat-combatants", autocomplete: "off", placeholder: "combatant ids, comma-separated (can be set later)" });
  const seatStatus = el("p", { class: "status", role: "status" });
  const makeSeat = el("form", { class: "inline", "aria-label": "Make a seat link" },
    el("div", { class: "field" }, el("label", { for: "seat-name" }, "Seat name"), seatName),
    el("div", { class: "field" }, el("label", { for: "seat-combatants" }, "Combatants"), seatCombatants),
    el("button", { type: "submit" }, "Make a seat link"), seatStatus);
  makeSeat.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const combatants = seatCombatants.value.split(",").map((s) => s.trim()).filter(Boolean);
      const r = await api("POST", `/encounters/${created.id}/seats`, { token: created.gm_token,
        body: { name: seatName.value, combatants, command_id: newCommandId() } });
      seats.append(onceLink(`Seat link for ${seatName.value}`, viewLink(created.id, r.token)));
      seatStatus.textContent = "";
    } catch (err) { seatStatus.textContent = err.message; }
  });
  const readButton = el("button", { type: "button", onclick: async () => {
    try {
      const r = await api("POST", `/encounters/${created.id}/read-tokens`, { token: created.gm_token });
      seats.append(linkRow("Read-only link", viewLink(created.id, r.token)));
    } catch (err) { seatStatus.textContent = err.message; }
  } }, "Make a read-only link");
  box.replaceChildren(
    el("h3", {}, `“${created.name}” is ready`),
    el("p", {}, "Keep the GM link to yourself: whoever holds it runs the fight. Hand each player their own seat link."),
    onceLink("GM link", gmUrl),
    el("p", {}, el("a", { href: gmUrl, id: "open-gm" }, "Open the encounter as GM")),
    el("p", { class: "commitment" }, `Dice commitment: ${created.commitment || "none (manual dice)"}`),
    makeSeat, readButton, seats);
  box.hidden = false;
}

// Only the options that differ from their defaults are sent (a box that cannot be read says why).
function changedOptions() {
  const options = {};
  for (const f of optionFields) {
    const v = f.read();
    if (JSON.stringify(v) !== JSON.stringify(f.dflt)) options[f.name] = v;
  }
  return options;
}

const ADMIN_KEY = "tussle-admin-token";

// The admin token, where this server needs one: kept for this tab only, never in localStorage.
function adminToken() {
  if (document.getElementById("c-admin").hidden) return null;
  const t = document.getElementById("c-admin-token").value.trim();
  try {
    if (t) sessionStorage.setItem(ADMIN_KEY, t);
    else sessionStorage.removeItem(ADMIN_KEY);
  } catch { /* storage refused: the box still holds it */ }
  return t || null;
}

async function create(ev) {
  ev.preventDefault();
  const status = document.getElementById("create-status");
  let options;
  try {
    options = changedOptions();
    if (rotatesEachTurn()) options.rotate_seed_each_turn = true;
  } catch (err) {
    status.textContent = err.message;
    return;
  }
  const body = {
    name: document.getElementById("c-name").value,
    ruleset: document.getElementById("c-ruleset").value,
    dice: document.getElementById("c-dice").value,
    public: document.getElementById("c-public").checked,
    options, command_id: newCommandId(),
  };
  status.textContent = "creating…";
  const admin = adminToken();
  try {
    showCreated(await api("POST", "/encounters", { body, token: admin }));
    status.textContent = "";
    loadPublic();
  } catch (err) {
    status.textContent = err.message;
  }
}

function showAdminField(needed) {
  const box = document.getElementById("c-admin");
  if (box.hidden !== needed) return;
  box.hidden = !needed;
  if (needed) {
    try { document.getElementById("c-admin-token").value = sessionStorage.getItem(ADMIN_KEY) || ""; } catch { /* none kept */ }
  }
}

async function loadPublic() {
  const list = document.getElementById("public-list");
  try {
    const r = await api("GET", "/encounters");
    showAdminField(!!r.admin_creates);
    const items = r.encounters.map((e) => el("li", {},
      el("a", { href: viewLink(e.id) }, e.name || e.id), ` — ${e.ruleset}, ${e.seq} events${e.closed ? ", closed" : ""}`));
    list.replaceChildren(...(items.length ? items : [el("li", {}, "None yet.")]));
  } catch (err) {
    list.replaceChildren(el("li", {}, `Could not list encounters: ${err.message}`));
  }
}

async function main() {
  document.getElementById("create").addEventListener("submit", create);
  [rulesets, openapi] = await Promise.all([api("GET", "/rulesets").then((r) => r.rulesets), api("GET", "/openapi.json")]);
  const select = document.getElementById("c-ruleset");
  for (const r of rulesets) select.append(el("option", { value: r.id }, `${r.title} (${r.id})`));
  if (rulesets.some((r) => r.id === "tft")) select.value = "tft";
  select.addEventListener("change", showOptions);
  const create_ = openapi.components.schemas.CreateEncounter;
  const dice = document.getElementById("c-dice");
  for (const d of (create_ && create_.properties.dice.enum) || ["server", "manual", "mixed"]) dice.append(el("option", { value: d }, d));
  dice.value = "server";
  dice.addEventListener("change", showDiceHelp);
  dice.closest(".field").after(rotateEachTurnField());
  showOptions();
  showDiceHelp();
  loadPublic();
  setInterval(loadPublic, 10000);
}

main();
