// Forms generated from each command's JSON Schema in /openapi.json, found by its `type` constant:
// no form is written by hand for any ruleset, so a new ruleset's commands get forms as they are.

import { el } from "./api.js";
import { humanName, resolverOf, schemaInput } from "./schema-input.js";

// Fields the page fills in itself for every command (ids, entropy, the commitment it saw) or never sends.
const ENVELOPE_FIELDS = new Set(["type", "command_id", "entropy", "expected_seq", "actor", "expected_commitment"]);

let uid = 0;

export function commandSchemas(openapi) {
  const schemas = (openapi && openapi.components && openapi.components.schemas) || {};
  const byType = new Map();
  for (const s of Object.values(schemas)) {
    const t = s && s.properties && s.properties.type;
    const name = t && (t.const ?? (Array.isArray(t.enum) && t.enum.length === 1 ? t.enum[0] : undefined));
    if (typeof name === "string" && !byType.has(name)) byType.set(name, s);
  }
  return { byType, resolve: resolverOf(openapi) };
}

// The one non-null alternative of `anyOf: [X, {type: null}]`, and whether null was allowed.
function unwrap(schema, resolve) {
  let s = resolve(schema);
  let nullable = false;
  if (Array.isArray(s.anyOf)) {
    const rest = s.anyOf.map(resolve).filter((a) => a.type !== "null");
    nullable = rest.length < s.anyOf.length;
    if (rest.length === 1) s = { ...rest[0], default: s.default };
  }
  return { s, nullable };
}

function isPosition(s) {
  return s.type === "array" && s.items && s.items.type === "integer";
}

function field(name, schema, required, ctx) {
  const { s, nullable } = unwrap(schema, ctx.resolve);
  const id = `f${++uid}-${name}`;
  const optional = !required || nullable;
  const label = el("label", { for: id }, humanName(name), optional ? " (optional)" : "");
  let input;
  let read;
  const fixed = ctx.fixed && name in ctx.fixed ? ctx.fixed[name] : undefined;
  const choose = (values, labels) => {
    input = el("select", { id, name });
    if (optional) input.append(el("option", { value: "" }, "—"));
    values.forEach((v, i) => input.append(el("option", { value: JSON.stringify(v) }, labels ? labels[i] : String(v))));
    const dflt = fixed !== undefined ? fixed : s.default;
    if (dflt !== undefined && dflt !== null) input.value = JSON.stringify(dflt);
    read = () => (input.value === "" ? undefined : JSON.parse(input.value));
  };
  const combatantIds = Object.keys(ctx.combatants || {});
  const names = combatantIds.map((c) => ctx.combatants[c].name || c);
  if (Array.isArray(s.enum)) choose(s.enum);
  else if (s.type === "string" && ["combatant", "target", "defender", "attacker", "holder", "pinned"].includes(name) && combatantIds.length) {
    const pool = name === "combatant" && ctx.mine ? ctx.mine : combatantIds;
    choose(pool, pool.map((c) => (ctx.combatants[c] && ctx.combatants[c].name) || c));
  } else if (name === "reaction" && s.type === "string" && ctx.pending && ctx.pending.length) {
    choose(ctx.pending.map((p) => p.id), ctx.pending.map((p) => `${p.kind} (${p.id})`));
  } else if (s.type === "array" && s.items && ctx.resolve(s.items).type === "string" && /^(targets|combatants|order)$/.test(name) && combatantIds.length) {
    input = el("select", { id, name, multiple: true, size: Math.min(6, combatantIds.length) });
    combatantIds.forEach((c, i) => input.append(el("option", { value: c }, names[i])));
    read = () => {
      const v = [...input.selectedOptions].map((o) => o.value);
      return v.length || !optional ? v : undefined;
    };
  } else if (s.type === "boolean") {
    input = el("input", { id, name, type: "checkbox" });
    input.checked = fixed !== undefined ? !!fixed : !!s.default;
    const initial = input.checked;
    read = () => (input.checked === initial && optional ? undefined : input.checked);
  } else if (s.type === "integer" || s.type === "number") {
    input = el("input", { id, name, type: "number", step: s.type === "integer" ? 1 : "any", inputmode: "numeric" });
    if (fixed !== undefined) input.value = fixed;
    else if (s.default !== undefined && s.default !== null) input.placeholder = String(s.default);
    read = () => (input.value === "" ? undefined : Number(input.value));
  } else if (s.type === "string") {
    input = el("input", { id, name, type: "text", autocomplete: "off" });
    if (fixed !== undefined) input.value = fixed;
    else if (s.default) input.placeholder = String(s.default);
    read = () => (input.value === "" ? (optional ? undefined : "") : input.value);
  } else if (!isPosition(s) && name !== "dice" && !(s.type === "array" && s.items && ctx.resolve(s.items).type === "array") && !(ctx.templates && name in ctx.templates) && (s.type === "array" || s.type === "object")) {
    // Lists and maps as rows to add and remove (schema-input.js), never JSON to type: an ask's answers,
    // a ruling's overrides. A path (a list of positions) stays the typed fallback: the map picks paths.
    const f = schemaInput(s, { name, label: `${humanName(name)}${optional ? " (optional)" : ""}`, resolve: ctx.resolve, value: fixed, describe: false });
    const empty = (v) => (Array.isArray(v) ? !v.length : v && typeof v === "object" && !Object.keys(v).length);
    const help = s.description ? el("small", { class: "help" }, s.description.split("\n")[0]) : null;
    return { name, wrap: el("div", { class: `field field-${s.type}` }, f.node, help), read: () => { const v = f.read(); return optional && empty(v) ? undefined : v; } };
  } else {
    // Arrays and objects: JSON, with `q,r` (or `x,y`) accepted for a position.
    const example = ctx.templates && ctx.templates[name];
    input = el("textarea", { id, name, rows: s.type === "object" ? 4 : 1, spellcheck: "false" });
    if (fixed !== undefined) input.value = JSON.stringify(fixed);
    else if (example !== undefined) input.value = JSON.stringify(example, null, 1);
    input.placeholder = isPosition(s) ? "q,r  (or JSON, e.g. [1, 0])" : s.type === "array" ? "JSON list, e.g. [[1, 0]]" : "JSON object";
    read = () => {
      const text = input.value.trim();
      if (!text) return undefined;
      if (isPosition(s) && /^-?\d+\s*,\s*-?\d+$/.test(text)) return text.split(",").map((n) => Number(n));
      try { return JSON.parse(text); } catch { throw new Error(`${humanName(name)}: this is not JSON`); }
    };
  }
  const help = s.description ? el("small", { class: "help" }, s.description.split("\n")[0]) : null;
  const wrap = el("div", { class: `field field-${s.type || "any"}` }, label, input, help);
  return { name, wrap, read };
}

