// The encounter page, one for everyone: the token in the fragment says whether you watch, play a
// seat, or run the fight. Events arrive on the websocket and are verified here as they come; state and
// log are the server's projections (GET /state, GET /log), as of the head or of any seq (?at=).

import { api, el, newCommandId, sendCommand, tokenFromFragment, viewLink, copyText, linkRow } from "./api.js";
import { Chain, auditHidden, auditRolls, badgeText, report, shownFaces, verifyExport, keptProblems, VERIFIED, FAILED, NOT_YET_REVEALED, HIDDEN } from "./verify.js";
import { commandSchemas, commandForm } from "./forms.js";
import { mapPanel } from "./map.js";
import { activeChoice, offersList, openFirst } from "./offers.js";
import { combatantForm } from "./combatant-form.js";
import { confirmInline, deadlineEl, refreshDeadlines, turnSection, whenText } from "./layout.js";
import { receipts, keepReceipt, keepSent, sentRecord } from "./receipts.js";
import { postUntilAnswered } from "./sending.js";
import { forgetToken, onceLink, rememberToken, rememberedToken } from "./device.js";
import { positionText } from "./units.js";

const stream = decodeURIComponent(location.pathname.split("/")[2] || "");
const fragmentToken = tokenFromFragment();
let token = fragmentToken || rememberedToken(stream);
const $ = (id) => document.getElementById(id);

const page = {
  info: null, me: null, registry: null, state: null, log: null,
  chain: new Chain(), rollCache: new Map(), caughtUp: false, closed: false,
  viewAt: null, ws: null, wsDelay: 500, formsKey: null,
  hiddenFaces: new Map(), // the GM's: seq of a hidden roll -> {faces, total}, from GET /hidden-rolls
  keys: null, // the server's public receipt keys (GET /keys), for the signed receipts kept here
};

const GM_COMMANDS = ["start_turn", "start_phase", "set_initiative", "add_combatant", "remove_combatant",
  "set_standing_orders", "roll", "note", "ask", "ruling", "void", "rotate_seed", "set_options", "close"];
const PLAYER_COMMANDS = ["roll", "note", "rotate_seed"];
const GM_TABLE = ["roll", "note", "ask", "ruling"];
const GM_TABLE_TITLES = { roll: "Roll dice", note: "Write a note in the log", ask: "Ask a player (a question with answers)", ruling: "Make a ruling" };
const PLAYER_TITLES = { roll: "Roll dice", note: "Write a note in the log", rotate_seed: "Ask for a new dice seed (the current one is revealed)" };
const COMBATANT_TEMPLATE = { id: "", name: "", side: "", position: [0, 0], facing: 0, stats: {}, items: [] };

function fatal(message) {
  $("fatal").textContent = message;
  $("fatal").hidden = false;
}

function setConnection(text, cls) {
  const c = $("connection");
  c.textContent = text;
  c.className = `connection ${cls}`;
}

// How positions are measured here (GET /encounters/{id}'s `geometry`, also in the state).
function geometryOf(s) {
  return (s && s.geometry) || (page.info && page.info.geometry) || { kind: "hex_axial", unit: "hex" };
}

function nameOf(cid) {
  const c = page.state && page.state.combatants && page.state.combatants[cid];
  return (c && c.name) || cid;
}

// A player's "You are": "Alice (player, seat-1)", not "player (Alice (seat-1))".
function playerText(seatId) {
  const seat = page.state && page.state.seats && page.state.seats[seatId];
  return seat ? `${seat.name} (player, ${seatId})` : `player (${seatId})`;
}

function askedOfText(who) {
  if (who === "gm") return "the GM";
  const seat = page.state && page.state.seats && page.state.seats[who];
  return seat ? `${seat.name} (${who})` : who;
}

// ---- receipts: every 201's signed receipt, kept in this browser and checked against the stream ----

// What this browser kept (receipts, with their signatures, and its sent record), checked as
// `tussle verify --receipts --sent --keys` checks them. Past the end counts once the page has caught up:
// before, the events may still be on their way.
function receiptProblems() {
  return keptProblems(page.chain.events, { receipts: receipts(stream), sent: sentRecord(stream), keys: page.keys || [], complete: page.caughtUp });
}

// ---- the websocket: catch up from the last verified seq, then live; no gap, no duplicate ----

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/encounters/${encodeURIComponent(stream)}/ws`);
  page.ws = ws;
  page.caughtUp = false;
  ws.addEventListener("open", () => {
    if (token) ws.send(JSON.stringify({ op: "auth", token }));
    ws.send(JSON.stringify({ op: "subscribe", projection: "events", after: page.chain.head.seq }));
  });
  ws.addEventListener("message", (m) => {
    let msg;
    try { msg = JSON.parse(m.data); } catch { return; }
    if (msg.type === "event") onEvent(msg.event, ws);
    else if (msg.type === "caught_up") {
      page.caughtUp = true;
      page.wsDelay = 500;
      if (msg.hash !== page.chain.head.hash || msg.seq !== page.chain.head.seq) {
        page.chain.problem("chain", msg.seq, `the server's head is seq ${msg.seq} hash ${msg.hash}, the events here end at seq ${page.chain.head.seq}`);
      }
      setConnection(page.closed ? "closed" : "live", page.closed ? "closed" : "live");
      renderChain(); // the verdict needs no state: shown even when the server cannot fold this stream
      scheduleRefresh();
    } else if (msg.type === "error") {
      setConnection(`error: ${msg.message}`, "error");
    }
  });
  ws.addEventListener("close", () => {
    if (page.ws !== ws) return;
    page.ws = null;
    if (page.closed) { setConnection("closed", "closed"); return; }
    setConnection("reconnecting…", "reconnecting");
    setTimeout(connect, page.wsDelay);
    page.wsDelay = Math.min(page.wsDelay * 2, 5000);
  });
}

function onEvent(e, ws) {
  const last = page.chain.head.seq;
  if (e.seq <= last) return; // already have it (and verified it): never shown twice
  // A gap live may be frames lost on the way: start again from what we have. A gap while catching up is
  // the store's own (catch-up reads it in seq order), so it is the stream's: the chain names it FAILED at
  // the missing seq, where reconnecting would only be sent the same gap again, for ever.
  if (e.seq !== last + 1 && page.caughtUp) {
    ws.close();
    return;
  }
  page.chain.push(e); // checks seq, prev_hash and the hash itself
  if (e.type === "EncounterClosed") page.closed = true;
  if (page.caughtUp) scheduleRefresh();
}

// ---- refresh: state and log as of the head (or ?at=), coalesced ----

