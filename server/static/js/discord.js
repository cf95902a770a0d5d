// The encounter page's Discord part (issue 31, docs/discord.md): the GM makes a one-time code that binds
// a Discord channel to this encounter (`/tussle bind <code>`), sees the Discord users linked to seats and
// ends a link; a player makes a one-time code that links a Discord user to its seat (`/tussle link
// <code>`), so the seat token itself never travels through Discord.
//
// A module of its own, hooked into view.html by its section (#discord): it reads the token as
// webhooks.js does and talks to the API only.

import { api, el, linkRow, tokenFromFragment } from "./api.js";
import { rememberedToken } from "./device.js";

const match = /^\/encounters\/([^/]+)\/view/.exec(location.pathname);
const stream = match ? decodeURIComponent(match[1]) : null;
const token = tokenFromFragment() || (stream && rememberedToken(stream));
const base = stream ? `/encounters/${encodeURIComponent(stream)}/discord` : null;

const status = el("p", { class: "status", role: "status", "aria-live": "polite" });
const codeBox = el("div", { id: "discord-code" });
const links = el("table", { id: "discord-links", class: "webhooks" });
let me = null;

async function makeCode(kind) {
  status.textContent = "Making a code…";
  try {
    const made = await api("POST", `${base}/codes`, { token, body: kind ? { kind } : {} });
    codeBox.replaceChildren(
      el("p", {}, `Type this in the Discord channel within ${Math.round(made.expires_in_s / 60)} minutes; it works once.`),
      linkRow(made.kind === "bind" ? "Bind the channel" : "Link yourself", made.command));
    status.textContent = "";
  } catch (err) {
    status.textContent = `Code: ${err.message}`;
  }
}

async function refresh() {
  if (me.role !== "gm") return;
  let listed;
  try {
    listed = await api("GET", `${base}/links`, { token });
  } catch (err) {
    status.textContent = `Links: ${err.message}`;
    return;
  }
  links.replaceChildren(
    el("caption", {}, listed.links.length ? "Linked Discord users" : "No Discord user is linked yet."),
    ...listed.links.map((l) => el("tr", {},
      el("td", {}, l.username), el("td", {}, l.role === "gm" ? "the GM" : `seat ${l.seat}`),
      el("td", {}, el("button", { type: "button", onclick: async () => {
        if (!confirm(`End ${l.username}'s link?`)) return;
        try {
          await api("DELETE", `${base}/links/${encodeURIComponent(l.user)}`, { token });
          status.textContent = `${l.username} is unlinked`;
        } catch (err) {
          status.textContent = `Unlink: ${err.message}`;
        }
        await refresh();
      } }, "End link")))));
}

async function start() {
  const section = document.getElementById("discord");
  if (!section || !token || !stream) return;
  try {
    me = await api("GET", `/encounters/${encodeURIComponent(stream)}/me`, { token });
  } catch {
    return;
  }
  if (me.role !== "gm" && me.role !== "player") return;
  const buttons = me.role === "gm"
    ? [el("button", { type: "button", id: "discord-bind", onclick: () => makeCode("bind") }, "Bind a Discord channel"),
       el("button", { type: "button", id: "discord-link", onclick: () => makeCode("link") }, "Link me as the GM")]
    : [el("button", { type: "button", id: "discord-link", onclick: () => makeCode("link") }, "Link my Discord account")];
  document.getElementById("discord-tools").replaceChildren(
    el("p", {}, "Where this server plays on Discord, ", el("code", {}, "/tussle turn"), " shows your figures' offers as buttons in the channel. ",
      me.role === "gm" ? "Bind the channel, then each player links a seat from their own page." : "Link your account to this seat once the GM bound the channel.",
      " A link ends when this seat's token is rotated or revoked."),
    el("p", {}, ...buttons), codeBox, links, status);
  section.hidden = false;
  await refresh();
}

start();