// A form for one command type: `fixed` pre-fills fields (the acting combatant), `onSubmit(body)` sends.
export function commandForm(type, registry, ctx, onSubmit) {
  const schema = registry.byType.get(type);
  const title = ctx.title || type;
  const form = el("form", { class: "command", "data-type": type, "aria-label": title });
  const box = el("fieldset", {}, el("legend", {}, title));
  form.append(box);
  if (!schema) {
    box.append(el("p", {}, `The server publishes no schema for ${type}.`));
    return form;
  }
  if (schema.description) box.append(el("p", { class: "doc" }, schema.description.replace(/\n/g, " ")));
  const required = new Set(schema.required || []);
  const fields = [];
  for (const [name, prop] of Object.entries(schema.properties || {})) {
    if (ENVELOPE_FIELDS.has(name)) continue;
    if (name === "dice" && !ctx.faces) continue;
    if (name === "params" && type === "respond") continue;
    if ((ctx.omit || []).includes(name)) continue;
    const f = field(name, prop, required.has(name), { ...ctx, resolve: registry.resolve });
    if (name === "dice") f.wrap.querySelector("label").textContent = "dice faces you rolled (optional, JSON per roll, e.g. [[3], [2, 5]])";
    else if (ctx.labels && ctx.labels[name]) f.wrap.querySelector("label").textContent = ctx.labels[name];
    fields.push(f);
    box.append(f.wrap);
  }
  const status = el("p", { class: "status", role: "status", "aria-live": "polite" });
  box.append(el("button", { type: "submit" }, ctx.submitLabel || "Send"), status);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { type };
    try {
      for (const f of fields) {
        const v = f.read();
        if (v !== undefined) body[f.name] = v;
      }
    } catch (err) {
      say({ ok: false, text: err.message });
      return;
    }
    status.textContent = "sending…";
    status.className = "status";
    say(await onSubmit(body, form));
  });
  // The answer, in the form and as a `command-result` event (the form may be gone once it is handled).
  function say(msg) {
    status.textContent = msg.text;
    status.className = `status ${msg.ok ? "ok" : "error"}`;
    document.dispatchEvent(new CustomEvent("command-result", { detail: { type, ...msg } }));
  }
  return form;
}