let refreshing = false, again = false;

async function scheduleRefresh() {
  if (refreshing) { again = true; return; }
  refreshing = true;
  try {
    do {
      again = false;
      await refresh();
    } while (again);
  } finally {
    refreshing = false;
  }
}

async function refresh() {
  const q = page.viewAt ? `?at=${page.viewAt}` : "";
  const base = `/encounters/${encodeURIComponent(stream)}`;
  try {
    const [state, log, me] = await Promise.all([
      api("GET", `${base}/state${q}`, { token }), api("GET", `${base}/log${q}`, { token }),
      token && !page.viewAt ? api("GET", `${base}/me`, { token }) : Promise.resolve(page.me),
    ]);
    page.state = state;
    page.log = log;
    page.me = me;
    await fetchHiddenFaces(base);
    // For the page's other panels (webhooks.js lists the seats a webhook may be for).
    if (!page.viewAt) document.dispatchEvent(new CustomEvent("state-changed", { detail: state }));
  } catch (err) {
    fatal(err.message);
    renderChain();
    return;
  }
  render();
}

// The GM reads the faces of the rolls behind the screen (GET /hidden-rolls is the GM's only); nobody
// else's page ever asks, so the faces reach no other browser before they are revealed.
async function fetchHiddenFaces(base) {
  if (!page.me || page.me.role !== "gm") return;
  const events = page.chain.events;
  const revealed = new Set(events.filter((e) => e.type === "HiddenRollRevealed").map((e) => e.data.seq));
  const unknown = events.some((e) => e.type === "HiddenRollMade" && !revealed.has(e.seq) && !page.hiddenFaces.has(e.seq));
  if (!unknown) return;
  try {
    for (const r of (await api("GET", `${base}/hidden-rolls`, { token })).hidden_rolls || []) page.hiddenFaces.set(r.seq, r);
  } catch { /* shown as "hidden — committed" until the next refresh */ }
}

// ---- rendering ----

function render() {
  const s = page.state;
  document.title = `${s.name} — Tussle`;
  $("title").textContent = s.name;
  renderSummary(s);
  renderChain();
  renderTime();
  renderPending(s);
  renderMap(s);
  renderCombatants(s);
  renderLog();
  renderBanner(s);
  if (!page.viewAt) renderPlay(s);
  $("play").hidden = !!page.viewAt || !$("actions").childElementCount;
  $("gm").hidden = !!page.viewAt || !page.me || page.me.role !== "gm" || s.closed;
}

// Who acts now, from the ruleset (GET /state's `acting_now`); null from a server that does not say.
function actingNow(s) {
  return Array.isArray(s.acting_now) ? s.acting_now : null;
}

function untilText(u) {
  if (!u) return "";
  if (typeof u !== "object") return String(u);
  return `${u.text || u.kind || ""}${u.deadline ? ` (deadline ${whenText(u.deadline)})` : ""}`;
}

// When a reaction must be answered by: the server's deadline, where `reaction_timeout_s` sets one.
function deadlineOf(s, reactionId) {
  const entry = (s.acting_now || []).find((a) => a.reaction === reactionId);
  const mine = ((page.me && page.me.reactions) || []).find((r) => r.id === reactionId);
  return (mine && mine.deadline) || (entry && entry.until && entry.until.deadline) || null;
}

// The rulesets' sentences name the command that does it, for API users: "(start_turn)", "(start_phase
// movement)", "(gurps.choose_maneuver, which ends Ana's)". The page says it in words and offers the button.
const COMMAND_NAME = String.raw`(?:[a-z][a-z-]*\.[a-z_]+|[a-z]+_[a-z_]+)(?: [a-z_]+)?`;
function withoutCommandNames(text) {
  return text.replace(new RegExp(String.raw`\s*\(${COMMAND_NAME}\)`, "g"), "").replace(new RegExp(String.raw`\(${COMMAND_NAME}, `, "g"), "(");
}

function actingText(a) {
  const who = a.combatant ? nameOf(a.combatant) : askedOfText(a.asked_of || "gm");
  // The ruleset's `why` names the figure already ("Simeth may move: ..."); else say who.
  const why = a.why ? (a.why.startsWith(who) ? a.why : `${who}: ${a.why}`) : who;
  return withoutCommandNames(`${why}${a.until ? ` — ${untilText(a.until)}` : ""}`);
}

function renderSummary(s) {
  const acting = actingNow(s);
  let whose;
  if (acting && acting.length) whose = acting.map(actingText).join("; ");
  else if (acting) whose = "nobody right now";
  else whose = (s.initiative || []).length ? `order: ${s.initiative.map(nameOf).join(", ")}` : "—";
  const role = page.me ? (page.me.role === "player" ? playerText(page.me.seat) : page.me.role) : "observer";
  const rows = [
    ["Ruleset", `${s.ruleset} ${s.ruleset_version || ""}`], ["Dice", s.dice],
    ["Turn", s.turn ?? "—"], ["Phase", s.phase ? String(s.phase).replace(/_/g, " ") : "—"],
    ["You are", role], ["Status", s.closed ? "closed" : "open"],
  ];
  $("summary").replaceChildren(el("dl", { class: "facts" }, rows.map(([k, v]) => [el("dt", {}, k), el("dd", { "data-fact": k.toLowerCase().replace(/ /g, "-") }, String(v))])),
    el("p", { class: "whose", "data-fact": "whose-turn" }, el("strong", {}, "Whose turn: "), whose));
}

function rollMarks() {
  const marks = new Map();
  for (const r of auditRolls(page.chain.events, page.rollCache)) marks.set(r.seq, r);
  return marks;
}

