// The encounter page's notifications part (issue 28 item 3): the GM lists the encounter's webhooks with
// their health, adds one, sends a test, rotates a secret (shown once, with a Copy button), retries or
// re-enables one, and removes one; a player does the same for its own seat's notices.
//
// A module of its own, hooked into view.html by its section (#webhooks): it reads the token from the
// fragment as view.js does and talks to the API only (docs/notifications.md).

import { ApiError, api, el, linkRow, newCommandId, tokenFromFragment } from "./api.js";
import { rememberedToken } from "./device.js";
import { keepSent, updateSent } from "./receipts.js";

const match = /^\/encounters\/([^/]+)\/view/.exec(location.pathname);
const stream = match ? decodeURIComponent(match[1]) : null;
const token = tokenFromFragment() || (stream && rememberedToken(stream));
const base = stream ? `/encounters/${encodeURIComponent(stream)}/webhooks` : null;
const DELIVER = [["notices", "Notices (your turn, asked, timed out, closed)"], ["log", "The log"], ["events", "Every event (JSON)"]];

let me = null;
let seats = {};

const root = () => document.getElementById("webhooks-tools");
const status = el("p", { class: "status", role: "status", "aria-live": "polite" });
const secretBox = el("div", { class: "secret" });

function when(iso) {
  return iso ? iso.replace("T", " ").replace(/\.\d+Z$/, " UTC") : "";
}

function health(w) {
  if (w.status !== "active") return w.status === "disabled" ? `disabled: ${w.last_error || "failed too long"}` : w.status;
  if (w.failing_since) return `failing since ${when(w.failing_since)}: ${w.last_error || ""}; next try ${when(w.next_try)}`;
  return "healthy";
}

function showSecret(label, secret) {
  secretBox.replaceChildren(
    el("p", {}, "Shown this once: copy it into your receiver now (it checks the signatures with it)."),
    linkRow(label, secret));
}

// A webhook operation the stream records in this seat's name (WebhookDeleted, WebhookSecretRotated,
// WebhookEnabled): sent with an id of the page's own, kept in the sent record before it goes (a refusal
// recorded as one), as addForm does for the creation, so the page's own check finds it among its records.
async function recorded(type, method, path, opts = {}) {
  const id = newCommandId();
  const url = method === "DELETE" ? `${path}?command_id=${encodeURIComponent(id)}` : path;
  keepSent(stream, { command_id: id, type, seat: me.seat ?? null, sent_at: new Date().toISOString() });
  try {
    return await api(method, url, method === "DELETE" ? { token } : { token, body: { command_id: id }, ...opts });
  } catch (err) {
    if (err instanceof ApiError) updateSent(stream, id, { refused: { status: err.status, code: err.code, message: err.message, details: err.details } });
    throw err;
  }
}

async function act(what, fn) {
  status.textContent = `${what}…`;
  try {
    status.textContent = (await fn()) || `${what}: done`;
  } catch (err) {
    status.textContent = `${what}: ${err.message}`;
  }
  await refresh();
}

function row(w) {
  const forWhom = w.seat ? (seats[w.seat] ? seats[w.seat].name : w.seat) : "everyone";
  const buttons = [
    el("button", { type: "button", onclick: () => act("Test", async () => {
      const r = await api("POST", `${base}/${encodeURIComponent(w.id)}/test`, { token });
      return `Test sent (delivery ${r.delivery}): see it arrive, then its status below`;
    }) }, "Send a test"),
    el("button", { type: "button", onclick: () => act("New secret", async () => {
      const r = await recorded("rotate_webhook_secret", "POST", `${base}/${encodeURIComponent(w.id)}/secret`);
      showSecret(`New signing secret for ${w.host}`, r.secret);
      return "New secret made: the old one no longer signs";
    }) }, "New secret"),
    el("button", { type: "button", onclick: () => act("Remove", async () => {
      await recorded("delete_webhook", "DELETE", `${base}/${encodeURIComponent(w.id)}`);
      return `Webhook to ${w.host} removed`;
    }) }, "Remove"),
  ];
  if (me.role === "gm" && (w.status === "disabled" || w.failing_since)) {
    buttons.splice(1, 0, el("button", { type: "button", onclick: () => act("Retry", async () => {
      const r = await recorded("redeliver_webhook", "POST", `${base}/${encodeURIComponent(w.id)}/redeliver`);
      return `${r.enabled ? "Re-enabled; " : ""}${r.redelivering} deliveries sent again`;
    }) }, w.status === "disabled" ? "Re-enable and retry" : "Retry now"));
  }
  // Each cell names its column (data-label): on a phone the rows are cards, the header row hidden.
  return el("tr", { "data-webhook": w.id },
    el("td", { "data-label": "Host" }, w.host || ""), el("td", { "data-label": "Format" }, w.format),
    el("td", { "data-label": "Delivers" }, w.deliver.join(", ")), el("td", { "data-label": "For" }, forWhom),
    el("td", { class: "health", "data-label": "Health" }, health(w)), el("td", { class: "actions" }, ...buttons));
}

