// Structured inputs from a JSON Schema: a select for an enum, a checkbox for a boolean, a number box,
// a text box, a fieldset per object (its properties, or key/value rows for a map), rows with add and
// remove for a list (of scalars, of lists, of structs). One builder for every ruleset's options and for
// the GM's stats forms, so no value the server wants as an object or a list is ever typed as a string.

import { el } from "./api.js";

let uid = 0;

// `$ref`s into the components of /openapi.json, followed to the schema they name.
export function resolverOf(openapi) {
  const schemas = (openapi && openapi.components && openapi.components.schemas) || {};
  return (s) => {
    let out = s;
    for (let i = 0; out && out.$ref && i < 10; i++) out = schemas[out.$ref.split("/").pop()];
    return out || {};
  };
}

export const humanName = (name) => String(name).replace(/_/g, " ");

const firstLine = (text) => (text ? String(text).split("\n")[0] : "");

// `anyOf: [X, {type: null}]` is X that may be left unset; `anyOf: [integer, string]` is a scalar that
// is read as a number when it looks like one (rogue-trader's wound chart: 2-6 or "N").
function unwrap(schema, resolve) {
  let s = resolve(schema || {});
  let nullable = false;
  if (Array.isArray(s.anyOf)) {
    const alts = s.anyOf.map(resolve);
    const rest = alts.filter((a) => a.type !== "null");
    nullable = rest.length < alts.length;
    if (rest.length === 1) s = { ...rest[0], description: s.description ?? rest[0].description, default: s.default };
    else if (rest.every((a) => ["integer", "number", "string"].includes(a.type))) s = { type: "scalar", description: s.description, default: s.default };
  }
  return { s, nullable };
}

function scalarDefault(s) {
  if (s.default !== undefined && s.default !== null) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.type === "boolean") return false;
  if (s.type === "integer" || s.type === "number") return 0;
  if (s.type === "array") return [];
  if (s.type === "object") return {};
  return "";
}

// An empty value for a new row of this schema (a struct gets its required fields' defaults).
function blank(schema, resolve) {
  const { s } = unwrap(schema, resolve);
  if (s.type === "object" && s.properties) {
    const out = {};
    for (const [k, p] of Object.entries(s.properties)) {
      const inner = unwrap(p, resolve);
      if ((s.required || []).includes(k)) out[k] = blank(p, resolve);
      else if (inner.s.default !== undefined) out[k] = inner.s.default;
    }
    return out;
  }
  return scalarDefault(s);
}

/**
 * An input for `schema`, filled with `value` (else the schema's default).
 * Returns {node, read, focus}: `read()` gives the value the schema wants (throws with a sentence when a
 * box holds what it cannot be); `node` is the whole labelled control.
 * opts: {name, label, resolve, value, required, describe (bool), compact (no label: a cell of a row)}.
 */
export function schemaInput(schema, opts = {}) {
  const resolve = opts.resolve || ((x) => x || {});
  const { s, nullable } = unwrap(schema, resolve);
  const name = opts.name || "value";
  const id = `si${++uid}-${String(name).replace(/[^\w-]/g, "_")}`;
  const label = opts.label ?? humanName(name);
  const value = opts.value !== undefined ? opts.value : s.default;
  const describe = opts.describe !== false ? firstLine(s.description) : "";
  const help = describe ? el("small", { class: "help", id: `${id}-help` }, describe) : null;
  const describedBy = help ? `${id}-help` : null;

  // A value that may be null and whose structure is a list or object: a checkbox says whether it is set.
  if (nullable && (s.type === "array" || s.type === "object")) {
    const inner = schemaInput(s, { ...opts, value: value ?? blank(s, resolve), describe: false, label, name });
    const toggle = el("input", { type: "checkbox", id: `${id}-set`, "aria-describedby": describedBy });
    toggle.checked = value !== null && value !== undefined;
    inner.node.hidden = !toggle.checked;
    toggle.addEventListener("change", () => { inner.node.hidden = !toggle.checked; });
    const node = el("div", { class: "field field-nullable", "data-option": name },
      el("div", { class: "field-boolean" }, toggle, el("label", { for: `${id}-set` }, `Set ${label}`)), help, inner.node);
    return { node, read: () => (toggle.checked ? inner.read() : null), focus: () => toggle.focus() };
  }

  const wrapField = (input, cls, read) => {
    const lab = opts.compact ? null : el("label", { for: id }, label, opts.required ? " (required)" : "");
    if (opts.compact) input.setAttribute("aria-label", label);
    if (describedBy) input.setAttribute("aria-describedby", describedBy);
    const node = el("div", { class: `field ${cls}`, "data-option": name }, lab, input, opts.compact ? null : help);
    return { node, read, focus: () => input.focus() };
  };

  if (Array.isArray(s.enum)) {
    const input = el("select", { id, name });
    if (nullable) input.append(el("option", { value: "null" }, "—"));
    for (const v of s.enum) input.append(el("option", { value: JSON.stringify(v) }, humanName(v)));
    input.value = JSON.stringify(value ?? (nullable ? null : s.enum[0]));
    return wrapField(input, "field-enum", () => JSON.parse(input.value));
  }
  if (s.type === "boolean") {
    const input = el("input", { id, name, type: "checkbox" });
    input.checked = !!value;
    const w = wrapField(input, "field-boolean", () => input.checked);
    if (!opts.compact) w.node.replaceChildren(input, w.node.querySelector("label"), ...(help ? [help] : []));
    return w;
  }
  if (s.type === "integer" || s.type === "number") {
    const input = el("input", { id, name, type: "number", step: s.type === "integer" ? 1 : "any", inputmode: s.type === "integer" ? "numeric" : "decimal",
      min: s.minimum ?? null, max: s.maximum ?? null });
    if (value !== null && value !== undefined) input.value = String(value);
    if (nullable) input.placeholder = "none";
    return wrapField(input, "field-number", () => {
      if (input.value === "") {
        if (nullable) return null;
        throw new Error(`${label}: give a number`);
      }
      const n = Number(input.value);
      if (!Number.isFinite(n) || (s.type === "integer" && !Number.isInteger(n))) throw new Error(`${label}: ${input.value} is not ${s.type === "integer" ? "a whole number" : "a number"}`);
      return n;
    });
  }
  if (s.type === "string" || s.type === "scalar" || !s.type) {
    if (!s.type && (s.properties || s.items)) return schemaInput({ ...s, type: s.properties ? "object" : "array" }, opts);
    const input = el("input", { id, name, type: "text", autocomplete: "off", size: opts.compact ? 4 : null });
    if (value !== null && value !== undefined) input.value = String(value);
    return wrapField(input, "field-text", () => {
      const t = input.value;
      if (s.type === "scalar" && /^-?\d+$/.test(t.trim())) return Number(t.trim());
      if (t === "" && nullable) return null;
      return t;
    });
  }
  if (s.type === "object" && s.properties) return structInput(s, { ...opts, id, label, value, help, resolve, name });
  if (s.type === "object") return mapInput(s, { ...opts, id, label, value, help, resolve, name });
  if (s.type === "array") return listInput(s, { ...opts, id, label, value, help, resolve, name });
  throw new Error(`no input for a schema of type ${s.type}`);
}