function renderChain() {
  // Discord requests checked under the application's key where the server names one (GET /keys).
  const rep = report(page.chain, null, page.rollCache, page.discordKeys && page.discordKeys.length ? page.discordKeys : null);
  const keptBad = receiptProblems();
  const problems = [...rep.problems, ...keptBad];
  const bad = problems.map((p) => p.seq).filter((x) => typeof x === "number");
  const head = page.chain.head;
  const status = problems.length
    ? el("p", { class: "chain-state failed", "data-chain": "failed" }, `FAILED at seq ${bad.length ? Math.min(...bad) : "?"}: ${problems[0].message}`)
    : el("p", { class: "chain-state ok", "data-chain": "ok" }, `Chain verified in this browser: ${head.seq} events, head hash ${head.hash.slice(0, 16)}…`);
  const inForce = rep.commitments.filter((c) => c.revealed_seed === null).map((c) => c.commitment);
  const kept = receipts(stream).length;
  // The receipts' line speaks of the receipts only: a sent record's problem (kind sent, commitment_moved)
  // is named by the status line, not blamed on a receipt that matches.
  const receiptsBad = keptBad.filter((p) => p.kind === "receipt").length;
  $("chain").replaceChildren(status,
    el("p", {}, `Rolls: ${rep.rolls_verified} verified, ${rep.rolls_not_yet_revealed} not yet revealed, ${rep.rolls_manual} manual, ${rep.rolls_failed} failed.`),
    rep.hidden_rolls ? el("p", { "data-fact": "hidden-rolls" }, `Rolls behind the GM screen: ${rep.hidden_rolls} made, ${rep.hidden_rolls_revealed} revealed, ${rep.hidden_rolls_verified} of them verified.`) : "",
    el("p", { class: "commitment" }, `Dice commitment in force: ${inForce.length ? inForce[inForce.length - 1] : "none (every seed revealed)"}`),
    el("p", { "data-fact": "kept" }, `Receipts kept in this browser: ${kept}${kept ? (receiptsBad ? (receiptsBad === 1 ? " — one does not match!" : ` — ${receiptsBad} do not match!`) : ", all match the stream") : ""}.`),
    el("button", { type: "button", onclick: saveExport }, "Save the export (JSONL)"),
    sentRecord(stream).length ? el("button", { type: "button", id: "save-sent", onclick: saveSent }, "Save what I sent (for tussle verify --sent)") : "");
}

function download(text, name) {
  const a = el("a", { href: URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

async function saveExport() {
  download(await api("GET", `/encounters/${encodeURIComponent(stream)}/events`, { token, accept: "application/x-ndjson" }), `${stream}.jsonl`);
}

// What this browser sent, refusals included: the file for `tussle verify --sent` (docs/verifying.md §5).
function saveSent() {
  download(sentRecord(stream).map((entry) => JSON.stringify(entry)).join("\n") + "\n", `${stream}.sent.jsonl`);
}

function renderTime() {
  const head = page.chain.head.seq;
  const slider = $("at");
  slider.max = String(Math.max(head, 1));
  slider.value = String(page.viewAt || head);
  $("at-value").textContent = page.viewAt ? `${page.viewAt} of ${head}` : `${head} (live)`;
  $("live").disabled = !page.viewAt;
}

function setViewAt(n) {
  const head = page.chain.head.seq;
  page.viewAt = n && n < head ? n : null;
  const url = `${location.pathname}${page.viewAt ? `?at=${page.viewAt}` : ""}${location.hash}`;
  history.replaceState(null, "", url);
  scheduleRefresh();
}

function mayAnswer(p) {
  const me = page.me;
  if (!me || page.viewAt || page.state.closed) return false;
  return me.role === "gm" || (me.role === "player" && p.asked_of === me.seat);
}

function renderPending(s) {
  const box = $("pending");
  if (!(s.pending || []).length) { box.replaceChildren(el("p", {}, "No reaction is pending.")); return; }
  box.replaceChildren(...s.pending.map((p) => {
    const deadline = deadlineOf(s, p.id);
    // The answers the rules offer now (GET /me's offers), in their words: an option they would refuse
    // (ap-grapple's in_place with no barrier) gets no button. No offer known for it: every option, its
    // words made from it ("run_away" -> "run away"; a hex's "-1,0" keeps its sign).
    const offered = new Map();
    const offerOf = new Map(); // the answer's offer, when it still asks something (a weapon, which way to face)
    for (const o of Object.values((page.me && page.me.offers) || {}).flat()) {
      if (o.reaction === p.id && o.fields && o.fields.choice !== undefined && !offered.has(o.fields.choice)) {
        offered.set(o.fields.choice, o.title.replace(/…$/, ""));
        if ((o.choices || []).length) offerOf.set(o.fields.choice, o);
      }
    }
    const words = (c) => offered.get(c) || String(c).replace(/_/g, " ");
    const item = el("div", { class: "reaction card", "data-reaction": p.id },
      el("p", {}, el("strong", {}, p.kind.replace(/_/g, " ")), `: ${p.question || ""}`),
      el("p", {}, `Asked of ${askedOfText(p.asked_of)}${p.combatant ? ` for ${nameOf(p.combatant)}` : ""}; choices ${p.options.map(words).join(", ")}; default ${words(p.default)}`,
        deadline ? ["; the default answers ", deadlineEl(deadline)] : "", "."));
    if (mayAnswer(p)) {
      const status = el("span", { class: "status", role: "status" });
      const open = offered.size ? p.options.filter((c) => offered.has(c)) : p.options;
      const buttons = [...open, ...(open.includes(p.default) ? ["default"] : [])].map((choice) => el("button", { type: "button", class: "answer", "data-choice": choice,
        onclick: async () => {
          // An answer that still asks something (Rogue Trader's "which way to face", a weapon to fire) is
          // chosen where the actions are: sent bare it would leave the choice out, or be refused.
          const asks = offerOf.get(choice);
          const at = asks && document.querySelector(`.offers button.offer[data-offer="${CSS.escape(asks.id)}"]`);
          if (at) {
            at.click();
            const chooser = document.querySelector(".offers .chooser");
            if (chooser) chooser.scrollIntoView({ block: "center" });
            return;
          }
          const msg = await send({ type: "respond", reaction: p.id, choice });
          status.textContent = msg.text;
          document.dispatchEvent(new CustomEvent("command-result", { detail: { type: choice === "default" ? `Answer the default (${words(p.default)})` : `Answer: ${words(choice)}`, ...msg } }));
        } },
      choice === "default" ? `Answer the default (${words(p.default)})` : `Answer: ${words(choice)}${offerOf.has(choice) ? "…" : ""}`));
      item.append(el("div", { class: "answers" }, buttons, status));
    }
    return item;
  }));
}

function itemsText(c, states) {
  return (c.items || []).filter((i) => states.includes(i.state)).map((i) => i.name || i.id).join(", ");
}

// A name as the API spells it, in words: "on_back" -> "on back", "hth_weapon" -> "hth weapon".
const spaced = (v) => String(v).replace(/_/g, " ");

function statsText(stats) {
  return Object.entries(stats || {}).filter(([, v]) => v !== false && v !== 0 && v !== null && !(Array.isArray(v) && !v.length) && !(typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length))
    .map(([k, v]) => `${spaced(k)} ${typeof v === "object" ? (Array.isArray(v) ? v.map((x) => (x && x.name) || JSON.stringify(x)).join("/") : JSON.stringify(v)) : typeof v === "string" ? spaced(v) : v}`).join(", ");
}

function renderCombatants(s) {
  const cs = Object.values(s.combatants || {});
  if (!cs.length) { $("combatants").replaceChildren(el("p", {}, "No combatants yet.")); return; }
  const controllers = {};
  for (const seat of Object.values(s.seats || {})) for (const cid of seat.combatants || []) if (!seat.revoked) controllers[cid] = seat.name;
  const pinsOf = (cid) => (s.pins || []).flatMap((p) => {
    if (p.holder === cid) return [`pins ${nameOf(p.pinned)}${p.turns_held !== undefined ? ` (${p.turns_held} turns held)` : ""}`];
    if (p.pinned === cid) return [`pinned by ${nameOf(p.holder)}`];
    return [];
  });
  // A ruleset's holds short of a pin (a GURPS grapple): the held figure's row says what it does to it.
  const holdsOf = (cid) => (s.holds || []).flatMap((h) => {
    if (h.holder === cid) return [`holds ${nameOf(h.held)} (${h.hold})`];
    if (h.held === cid) return [`held by ${nameOf(h.holder)} (${h.hold}: ${h.effect})`];
    return [];
  });
  const head = ["Name", "Side", "Seat", "Position", "Posture", "Wounds", "Conditions", "Ready", "Carried", "Dropped", "HTH", "Stats"];
  const rows = cs.map((c) => {
    const group = c.group && s.groups && s.groups[c.group];
    const hth = [group ? `with ${(group.combatants || []).filter((m) => m !== c.id).map(nameOf).join(", ")}` : "", ...holdsOf(c.id), ...pinsOf(c.id)].filter(Boolean).join("; ");
    const geo = geometryOf(s);
    const facing = typeof c.facing === "number" ? ` facing ${c.facing}${geo.facing === "degrees" ? "°" : ""}` : "";
    const cells = [c.name, c.side, controllers[c.id] || "GM", `${positionText(c.position || [], geo)}${facing}`,
      spaced(c.posture || ""), String(c.wounds ?? 0), (c.conditions || []).map(spaced).join(", "), itemsText(c, ["ready", "worn"]), itemsText(c, ["carried"]),
      itemsText(c, ["dropped"]), hth, statsText(c.stats)];
    return el("tr", { "data-combatant": c.id }, cells.map((v, i) => (i === 0 ? el("th", { scope: "row" }, v)
      : el("td", { "data-col": head[i].toLowerCase(), "data-label": head[i], class: v ? null : "empty" }, v))));
  });
  $("combatants").replaceChildren(el("table", { class: "combatants" },
    el("caption", {}, page.viewAt ? `as of seq ${page.viewAt}` : "now"),
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, rows)));
}

function rollDetails(d) {
  const mods = (d.modifiers || []).map((m) => `${m.value >= 0 ? "+" : ""}${m.value} ${m.reason}`);
  const rows = [
    ["Dice", `${d.notation || ""}${d.purpose ? ` — ${d.purpose}` : ""}`],
    ["Faces", `${JSON.stringify(d.faces)}${d.kept && d.faces && d.kept.length !== d.faces.length ? `, kept ${JSON.stringify(d.kept.map((i) => d.faces[i]))}` : ""}`],
    ["Modifiers", mods.length ? mods.join("; ") : "none"],
    ["Total", d.total ?? "—"], ["Target", d.target ?? "—"], ["Outcome", d.outcome ?? "—"],
    ["Source", `${d.source || ""}${d.keyed_by ? `, keyed by ${d.keyed_by}` : ""}${d.entropy !== undefined ? `, entropy “${d.entropy}”` : ""}`],
  ];
  return el("dl", { class: "roll" }, rows.map(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))]));
}

