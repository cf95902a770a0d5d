// The actions the rules offer (GET /me's `offers`, /work/prompts/offers-shape.md), as buttons titled in
// words: an offer with nothing left to choose is one click; one with choices opens a chooser whose
// options are buttons (a figure, a weapon, a maneuver, a hex), nested choices (`then`) following the
// pick they depend on, numbers and text as boxes. Hexes, figures and points can be picked on the map too:
// `activeChoice()` says what the map should offer for the choice now open.

import { el } from "./api.js";

// The chooser open now: {owner, offer, picks: [{choice, value, title}]}; it outlives the page's redraws.
let open = null;

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The choices still to make, in order: the offer's own, then each picked option's `then`.
function pending(offer, picks) {
  const queue = [...offer.choices];
  const out = [];
  let i = 0;
  while (queue.length) {
    const c = queue.shift();
    if (i < picks.length && picks[i].choice.field === c.field) {
      const opt = (c.options || []).find((o) => same(o.value, picks[i].value));
      if (opt && opt.then) queue.unshift(...opt.then);
      i++;
      continue;
    }
    out.push(c);
  }
  return out;
}

function setDotted(obj, field, value) {
  const parts = field.split(".");
  let o = obj;
  for (const p of parts.slice(0, -1)) o = o[p] = typeof o[p] === "object" && o[p] !== null ? o[p] : {};
  o[parts[parts.length - 1]] = value;
}

// The command an offer and its picks make: the fields, each pick set at its (dotted) field.
export function commandOf(offer, picks = []) {
  const body = { type: offer.type, ...JSON.parse(JSON.stringify(offer.fields || {})) };
  for (const p of picks) setDotted(body, p.choice.field, p.value);
  return body;
}

const titleOf = (offer, picks) => [offer.title, ...picks.map((p) => p.title)].join(" — ");

// What the map should offer now: {kind, options, region, pick(value, title)} of the first open choice.
export function activeChoice() {
  if (!open) return null;
  const next = pending(open.offer, open.picks)[0];
  if (!next) return null;
  return { ...next, owner: open.owner, pick: (value, title) => pickValue(next, value, title) };
}

let redraw = () => {};

function pickValue(choice, value, title) {
  if (!open) return;
  open.picks.push({ choice, value, title });
  redraw();
}

export function closeChooser() {
  open = null;
  redraw();
}

// Open the first offer of `owner` whose first choice is of `kind` (a figure clicked on the map: its move).
export function openFirst(owner, offers, kinds) {
  const offer = (offers || []).find((o) => o.choices.length && kinds.includes(o.choices[0].kind));
  if (!offer) return false;
  open = { owner, offer, picks: [] };
  redraw();
  return true;
}

function optionButton(choice, opt) {
  return el("button", { type: "button", class: "choice", "data-value": JSON.stringify(opt.value),
    onclick: () => pickValue(choice, opt.value, opt.title) }, opt.title);
}

function freeInput(choice) {
  const id = `choice-${choice.field.replace(/\W/g, "_")}`;
  const number = choice.kind === "number";
  const input = el("input", { id, type: number ? "number" : "text", autocomplete: "off" });
  const ok = el("button", { type: "button", onclick: () => {
    if (input.value === "" && choice.required) { input.focus(); return; }
    const v = number ? Number(input.value) : input.value;
    pickValue(choice, v, `${choice.title}: ${input.value}`);
  } }, "Choose");
  return el("div", { class: "field" }, el("label", { for: id }, choice.title), el("div", { class: "row" }, input, ok));
}

function chooser(send) {
  const { offer, picks } = open;
  const left = pending(offer, picks);
  const next = left[0];
  const parts = [el("p", { class: "chosen" }, el("strong", {}, titleOf(offer, picks)))];
  if (next) {
    const typed = !(next.options || []).length && next.kind !== "point";
    // A typed value's box carries the title as its label: said once, not twice.
    if (!typed) parts.push(el("p", { class: "choice-title" }, next.title, next.kind === "hex" || next.kind === "point" || next.kind === "combatant" ? " (or click it on the map)" : ""));
    if ((next.options || []).length) parts.push(el("div", { class: "choices", role: "group", "aria-label": next.title }, next.options.map((o) => optionButton(next, o))));
    else if (next.kind === "point") parts.push(el("p", { class: "help" }, "Click a point of the highlighted area on the map."));
    else parts.push(freeInput(next));
    if (!next.required) parts.push(el("button", { type: "button", class: "small", onclick: () => pickValue(next, null, `no ${next.title.toLowerCase()}`) }, "Skip"));
  }
  const status = el("span", { class: "status", role: "status" });
  if (!next) {
    parts.push(el("button", { type: "button", class: "send-offer", onclick: async (ev) => {
      ev.currentTarget.disabled = true;
      const msg = await send(commandOf(offer, picks.filter((p) => p.value !== null)), titleOf(offer, picks));
      status.textContent = msg.text;
      status.className = `status ${msg.ok ? "ok" : "error"}`;
      if (msg.ok) open = null;
    } }, `Send: ${titleOf(offer, picks)}`));
  }
  parts.push(" ", el("button", { type: "button", class: "small", onclick: closeChooser }, "Cancel"), status);
  return el("div", { class: "chooser card", role: "group", "aria-label": `Choosing: ${offer.title}` }, parts);
}

/**
 * The offers of one owner (a combatant id, or "gm") as buttons; `send(body, title)` sends one and
 * resolves to {ok, text}; `onChange()` redraws the page when a chooser opens or a pick is made.
 */
export function offersList(owner, offers, send, onChange) {
  redraw = onChange;
  if (open && open.owner === owner && !offers.some((o) => o.id === open.offer.id)) open = null; // offered no more
  return el("div", { class: "offers", "data-owner": owner }, offers.map((offer) => {
    if (open && open.owner === owner && open.offer.id === offer.id) return chooser(send);
    const ready = !offer.choices.length;
    return el("button", { type: "button", class: `offer${ready ? " ready" : ""}`, "data-offer": offer.id, onclick: async (ev) => {
      if (!ready) { open = { owner, offer, picks: [] }; redraw(); return; }
      ev.currentTarget.disabled = true;
      await send(commandOf(offer), offer.title);
    } }, ready ? offer.title : `${offer.title}…`);
  }));
}
