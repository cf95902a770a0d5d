// The GM's "add combatants" form, structured: a box per field of a figure and a box per stat of the
// encounter's ruleset (from its stats schema in /openapi.json, `{Ruleset}Stats`; the required ones
// marked), items as rows, several figures at once (sent as one add_combatants where the server has it).

import { el } from "./api.js";
import { humanName, schemaInput } from "./schema-input.js";
import { positionUnit, toSteps } from "./units.js";

let uid = 0;

const HEX_FACINGS = ["0 — east (+q)", "1 — north-east", "2 — north-west", "3 — west", "4 — south-west", "5 — south-east"];
const POSTURES = ["standing", "kneeling", "prone", "on_back", "on_stomach"];
const ITEM = {
  type: "object",
  required: ["id", "name", "kind", "state"],
  properties: {
    id: { type: "string", description: "its id" },
    name: { type: "string", description: "its name" },
    kind: { type: "string", default: "weapon", description: "weapon, shield, armor ..." },
    state: { enum: ["ready", "carried", "worn", "dropped"], default: "ready" },
    damage: { anyOf: [{ type: "string" }, { type: "null" }], default: null, description: "e.g. 2d6" },
  },
};

const camel = (id) => id.split(/[-_]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");

export function statsSchema(openapi, ruleset) {
  const schemas = (openapi && openapi.components && openapi.components.schemas) || {};
  return schemas[`${camel(ruleset)}Stats`] || { properties: {} };
}

// A stat's schema without its null alternative, and whether null is allowed.
function plainSchema(schema) {
  const alts = (schema && Array.isArray(schema.anyOf)) ? schema.anyOf : [schema || {}];
  const rest = alts.filter((a) => a && a.type !== "null");
  return { schema: rest.length === 1 ? rest[0] : {}, nullable: rest.length < alts.length };
}

const isNumberSchema = (s) => s && (s.type === "integer" || s.type === "number");

// A list or a map typed as words, the way a player writes it: "4 4 4 1" or "4, 4, 4, 1" (a profile),
// "flight, super_jump" (traits), "Wrestling: 13, Judo: 12" (skills); JSON is read as before.
function readTyped(t, schema) {
  const { schema: s, nullable } = plainSchema(schema);
  if (nullable && /^(null|none)$/i.test(t)) return null;
  if (/^[[{]/.test(t)) return undefined;
  // One of a list of names, typed as the help reads it ("rifle bayonet", "Sword"): the name it means.
  if (Array.isArray(s.enum)) {
    const key = (x) => String(x).trim().toLowerCase().replace(/[\s_-]+/g, "_");
    return s.enum.find((e) => typeof e === "string" && key(e) === key(t));
  }
  if (s.type === "array") {
    const parts = (isNumberSchema(s.items) ? t.split(/[\s,;]+/) : t.split(/[,;]/)).map((x) => x.trim()).filter(Boolean);
    return isNumberSchema(s.items) ? parts.map((x) => (/^-?\d+(\.\d+)?$/.test(x) ? Number(x) : x)) : parts;
  }
  if (s.type === "object" && s.additionalProperties && !s.properties) {
    const out = {};
    for (const part of t.split(/[,;]/).map((x) => x.trim()).filter(Boolean)) {
      const m = /^(.*?)\s*[:=]\s*(\S.*)$/.exec(part);
      if (!m) throw new Error(`${part}: write each as name: value, separated by commas`);
      const v = m[2].trim();
      out[m[1].trim()] = isNumberSchema(s.additionalProperties) && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
    }
    return out;
  }
  return undefined;
}

// A stat's box reads what it holds as a number, true/false, a list or map in words (by its schema),
// or (advanced) a JSON list or object.
function readStat(text, schema = null) {
  const t = text.trim();
  if (t === "") return undefined;
  if (schema) {
    const typed = readTyped(t, schema);
    if (typed !== undefined) return typed;
  }
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  // A phone keyboard capitalises the first letter: "True" is true too.
  if (/^(true|false)$/i.test(t)) return t.toLowerCase() === "true";
  if (/^[[{]/.test(t)) {
    try { return JSON.parse(t); } catch { throw new Error(`${t.slice(0, 20)}…: not a JSON list or object`); }
  }
  return t;
}

// A stat described as a list of records, "[{name, kind: melee or ranged, reach: ["C", "1"], parry}]"
// (GURPS' and Rogue Trader's weapons): its fields, each with its hint, split at the top level's commas.
export function recordFields(description) {
  const m = /^\s*\[\{(.*)\}\]/.exec(description || "");
  if (!m) return null;
  const parts = [];
  let depth = 0, cur = "";
  for (const ch of m[1]) {
    if ("[{(".includes(ch)) depth++;
    if ("]})".includes(ch)) depth--;
    if (ch === "," && depth === 0) { parts.push(cur); cur = ""; } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => {
    const [name, ...hint] = p.split(":");
    const h = hint.join(":").trim();
    return { name: name.trim(), hint: h, list: h.startsWith("[") };
  }).filter((f) => /^\w+$/.test(f.name));
}

// One record's boxes read: a field hinted as a list is split at its commas (reach "C, 1" -> ["C", "1"]),
// the others as a stat is (a number, true/false, or text); an empty box is left out.
function readRecord(rec, fields) {
  const out = {};
  for (const f of fields) {
    const t = String(rec[f.name] ?? "").trim();
    if (!t) continue;
    out[f.name] = f.list ? t.split(",").map((x) => x.trim()).filter(Boolean) : readStat(t);
  }
  return out;
}

function recordsInput(k, fields, id) {
  const schema = { type: "array", items: { type: "object", properties: Object.fromEntries(fields.map((f) => [f.name, { anyOf: [{ type: "string" }, { type: "null" }], default: null, description: f.hint }])) } };
  const f = schemaInput(schema, { name: k, label: humanName(k), value: [], describe: false });
  f.node.id = id;
  return { node: f.node, read: () => f.read().map((rec) => readRecord(rec, fields)) };
}

const slug = (name) => name.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60);

// The item schema with the ruleset's own item fields (GET /rulesets/{id} item_fields: tft's dagger_list,
// hth_damage ...), each an optional box read as a number, true/false or text.
function itemSchema(itemFields) {
  const extra = (itemFields || []).filter((f) => !(f.name in ITEM.properties) && f.name !== "at");
  const props = { ...ITEM.properties };
  for (const f of extra) props[f.name] = { anyOf: [{ type: "string" }, { type: "null" }], default: null, description: f.description };
  return { schema: { ...ITEM, properties: props }, extra: extra.map((f) => f.name) };
}

function figureFieldset(n, stats, geometry, sides, itemFields) {
  const unit = positionUnit(geometry);
  const plane = unit.plane;
  const id = (s) => `cf${uid}-${n}-${s}`;
  uid++;
  const box = (name, label, attrs = {}) => {
    const input = el("input", { id: id(name), type: "text", autocomplete: "off", ...attrs });
    return [input, el("div", { class: "field" }, el("label", { for: id(name) }, label), input)];
  };
  const [name, nameF] = box("name", "Name (required)", { required: true });
  const [cid, cidF] = box("id", "Id (blank: from the name)");
  const [side, sideF] = box("side", "Side (required)", { list: `${id("sides")}`, required: true });
  const sidesList = el("datalist", { id: id("sides") }, sides.map((s) => el("option", { value: s })));
  // In the unit the page shows positions in (inches on a table-top plane), sent as the geometry's steps.
  const [px, pxF] = box("x", plane ? `Position x (${unit.words})` : "Position q", { type: "number", step: String(unit.step), value: "0" });
  const [py, pyF] = box("y", plane ? `Position y (${unit.words})` : "Position r", { type: "number", step: String(unit.step), value: "0" });
  const facing = plane ? el("input", { id: id("facing"), type: "number", min: 0, max: 359, value: 0 })
    : el("select", { id: id("facing") }, HEX_FACINGS.map((t, i) => el("option", { value: i }, t)));
  const posture = el("select", { id: id("posture") }, POSTURES.map((p) => el("option", { value: p }, humanName(p))));
  const statBoxes = Object.entries(stats.properties || {}).map(([k, p]) => {
    const required = /\(required/.test(p.description || "");
    const fields = recordFields(p.description);
    if (fields) {
      const rec = recordsInput(k, fields, id(`stat-${k}`));
      return { k, required, records: rec, node: el("div", { class: "field stat-records", "data-stat-records": k }, rec.node,
        el("small", { class: "help" }, (p.description || "").split("\n")[0])) };
    }
    const input = el("input", { id: id(`stat-${k}`), type: "text", autocomplete: "off", autocapitalize: "off", "data-stat": k, required: required || null, "aria-describedby": id(`stat-${k}-help`) });
    return { k, input, required, schema: p, node: el("div", { class: "field" }, el("label", { for: id(`stat-${k}`) }, humanName(k), required ? " (required)" : ""), input,
      el("small", { class: "help", id: id(`stat-${k}-help`) }, (p.description || "").split("\n")[0])) };
  });
  const { schema: itemsOf, extra } = itemSchema(itemFields);
  const items = schemaInput({ type: "array", items: itemsOf }, { name: "items", label: "items", value: [], describe: false });
  const node = el("fieldset", { class: "figure-form", "data-figure": n }, el("legend", {}, `Figure ${n}`),
    nameF, cidF, sideF, sidesList, el("div", { class: "row" }, pxF, pyF),
    el("div", { class: "field" }, el("label", { for: id("facing") }, plane ? "Facing (degrees)" : "Facing"), facing),
    el("div", { class: "field" }, el("label", { for: id("posture") }, "Posture"), posture),
    el("fieldset", { class: "stats" }, el("legend", {}, "Stats"), statBoxes.map((s) => s.node)), items.node);
  const read = () => {
    if (!name.value.trim()) throw new Error(`Figure ${n}: give it a name`);
    if (!side.value.trim()) throw new Error(`Figure ${n}: give it a side`);
    const out = { id: cid.value.trim() || slug(name.value) || `figure-${n}`, name: name.value.trim(), side: side.value.trim(),
      position: plane ? [toSteps(px.value, geometry), toSteps(py.value, geometry)] : [Number(px.value), Number(py.value)],
      facing: Number(facing.value), posture: posture.value, stats: {}, items: items.read() };
    for (const s of statBoxes) {
      if (s.records) {
        const list = s.records.read();
        if (list.length) out.stats[s.k] = list;
        else if (s.required) throw new Error(`${out.name}: the stat ${humanName(s.k)} is required`);
        continue;
      }
      let v;
      try { v = readStat(s.input.value, s.schema); } catch (err) { throw new Error(`${out.name}: ${humanName(s.k)}: ${err.message}`); }
      if (v === undefined && s.required) throw new Error(`${out.name}: the stat ${humanName(s.k)} is required`);
      if (v !== undefined) out.stats[s.k] = v;
    }
    out.items = out.items.map((it) => Object.fromEntries(Object.entries(it).filter(([, v]) => v !== null && v !== "")
      .map(([k, v]) => [k, extra.includes(k) && typeof v === "string" ? readStat(v) : v])));
    return out;
  };
  return { node, read };
}

/**
 * The form; `send(body)` sends a command and resolves to {ok, text}. `bulk`: the server has
 * add_combatants (one request for several figures).
 */
export function combatantForm({ openapi, ruleset, geometry, sides, bulk, send, itemFields = [] }) {
  const stats = statsSchema(openapi, ruleset);
  const figures = [];
  const list = el("div", { class: "figures" });
  const add = () => {
    const f = figureFieldset(figures.length + 1, stats, geometry, sides, itemFields);
    figures.push(f);
    list.append(f.node);
    return f;
  };
  add();
  const status = el("p", { class: "status", role: "status", "aria-live": "polite" });
  const form = el("form", { class: "combatant-form", id: "add-figures", "aria-label": "Add combatants", novalidate: true }, list,
    el("button", { type: "button", class: "small", onclick: () => add().node.querySelector("input").focus() }, "Add another figure"),
    el("button", { type: "submit" }, "Add to the fight"), status);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    let combatants;
    try {
      combatants = figures.map((f) => f.read());
    } catch (err) {
      Object.assign(status, { textContent: err.message, className: "status error" });
      return;
    }
    const body = combatants.length > 1 && bulk ? { type: "add_combatants", combatants } : { type: "add_combatant", combatant: combatants[0] };
    status.textContent = "sending…";
    let msg = await send(body);
    for (const c of body.type === "add_combatant" ? combatants.slice(1) : []) { // a server without the bulk command
      if (!msg.ok) break;
      msg = await send({ type: "add_combatant", combatant: c });
    }
    Object.assign(status, { textContent: msg.text, className: `status ${msg.ok ? "ok" : "error"}` });
    // Also where every answer goes (#last-result): the section folds away once the fight has figures.
    document.dispatchEvent(new CustomEvent("command-result", { detail: { type: "Add combatants", ...msg } }));
    if (msg.ok) {
      figures.length = 0;
      list.replaceChildren();
      add();
    }
  });
  return form;
}