function badgeOf(mark) {
  const cls = !mark ? "pending" : mark.mark === VERIFIED ? "verified" : mark.mark === FAILED ? "failed"
    : mark.mark === NOT_YET_REVEALED ? "unrevealed" : mark.mark === HIDDEN ? "hidden" : "manual";
  return el("span", { class: `badge ${cls}`, "data-badge": cls, title: mark && mark.problem ? mark.problem : "" }, mark ? badgeText(mark) : "checking");
}

// A roll behind the screen: the commitment's badge for everyone; its faces once revealed, and before
// that to the GM alone, with the button that reveals them.
function hiddenRollEntry(li, seq, entry, roll) {
  li.append(seq, " ", entry.text, " ", badgeOf(roll));
  if (!roll) return;
  if (roll.revealed_at_seq !== null) {
    li.append(" ", el("span", { class: "hidden-faces", "data-hidden-faces": roll.seq }, `faces ${shownFaces(roll.faces, roll.total)} (revealed at seq ${roll.revealed_at_seq})`));
    return;
  }
  const mine = page.hiddenFaces.get(roll.seq);
  if (!mine || page.viewAt || page.state.closed) return;
  const status = el("span", { class: "status", role: "status" });
  li.append(" ", el("span", { class: "hidden-faces gm-only", "data-hidden-faces": roll.seq }, `faces ${shownFaces(mine.faces, mine.total)} — only you see this`),
    " ", el("button", { type: "button", class: "reveal", "data-reveal": roll.seq, onclick: async () => {
      status.textContent = (await send({ type: "reveal_roll", seq: roll.seq })).text;
    } }, "Reveal"), " ", status);
}

function renderLog() {
  const marks = rollMarks();
  const hidden = new Map(auditHidden(page.chain.events, page.rollCache).rolls.map((r) => [r.seq, r]));
  const entries = page.log.entries || [];
  const byTurn = new Map();
  for (const e of entries) byTurn.set(e.turn ?? 0, [...(byTurn.get(e.turn ?? 0) || []), e]);
  const parts = [];
  const turns = [...byTurn.keys()];
  for (const [turn, list] of byTurn) {
    parts.push(turnSection(String(turn), `${turn ? `Turn ${turn}` : "Setting up"} (${list.length} entries)`, el("ol", { class: "log" }, list.map((entry) => {
      const env = page.chain.events[entry.seq - 1];
      const li = el("li", { "data-seq": entry.seq, class: `entry type-${entry.type}` });
      const seq = el("span", { class: "seq" }, `#${entry.seq}`);
      if (entry.type === "DieRolled" && env) {
        li.append(el("details", {}, el("summary", {}, seq, " ", entry.text, " ", badgeOf(marks.get(entry.seq))), rollDetails(env.data)));
      } else if (entry.type === "HiddenRollMade") {
        hiddenRollEntry(li, seq, entry, hidden.get(entry.seq));
      } else if (entry.type === "HiddenRollRevealed" && env) {
        li.append(seq, " ", entry.text, " ", badgeOf(hidden.get(env.data.seq)));
      } else {
        li.append(seq, " ", entry.text);
      }
      return li;
    })), turn === turns[turns.length - 1]));
  }
  $("log").replaceChildren(...(parts.length ? parts : [el("p", {}, "Nothing yet.")]));
}