function structInput(s, o) {
  const required = new Set(s.required || []);
  const value = o.value || {};
  const parts = Object.entries(s.properties).map(([k, p]) => [k, schemaInput(p, { resolve: o.resolve, name: k, value: value[k], required: required.has(k), describe: !o.compact })]);
  const node = el("fieldset", { class: "struct", "data-option": o.name }, el("legend", {}, o.label), o.help, parts.map(([, f]) => f.node));
  return {
    node,
    read: () => {
      const out = {};
      for (const [k, f] of parts) {
        const v = f.read();
        if ((v === null || v === "") && !required.has(k)) continue; // unset (a box left blank): the server's default
        out[k] = v;
      }
      return out;
    },
    focus: () => parts.length && parts[0][1].focus(),
  };
}

// A map (`additionalProperties`): a row per key with its value, and a row to add a key.
function mapInput(s, o) {
  const valueSchema = s.additionalProperties && s.additionalProperties !== true ? s.additionalProperties : { type: "string" };
  const rows = el("div", { class: "rows" });
  const entries = [];
  const add = (k, v) => {
    const keyBox = el("input", { type: "text", autocomplete: "off", "aria-label": `${o.label}: key`, value: k, size: 14 });
    const val = schemaInput(valueSchema, { resolve: o.resolve, name: `${o.name}.${k || "new"}`, label: `${o.label}: value`, value: v, compact: true, describe: false });
    const entry = { keyBox, val };
    const row = el("div", { class: "row map-row" }, keyBox, val.node,
      el("button", { type: "button", class: "small", "aria-label": `Remove this key from ${o.label}`, onclick: () => { row.remove(); entries.splice(entries.indexOf(entry), 1); } }, "Remove"));
    entries.push(entry);
    rows.append(row);
    return entry;
  };
  for (const [k, v] of Object.entries(o.value || {})) add(k, v);
  const node = el("fieldset", { class: "map", "data-option": o.name }, el("legend", {}, o.label), o.help, rows,
    el("button", { type: "button", class: "small add", onclick: () => add("", blank(valueSchema, o.resolve)).keyBox.focus() }, `Add to ${o.label}`));
  return {
    node,
    read: () => {
      const out = {};
      for (const { keyBox, val } of entries) {
        const k = keyBox.value.trim();
        if (!k) throw new Error(`${o.label}: a row has no key`);
        if (k in out) throw new Error(`${o.label}: the key ${k} is there twice`);
        out[k] = val.read();
      }
      return out;
    },
    focus: () => (entries.length ? entries[0].keyBox.focus() : null),
  };
}

// A list: one row per item (a struct, a nested list or a scalar), each removable, and an Add button.
function listInput(s, o) {
  const itemSchema = s.items || { type: "string" };
  const rows = el(o.compact ? "span" : "div", { class: "rows" });
  const items = [];
  const inner = unwrap(itemSchema, o.resolve).s;
  const scalarItems = !["object", "array"].includes(inner.type);
  const add = (v) => {
    const n = items.length + 1;
    const f = schemaInput(itemSchema, { resolve: o.resolve, name: `${o.name}.${n}`, label: `${o.label} ${n}`, value: v, compact: scalarItems, describe: false });
    const entry = { f };
    const row = el(scalarItems ? "span" : "div", { class: `row list-row${scalarItems ? " inline" : ""}` }, f.node,
      el("button", { type: "button", class: "small", "aria-label": `Remove ${o.label} ${n}`, onclick: () => { row.remove(); items.splice(items.indexOf(entry), 1); } }, scalarItems ? "×" : "Remove"));
    items.push(entry);
    rows.append(row);
    return f;
  };
  for (const v of o.value || []) add(v);
  const addButton = el("button", { type: "button", class: "small add", onclick: () => add(blank(itemSchema, o.resolve)).focus() }, scalarItems ? "+" : `Add to ${o.label}`);
  addButton.setAttribute("aria-label", `Add to ${o.label}`);
  const node = el("fieldset", { class: `list${scalarItems ? " list-scalars" : ""}`, "data-option": o.name }, el("legend", {}, o.label), o.help, rows, addButton);
  return { node, read: () => items.map(({ f }) => f.read()), focus: () => (items.length ? items[0].f.focus() : addButton.focus()) };
}
