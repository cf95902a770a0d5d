// Talking to the Tussle server from a page: the token from the URL fragment, JSON calls, fresh ids.
//
// The token lives only in the fragment (#token=...), which a browser never sends: it travels as the
// Authorization header and as the websocket's first message, so no URL the server or a proxy logs holds it.

export function tokenFromFragment() {
  const m = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  return m && m[1] ? decodeURIComponent(m[1]) : null;
}

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `the server answered ${status}`);
    this.status = status;
    this.code = err.code || "error";
    this.details = err.details || {};
  }
}

export async function api(method, path, { token = null, body, accept = "application/json" } = {}) {
  const headers = { Accept: accept };
  if (token) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers, cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(path, init);
  const text = await r.text();
  let data = text;
  if (accept === "application/json") {
    try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  }
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

// Uniform characters from crypto.getRandomValues (bytes past the last whole multiple are redrawn).
export function randomString(length, alphabet = ID_ALPHABET) {
  const limit = 256 - (256 % alphabet.length);
  let out = "";
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < limit && out.length < length) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}

// A command's id and entropy key its dice (DESIGN.md "Dice"): both fresh and random for every command,
// 24 characters (about 143 bits) each, so no one but this browser chose them.
export const newCommandId = () => `web-${randomString(24)}`;
export const newEntropy = () => randomString(24);

// What the page tells a player whose command met a rotated seed (409 commitment_moved): nothing was
// rolled, and the page never sends it again with fresh inputs on its own (docs/verifying.md).
export const COMMITMENT_MOVED = "the dice seed was rotated after you sent this; nothing was rolled";

// Send one command as this browser's: a fresh command_id and entropy, bound to the commitment the
// sender saw (`commitment`: the state's, null in a manual encounter), every answer kept in the sent
// record (`keep(entry)`: receipts.js keepSent) and a 201's receipt by `keepReceipt`.
// `post(path, body)` sends it (default: once; the page passes sending.js's resend-until-answered).
export async function sendCommand(stream, token, body, { commitment = null, seat = null, seen = null, keep = () => {}, keepReceipt = () => {},
  post = (path, full) => api("POST", path, { token, body: full }) } = {}) {
  const full = { ...body, command_id: newCommandId(), entropy: newEntropy() };
  if (typeof commitment === "string") full.expected_commitment = commitment;
  // seen_seq: the head this page had verified, so a change of the seat it never saw shows (tussle verify --sent).
  const entry = { command_id: full.command_id, entropy: full.entropy, type: full.type, seat, expected_commitment: full.expected_commitment ?? null, ...(Number.isInteger(seen) ? { seen_seq: seen } : {}), sent_at: new Date().toISOString() };
  try {
    const r = await post(`/encounters/${encodeURIComponent(stream)}/commands`, full);
    keep({ ...entry, seq: r.seq, hash: r.hash });
    keepReceipt(stream, r);
    return r;
  } catch (err) {
    if (err instanceof ApiError) {
      keep({ ...entry, refused: { status: err.status, code: err.code, message: err.message, details: err.details } });
      if (err.code === "commitment_moved") err.message = `${COMMITMENT_MOVED}.`;
    }
    throw err;
  }
}

export function viewLink(id, token) {
  return `${location.origin}/encounters/${encodeURIComponent(id)}/view${token ? `#token=${encodeURIComponent(token)}` : ""}`;
}

// Build DOM without ever parsing server text as HTML.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// Copy text; where the page has no clipboard (plain http away from localhost) the text stays selected.
export async function copyText(text, fallbackArea) {
  if (fallbackArea) { fallbackArea.value = text; fallbackArea.hidden = false; }
  try {
    await navigator.clipboard.writeText(text);
    return "copied";
  } catch {
    if (fallbackArea) { fallbackArea.focus(); fallbackArea.select(); }
    return "select the text below and copy it";
  }
}

// A link to hand out, with a Copy button.
export function linkRow(label, url) {
  const area = el("textarea", { class: "copy-area", hidden: true, readonly: true, "aria-label": `${label} to copy` });
  const status = el("span", { class: "status", role: "status" });
  return el("div", { class: "link-row" }, el("span", { class: "link-label" }, `${label}: `), el("output", { class: "link" }, url),
    el("button", { type: "button", onclick: async () => { status.textContent = await copyText(url, area); } }, "Copy"), status, area);
}