// Where "Go to your actions" leads: to what the banner names first. The GM's next step (start the turn,
// the phase) is a button of "Run the fight", so the link lands on that card, not on the top of the GM's
// tools (the seats and the add form came first) nor on the GM's figures' cards (they always have some
// command: their HTH preferences, say); to the card of a figure the GM moves now.
function bannerTarget(me, now) {
  const mine = me.combatants || [];
  const hasCard = (cid) => ((me.legal_actions || {})[cid] || []).length || ((me.offers || {})[cid] || []).length;
  if (me.role !== "gm") return "play";
  const first = (now || [])[0];
  if (first && first.combatant && mine.includes(first.combatant) && hasCard(first.combatant)) return `act-${first.combatant}`;
  if (first) return "gm-run";
  return mine.some(hasCard) ? "play" : "gm-run";
}

function renderBanner(s) {
  const banner = $("banner");
  const me = page.me;
  if (!me || page.viewAt || s.closed || me.role === "observer") { banner.hidden = true; return; }
  const asked = (s.pending || []).filter((p) => (me.role === "gm" ? p.asked_of === "gm" : p.asked_of === me.seat));
  const mine = me.combatants || [];
  let text = null;
  let now = null;
  if (asked.length) text = `You are asked: ${asked.map((p) => p.question || `${p.kind.replace(/_/g, " ")} for ${nameOf(p.combatant)}`).join("; ")}`;
  else if (typeof me.your_turn === "boolean") { // the server says whose turn it is (GET /me)
    now = (me.acting_now || []).filter((a) => me.role === "player" || a.asked_of === "gm");
    if (me.your_turn && now.length) text = `Your turn: ${now.map(actingText).join("; ")}`;
    else now = null;
  } else if (me.role === "player") { // an older server: whoever has legal actions may act
    const can = mine.filter((c) => ((me.legal_actions || {})[c] || []).length);
    if (can.length) text = `Your turn: ${can.map(nameOf).join(", ")} may act`;
  }
  banner.hidden = !text;
  const target = asked.length ? "pending-box" : bannerTarget(me, now);
  banner.replaceChildren(el("p", { class: "banner" }, text || "", " ",
    el("a", { href: `#${encodeURIComponent(target)}`, class: "to-panel" }, asked.length ? "Answer ↓" : "Go to your actions ↓")));
}

// ---- playing: forms from the schemas, sent with a fresh id and entropy ----

// A new action gets a fresh id and entropy (sendCommand), once; a lost answer is resent with the same
// ones (sending.js), so it can never roll twice.
function sayWaiting({ attempt, why, delayMs }) {
  Object.assign($("last-result"), { className: "status",
    textContent: `No answer yet (${why}): sending the same command again in ${Math.ceil(delayMs / 1000)} s (attempt ${attempt + 1}); it cannot roll twice.` });
}

// Manual dice: the rolls a 422 dice_needed lists, a select of faces per die, resent with `dice` once
// the table has rolled (the same command, new faces; several rounds where more rolls may follow).
function askFaces(rolls, kept, more) {
  return new Promise((resolve) => {
    const box = $("dice-box");
    const picks = rolls.map((r, i) => Array.from({ length: r.count || 1 }, (_, d) => {
      const id = `face-${i}-${d}`;
      const sides = r.sides || 6;
      // A d100's face is typed (a phone's number pad), not picked from a list of a hundred.
      const select = sides > 20
        ? el("input", { id, type: "number", inputmode: "numeric", min: 1, max: sides, step: 1, required: true, "data-roll": i, "data-die": d })
        : el("select", { id, "data-roll": i, "data-die": d },
          Array.from({ length: sides }, (_, f) => el("option", { value: f + 1 }, String(f + 1))));
      if (kept[i] && kept[i][d] !== undefined) select.value = String(kept[i][d]);
      return [select, el("label", { for: id }, `${r.label || `${r.count}d${r.sides}`} — die ${d + 1}`)];
    }));
    const done = (faces) => { box.hidden = true; box.replaceChildren(); resolve(faces); };
    const form = el("form", { class: "card dice-form", "aria-label": "Faces of the dice you rolled" },
      el("h2", { id: "dice-title" }, "Roll these dice and enter the faces"),
      rolls.map((r, i) => el("fieldset", { class: "dice-roll", "data-roll": i }, el("legend", {}, r.label || `${r.count}d${r.sides}${r.purpose ? `: ${r.purpose}` : ""}`),
        picks[i].map(([select, label]) => el("div", { class: "field" }, label, select)))),
      more ? el("p", { class: "help" }, "More rolls may follow, depending on these.") : "",
      el("button", { type: "submit", class: "send-dice" }, "Send with these faces"), " ",
      el("button", { type: "button", class: "small", onclick: () => done(null) }, "Cancel"));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      done(picks.map((dice) => dice.map(([select]) => Number(select.value))));
    });
    box.replaceChildren(form);
    box.hidden = false;
    // The last answer shown is the previous command's: say this one waits for the table's dice.
    Object.assign($("last-result"), { className: "status", textContent: "Waiting for the faces of the table's dice: enter them in the dice form." });
    box.scrollIntoView({ block: "nearest" });
    form.querySelector("select, input").focus();
  });
}

async function send(body) {
  for (;;) {
    const msg = await sendOnce(body);
    if (!msg.needed) return msg;
    const kept = body.dice || [];
    const faces = await askFaces(msg.needed, kept, msg.more);
    if (!faces) return { ok: false, text: "Not sent: no faces entered." };
    body = { ...body, dice: faces };
  }
}