async function refresh() {
  const list = (await api("GET", base, { token })).webhooks;
  const table = document.getElementById("webhooks-list");
  table.replaceChildren(
    el("caption", {}, list.length ? "Webhooks of this encounter" : "No webhooks yet"),
    el("tr", { class: "head" }, ...["Host", "Format", "Delivers", "For", "Health", "Actions"].map((h) => el("th", { scope: "col" }, h))),
    ...list.map(row));
}

function addForm() {
  const url = el("input", { id: "webhook-url", type: "url", required: true, placeholder: "https://discord.com/api/webhooks/…", size: 50 });
  const format = el("select", { id: "webhook-format" },
    el("option", { value: "discord" }, "Discord (Markdown messages)"), el("option", { value: "json" }, "JSON (signed, for bots)"));
  const avatar = el("input", { id: "webhook-avatar", type: "url", placeholder: "https://… (optional)", size: 40 });
  const parts = [el("p", {}, el("label", { for: "webhook-url" }, "Webhook URL "), url),
    el("p", {}, el("label", { for: "webhook-format" }, "Format "), format),
    el("p", {}, el("label", { for: "webhook-avatar" }, "Avatar on Discord (an https image) "), avatar)];
  const boxes = [];
  let seat = null;
  if (me.role === "gm") {
    const set = el("fieldset", {}, el("legend", {}, "What it delivers"));
    for (const [value, label] of DELIVER) {
      const box = el("input", { type: "checkbox", id: `webhook-deliver-${value}`, value, checked: value !== "events" });
      boxes.push(box);
      set.append(el("label", { for: box.id }, box, ` ${label}`), " ");
    }
    const seatOptions = () => [el("option", { value: "" }, "everyone (each notice says whose)"),
      ...Object.values(seats).filter((s) => !s.revoked).map((s) => el("option", { value: s.seat }, `${s.name}'s notices only`))];
    seat = el("select", { id: "webhook-seat" }, ...seatOptions());
    // A seat made (or revoked) after the page loaded is listed (or dropped) as the page's state moves.
    document.addEventListener("state-changed", (ev) => {
      seats = ev.detail.seats || {};
      const chosen = seat.value;
      seat.replaceChildren(...seatOptions());
      seat.value = [...seat.options].some((o) => o.value === chosen) ? chosen : "";
    });
    parts.push(set, el("p", {}, el("label", { for: "webhook-seat" }, "For "), seat));
  } else {
    parts.push(el("p", {}, "It gets your seat's notices: it is your turn, you are asked, a reaction timed out, the fight closed."));
  }
  const form = el("form", { id: "webhook-add" }, ...parts, el("button", { type: "submit" }, "Add webhook"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    act("Add", async () => {
      const body = { url: url.value.trim(), format: format.value };
      if (avatar.value.trim()) body.avatar_url = avatar.value.trim();
      if (me.role === "gm") {
        body.deliver = boxes.filter((b) => b.checked).map((b) => b.value);
        if (seat.value) body.seat = seat.value;
      }
      // A command of this seat's (WebhookCreated, in its name): sent with an id of the page's own and kept
      // in the sent record before it goes, as every command the page sends is, or the page's own check
      // (every command in the seat's name held by its records) would call the seat's new webhook forged.
      body.command_id = newCommandId();
      keepSent(stream, { command_id: body.command_id, type: "create_webhook", seat: me.seat ?? null, sent_at: new Date().toISOString() });
      let made;
      try {
        made = await api("POST", base, { token, body });
      } catch (err) {
        if (err instanceof ApiError) updateSent(stream, body.command_id, { refused: { status: err.status, code: err.code, message: err.message, details: err.details } });
        throw err;
      }
      showSecret(`Signing secret for ${made.host}`, made.secret);
      url.value = "";
      return `Webhook to ${made.host} added`;
    });
  });
  return form;
}

async function start() {
  const section = document.getElementById("webhooks");
  if (!section || !token || !stream) return;
  try {
    me = await api("GET", `/encounters/${encodeURIComponent(stream)}/me`, { token });
  } catch {
    return; // the page itself says what is wrong with the link
  }
  if (me.role !== "gm" && me.role !== "player") return;
  seats = (await api("GET", `/encounters/${encodeURIComponent(stream)}/state`, { token })).seats || {};
  root().replaceChildren(
    el("p", {}, "Tussle tells a Discord channel, a bot or a forum script what happens, with signed webhooks: ",
      me.role === "gm" ? "the log, the events, and everyone's notices." : "here, your seat's notices.",
      " How they work, and a receiver in 15 lines: ",
      el("a", { id: "webhooks-guide", href: "/docs/notifications.md", target: "_blank", rel: "noopener" }, "docs/notifications.md"), "."),
    el("table", { id: "webhooks-list", class: "webhooks" }), secretBox, addForm(), status);
  section.hidden = false;
  await refresh();
}

start();