async function sendOnce(body) {
  try {
    const r = await sendCommand(stream, token, body, { commitment: page.state && page.state.commitment, seat: page.me && page.me.seat, seen: page.chain.head.seq, keep: (entry) => keepSent(stream, entry), keepReceipt,
      post: (path, full) => postUntilAnswered(path, token, full, { onWait: sayWaiting }) });
    scheduleRefresh();
    return { ok: true, text: `Done: seq ${r.seq}.` };
  } catch (err) {
    if (err.code === "dice_needed") {
      if (Array.isArray(err.details.rolls) && err.details.rolls.length && mayEnterFaces()) {
        return { ok: false, needed: err.details.rolls, more: !!err.details.more_may_follow, text: "Roll these dice." };
      }
      const needed = [].concat(err.details.needed || err.details.rolls || []).join("; ") || err.message;
      const more = err.details.more_may_follow ? " (more may follow)" : "";
      if (page.state && page.state.dice !== "server" && !mayEnterFaces()) {
        // Physical dice typed in by the GM (option manual_dice_from is "gm"): this page has no faces to
        // give, so the player is told who sends it rather than asked for dice it cannot enter.
        return { ok: false, text: `Not sent: in this encounter the GM types in the dice (option manual_dice_from is "gm"). Ask your GM to send this action with the faces the table rolls: ${needed}${more}.` };
      }
      return { ok: false, text: `Roll these dice and enter the faces: ${needed}${more}` };
    }
    return { ok: false, text: err.message };
  }
}

function mayEnterFaces() {
  const s = page.state;
  if (!s || s.dice === "server") return false;
  return page.me.role === "gm" || (s.options || {}).manual_dice_from === "actor";
}

function formContext(extra) {
  const s = page.state;
  // Only the GM rolls behind the screen, and only with a hidden seed (server dice, committed at creation):
  // no other form has the box (the server refuses it anyway).
  const first = page.chain.events[0];
  const screen = page.me.role === "gm" && !!(first && first.data && first.data.hidden_commitment);
  return { combatants: s.combatants, pending: s.pending, faces: mayEnterFaces(), templates: { combatant: COMBATANT_TEMPLATE },
    omit: screen ? [] : ["hidden"], labels: { hidden: "behind the screen (hidden: only you see the faces until you reveal them)" }, ...extra };
}

function openDetails() {
  return new Set([...document.querySelectorAll("#actions details[open], #gm-tools details[open]")].map((d) => d.dataset.key));
}

// A form's last answer outlives the form: the page rebuilds its forms when the legal actions change,
// which a sent command usually does.
const lastStatus = new Map();

function actionDetails(key, summary, form, open) {
  const d = el("details", { "data-key": key, class: "action" }, el("summary", {}, summary), form);
  if (open.has(key)) d.open = true;
  const status = form.querySelector(".status");
  if (status && lastStatus.has(key)) Object.assign(status, lastStatus.get(key));
  return d;
}

// What cannot be undone asks first, in the page.
const IRREVERSIBLE = {
  close: "Close the encounter? No command is accepted after it, and the dice seed is revealed; this cannot be undone.",
  void: "Void this event? The log keeps it, struck out, and the state is folded without it; this cannot be undone.",
};

function sender(key) {
  return async (body, form) => {
    if (IRREVERSIBLE[body.type] && form) {
      const yes = await confirmInline(form.querySelector("button[type=submit]"), IRREVERSIBLE[body.type], `Yes, ${body.type}`);
      if (!yes) return { ok: false, text: "Not sent." };
    }
    const msg = await send(body);
    lastStatus.set(key, { textContent: msg.text, className: `status ${msg.ok ? "ok" : "error"}` });

    const current = document.querySelector(`details[data-key="${CSS.escape(key)}"] .status`);
    if (current) Object.assign(current, lastStatus.get(key));
    return msg;
  };
}

// The map, with what the open choice lets this reader click (destinations, foes, a region).
function renderMap(s) {
  const me = page.me;
  const playing = me && me.role !== "observer" && !page.viewAt && !s.closed;
  const offers = (me && me.offers) || {};
  const onFigure = (cid) => openFirst(cid, offers[cid], ["hex", "point"]) || openFirst(cid, offers[cid], ["combatant"]);
  $("map").replaceChildren(mapPanel(s, playing ? activeChoice() : null, playing ? me.combatants || [] : [], playing ? onFigure : null));
}

// An offer sent: its answer where every form's goes (#last-result).
async function sendOffer(body, title) {
  const msg = await send(body);
  document.dispatchEvent(new CustomEvent("command-result", { detail: { type: title, ...msg } }));
  return msg;
}

function offersChanged() {
  page.formsKey = null;
  renderPlay(page.state);
  renderMap(page.state);
}

// The typed forms, for what no offer covers: folded under "advanced".
function advanced(key, title, forms, open) {
  const d = el("details", { class: "advanced", "data-key": key }, el("summary", {}, title), forms);
  if (open.has(key)) d.open = true;
  return d;
}

function renderPlay(s) {
  const me = page.me;
  if (!me || me.role === "observer" || s.closed || !page.registry) {
    $("actions").replaceChildren();
    $("gm-tools").replaceChildren();
    page.formsKey = null;
    return;
  }
  const key = JSON.stringify([me.role, me.combatants, me.legal_actions, me.offers || null, (s.pending || []).map((p) => p.id), Object.keys(s.combatants), Object.entries(s.seats || {}).map(([k, v]) => [k, !!v.revoked])]);
  if (key === page.formsKey) return; // keep what the player is typing
  page.formsKey = key;
  const open = openDetails();
  const groups = [];
  for (const cid of me.combatants || []) {
    const actions = (me.legal_actions || {})[cid] || [];
    const offers = ((me.offers || {})[cid]) || [];
    if (!actions.length && !offers.length) continue;
    groups.push(el("div", { class: "card actions-of", id: `act-${cid}`, "data-combatant": cid }, el("h3", {}, nameOf(cid)),
      offersList(cid, offers, sendOffer, offersChanged),
      actions.length ? advanced(`adv:${cid}`, "Advanced: the commands as typed forms", actions.map((type) => actionDetails(`${cid}:${type}`, type, commandForm(type, page.registry, formContext({ fixed: { combatant: cid }, mine: [cid], title: `${nameOf(cid)}: ${type}` }), sender(`${cid}:${type}`)), open)), open) : ""));
  }
  if (me.role === "player") {
    groups.push(el("div", { class: "card" }, el("h3", {}, "Anyone at the table"),
      PLAYER_COMMANDS.map((type) => actionDetails(`p:${type}`, PLAYER_TITLES[type] || type, commandForm(type, page.registry, formContext({ mine: me.combatants, title: PLAYER_TITLES[type] }), sender(`p:${type}`)), open))));
  }
  $("actions").replaceChildren(...groups);
  if (me.role === "gm") renderGm(s, open);
}

// One form for the whole session: what the GM is typing survives the page's redraws.
function addForm(s) {
  page.addForm ||= combatantForm({ openapi: page.openapi, ruleset: s.ruleset, geometry: geometryOf(s),
    sides: [...new Set(Object.values(s.combatants).map((c) => c.side))], bulk: page.registry.byType.has("add_combatants"), send,
    itemFields: (page.rulesetInfo && page.rulesetInfo.item_fields) || [] });
  return page.addForm;
}

function renderGm(s, open) {
  const base = `/encounters/${encodeURIComponent(stream)}`;
  const made = el("div", { class: "made-links", id: "made-links" });
  const status = el("p", { class: "status", role: "status" });
  const ids = Object.keys(s.combatants);
  const checks = ids.map((cid) => el("label", { class: "check" }, el("input", { type: "checkbox", value: cid, name: "seat-combatant" }), ` ${nameOf(cid)}`));
  const seatName = el("input", { id: "gm-seat-name", autocomplete: "off", value: `Player ${Object.keys(s.seats || {}).length + 1}` });
  const seatForm = el("form", { class: "inline", id: "make-seat", "aria-label": "Make a seat link" },
    el("div", { class: "field" }, el("label", { for: "gm-seat-name" }, "Seat name"), seatName),
    el("fieldset", {}, el("legend", {}, "Combatants of this seat"), checks.length ? checks : "add combatants first (a seat may start empty)"),
    el("button", { type: "submit" }, "Make a seat link"));
  seatForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const combatants = [...seatForm.querySelectorAll("input[name=seat-combatant]:checked")].map((i) => i.value);
    try {
      const r = await api("POST", `${base}/seats`, { token, body: { name: seatName.value, combatants, command_id: newCommandId() } });
      made.append(onceLink(`Seat link for ${seatName.value}`, viewLink(stream, r.token)));
      status.textContent = "";
      // Made: its figures unticked, so a second click does not make the same seat again.
      for (const box of seatForm.querySelectorAll("input[name=seat-combatant]")) box.checked = false;
    } catch (err) { status.textContent = err.message; }
  });
  const seats = Object.values(s.seats || {}).filter((x) => !x.revoked).map((seat) => el("li", {}, `${seat.name} (${seat.seat}): ${(seat.combatants || []).map(nameOf).join(", ") || "no combatants"} `,
    el("button", { type: "button", onclick: async () => {
      try {
        const r = await api("POST", `${base}/seats/${encodeURIComponent(seat.seat)}/token`, { token });
        made.append(onceLink(`New seat link for ${seat.name} (the old link stops working: ${seat.name} is signed out on every other device)`, viewLink(stream, r.token)));
      } catch (err) { status.textContent = err.message; }
    } }, "New link"),
    el("small", { class: "help" }, " a new link signs this seat out on its other devices "),
    el("button", { type: "button", class: "danger", onclick: async (ev) => {
      if (!(await confirmInline(ev.currentTarget, `Revoke ${seat.name}'s seat? Its link stops working at once; this cannot be undone.`, `Yes, revoke ${seat.name}`))) return;
      try { await api("DELETE", `${base}/seats/${encodeURIComponent(seat.seat)}`, { token }); scheduleRefresh(); } catch (err) { status.textContent = err.message; }
    } }, "Revoke")));
  const readButton = el("button", { type: "button", id: "make-read-link", onclick: async () => {
    try {
      const r = await api("POST", `${base}/read-tokens`, { token });
      made.append(linkRow("Read-only link", viewLink(stream, r.token)));
    } catch (err) { status.textContent = err.message; }
  } }, "Make a read-only link");
  const gmForm = (type, summary = type) => actionDetails(`gm:${type}`, summary, commandForm(type, page.registry, formContext({}), sender(`gm:${type}`)), open);
  // The table's own tools (a roll, a note, a question, a ruling) and closing come first, as forms of
  // boxes; the rest of the GM's commands are the advanced, typed fallback.
  const table = GM_TABLE.filter((t) => page.registry.byType.has(t)).map((type) => gmForm(type, GM_TABLE_TITLES[type]));
  const commands = GM_COMMANDS.filter((t) => page.registry.byType.has(t) && !GM_TABLE.includes(t) && t !== "close").map((type) => gmForm(type));
  const previous = $("made-links");
  if (previous) made.append(...previous.childNodes);
  // Folded once the fight has figures, so the steps of the fight come first on a phone; open while it has
  // none, and as the GM last left it by hand (the default open of an empty fight is no wish to keep it open).
  const count = ids.length;
  const addOpen = count ? page.addFiguresOpen === true : page.addFiguresOpen !== false;
  const addBox = el("details", { class: "card add-figures", "data-key": "gm:add-figures", open: addOpen },
    el("summary", {}, el("h3", { class: "inline" }, "Add combatants"), count ? el("span", { class: "help" }, ` (${count} in the fight)`) : ""), addForm(s));
  addBox.querySelector("summary").addEventListener("click", () => { page.addFiguresOpen = !addBox.open; });
  $("gm-tools").replaceChildren(addBox,
    el("div", { class: "card" }, el("h3", {}, "Seats and links"), seatForm, el("ul", { class: "seats" }, seats), readButton, status, made),
    el("div", { class: "card", id: "gm-run" }, el("h3", {}, "Run the fight"), offersList("gm", ((page.me.offers || {}).gm) || [], sendOffer, offersChanged),
      el("div", { class: "table-tools" }, table), page.registry.byType.has("close") ? gmForm("close", "Close the encounter") : "",
      advanced("adv:gm", "Advanced: every other GM command as a typed form", commands, open)));
}

// ---- forum helpers and the export check ----

async function copyTurn(format) {
  const s = page.state;
  const q = new URLSearchParams({ format });
  if (s.turn) q.set("turn", String(s.turn));
  if (page.viewAt) q.set("at", String(page.viewAt));
  try {
    const text = await api("GET", `/encounters/${encodeURIComponent(stream)}/log?${q}`, { token, accept: "text/plain, text/markdown" });
    $("copy-status").textContent = await copyText(text, $("copy-area"));
  } catch (err) {
    $("copy-status").textContent = err.message;
  }
}

const readJson = async (file) => JSON.parse(await file.text());
const readLines = async (file) => {
  const text = (await file.text()).trim();
  return text.startsWith("[") ? JSON.parse(text) : text.split(/\r?\n/).filter((l) => l.trim()).map((l) => JSON.parse(l));
};

// The files a client kept beside the export (as tussle verify takes them), or what is not given.
async function keptFiles() {
  const r = $("kept-receipts").files[0], sent = [...$("kept-sent").files], k = $("kept-keys").files[0];
  const keys = k ? await readJson(k) : null;
  return {
    receipts: r ? await readLines(r) : null,
    sent: sent.length ? (await Promise.all(sent.map(readLines))).flat() : null,
    keys: keys === null ? null : Array.isArray(keys) ? keys : keys.keys || [],
  };
}

async function verifyFile(file) {
  let kept = {};
  try { kept = await keptFiles(); } catch (err) { $("file-report").replaceChildren(el("p", { class: "chain-state failed" }, `FAILED at seq ? — a kept file is not JSON: ${err.message}`)); return; }
  const rep = verifyExport(await file.text(), kept);
  const box = $("file-report");
  const head = rep.ok
    ? el("p", { class: "chain-state ok", "data-file": "ok" }, `OK — ${rep.events_checked} events; the chain holds up to seq ${rep.head.seq} (hash ${rep.head.hash.slice(0, 16)}…).`)
    : el("p", { class: "chain-state failed", "data-file": "failed" }, `FAILED at seq ${rep.first_bad_seq ?? "?"} — ${rep.problems.length} problem(s).`);
  box.replaceChildren(head,
    el("ul", {}, rep.problems.map((p) => el("li", { "data-kind": p.kind }, `[${p.kind}] ${p.message}`))),
    el("p", {}, `Rolls: ${rep.rolls_checked} checked, ${rep.rolls_verified} verified, ${rep.rolls_failed} failed, ${rep.rolls_not_yet_revealed} not yet revealed, ${rep.rolls_manual} manual.`),
    rep.hidden_rolls ? el("p", {}, `Rolls behind the GM screen: ${rep.hidden_rolls} made, ${rep.hidden_rolls_revealed} revealed, ${rep.hidden_rolls_verified} of them verified.`) : "",
    el("ol", { class: "file-rolls" }, [...rep.rolls, ...rep.hidden].sort((x, y) => x.seq - y.seq).map((r) => el("li", { "data-seq": r.seq },
      `seq ${r.seq} ${r.expression ? `behind the screen (${r.expression}) ` : ""}${r.purpose || ""} `, badgeOf(r)))));
}

// ---- start ----

// GET /encounters/{id} with the token of the link, else the one this device remembers; a remembered
// token the server no longer knows (the GM made a new link) is forgotten, and the page tries without.
async function openEncounter() {
  const path = `/encounters/${encodeURIComponent(stream)}`;
  try {
    return await api("GET", path, { token });
  } catch (err) {
    if (err.status !== 401 || !token) throw err;
    forgetToken(stream);
    token = null;
    $("device").hidden = false;
    $("device").replaceChildren(el("span", { role: "alert" },
      "The link this device had for this encounter no longer works: the GM made a new one, which signs the seat out on its other devices. Open the new link once on this device."));
    return await api("GET", path);
  }
}

// The page's controls need a state: without one (no access) they are disabled, never live and broken.
function setControls(on) {
  for (const id of ["at", "live", "copy-md", "copy-bb"]) $(id).disabled = !on;
}

function showDevice() {
  if (!token) return;
  const box = $("device");
  box.hidden = false;
  box.replaceChildren(el("span", {}, fragmentToken ? "This browser now remembers this link, so the encounter's plain link opens here as you. " : "Opened with the link this browser remembers. "),
    el("button", { type: "button", id: "forget-device", class: "small", onclick: () => {
      forgetToken(stream);
      location.replace(location.pathname + location.search);
    } }, "Forget this device"));
}

async function main() {
  // Every form's answer also where it stays put: a form the command made illegal is gone from the page.
  document.addEventListener("command-result", (ev) => {
    const said = $("last-result");
    Object.assign(said, { textContent: `${ev.detail.type}: ${ev.detail.text}`, className: `status ${ev.detail.ok ? "ok" : "error"}` });
    // The chooser that sent it folds away, and on a phone the window was left on whatever came below
    // it (the webhooks panel): bring the answer into view (below the banner), if it is not.
    said.scrollIntoView({ block: "nearest" });
  });
  $("at").addEventListener("input", (ev) => setViewAt(Number(ev.target.value)));
  setInterval(() => refreshDeadlines(), 30000);
  $("live").addEventListener("click", () => setViewAt(null));
  $("copy-md").addEventListener("click", () => copyTurn("markdown"));
  $("copy-bb").addEventListener("click", () => copyTurn("bbcode"));
  for (const id of ["export-file", "kept-receipts", "kept-sent", "kept-keys"]) {
    $(id).addEventListener("change", () => { if ($("export-file").files[0]) verifyFile($("export-file").files[0]); });
  }
  // A new link pasted over this one differs only in its fragment, which does not load the page again.
  window.addEventListener("hashchange", () => {
    const now = tokenFromFragment();
    if (now && now !== token) location.reload();
  });
  const at = Number(new URLSearchParams(location.search).get("at"));
  if (at > 0) page.viewAt = at;
  try {
    page.info = await openEncounter();
  } catch (err) {
    fatal(err.status === 401
      ? "This encounter is not public: open your seat link once on this device (the link the GM gave you, with its #token=…); this browser remembers it after that."
      : err.message);
    setConnection("not connected", "error");
    setControls(false);
    return;
  }
  if (token) rememberToken(stream, token);
  showDevice();
  // The sticky banner covers the window's top: whatever the page scrolls to (the banner's own link, a
  // form's first box, a focused field) stops below it, however tall its text wraps on a phone.
  const banner = $("banner");
  new ResizeObserver(() => document.documentElement.style.setProperty("--banner-h", `${banner.hidden ? 0 : banner.offsetHeight}px`)).observe(banner);
  try {
    const published = await api("GET", "/keys");
    page.keys = published.keys || [];
    page.discordKeys = published.discord_public_keys || [];
  } catch { page.keys = []; page.discordKeys = []; }
  if (page.viewAt && page.viewAt >= page.info.seq) page.viewAt = null;
  if (token) {
    try {
      page.me = await api("GET", `/encounters/${encodeURIComponent(stream)}/me`, { token });
      if (page.me.role !== "observer") {
        // The encounter's own ruleset's document: its commands typed exactly (a ruling's overridable paths,
        // a facing's range), where /openapi.json's union would offer other rulesets' fields.
        const own = `/rulesets/${encodeURIComponent(page.info.ruleset)}/openapi.json`;
        page.openapi = await api("GET", own).catch(() => api("GET", "/openapi.json"));
        page.registry = commandSchemas(page.openapi);
        if (page.me.role === "gm") page.rulesetInfo = await api("GET", `/rulesets/${encodeURIComponent(page.info.ruleset)}`).catch(() => null);
      }
    } catch (err) { fatal(err.message); }
  }
  connect();
}

// For the tests of reconnection: drop the socket as a network would.
window.tussleDebug = { dropConnection: () => page.ws && page.ws.close(), page };

main();
