// The verifier of docs/verifying.md, in the browser: the same algorithm as `tussle verify`.
//
// SHA-256 and HMAC-SHA256 come from @noble/hashes (audited, MIT, vendored under ../vendor/): WebCrypto
// exists only in secure contexts, and a table's server is often plain http on a LAN address.

import { sha256 } from "../vendor/noble-hashes/sha2.js";
import { hmac } from "../vendor/noble-hashes/hmac.js";
import { verifyEd25519 } from "./ed25519.js";

export const ZERO_HASH = "0".repeat(64);
const utf8 = new TextEncoder();

function toHex(bytes) {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

function fromHex(hex) {
  if (typeof hex !== "string" || !/^[0-9a-f]*$/.test(hex) || hex.length % 2) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

// Keys sort by Unicode code point (Python's sort), not by UTF-16 unit (JavaScript's default sort):
// they differ once a key holds a character past U+FFFF next to one in U+E000-U+FFFF.
export function compareCodePoints(a, b) {
  const ia = a[Symbol.iterator](), ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next(), y = ib.next();
    if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1;
    const cx = x.value.codePointAt(0), cy = y.value.codePointAt(0);
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

// C(x) of DESIGN.md: no whitespace, keys by code point, integers only. JSON.stringify of a string
// escapes exactly `"`, `\` and U+0000-U+001F (\b \f \n \r \t, else lowercase \u00xx), as C does.
export function canonical(x) {
  if (x === null) return "null";
  switch (typeof x) {
    case "boolean": return x ? "true" : "false";
    case "number":
      if (!Number.isSafeInteger(x)) throw new Error(`canonical JSON holds integers only, not ${x}`);
      return String(x);
    case "string": return JSON.stringify(x);
    case "object":
      if (Array.isArray(x)) return `[${x.map(canonical).join(",")}]`;
      return `{${Object.keys(x).sort(compareCodePoints).map((k) => `${JSON.stringify(k)}:${canonical(x[k])}`).join(",")}}`;
    default: throw new Error(`canonical JSON cannot hold a ${typeof x}`);
  }
}

const BODY = ["stream", "seq", "type", "data", "actor", "command_id", "ts", "prev_hash"];

export function eventHash(e) {
  const body = {};
  for (const k of BODY) body[k] = e[k];
  return toHex(sha256(utf8.encode(String(e.prev_hash) + canonical(body))));
}

// Python's json.dumps with ensure_ascii: anything past U+007F as a lowercase \uxxxx escape.
function asciiJson(s) {
  return JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function dieFace(seed, stream, commandId, draw, sides, entropy) {
  const n = BigInt(sides);
  const limit = ((1n << 64n) / n) * n;
  for (let attempt = 0; ; attempt++) {
    const msg = `["tussle-dice-v1",${asciiJson(stream)},${asciiJson(commandId)},${draw},${sides},${attempt},${asciiJson(entropy)}]`;
    const h = hmac(sha256, seed, utf8.encode(msg));
    let u = 0n;
    for (let i = 0; i < 8; i++) u = (u << 8n) | BigInt(h[i]);
    if (u < limit) return Number(u % n) + 1;
  }
}

export function seedMatches(seedHex, commitment) {
  const seed = fromHex(seedHex);
  return !!seed && seed.length === 32 && toHex(sha256(seed)) === commitment;
}

// Checks a stream event by event, as it arrives (the page) or as a file is read.
export class Chain {
  constructor() {
    this.events = [];
    this.problems = [];
    this.head = { seq: 0, hash: ZERO_HASH };
    this.stream = null;
  }

  push(e) {
    const expected = this.events.length + 1;
    if (this.stream === null) this.stream = e.stream;
    // Named where the stream goes wrong, as `tussle verify` names it: a missing event at its own seq, an
    // out-of-order one at the first position holding the wrong seq.
    if (e.seq > expected) this.problem("chain", expected, `${e.seq - expected > 1 ? `seqs ${expected}-${e.seq - 1}` : `seq ${expected}`} missing: the stream goes from seq ${expected - 1} to seq ${e.seq}`);
    else if (e.seq !== expected) this.problem("chain", expected, `event ${expected} of the stream is seq ${e.seq} where seq ${expected} belongs: the events are out of order from seq ${expected}`);
    if (e.stream !== this.stream) this.problem("chain", e.seq, `seq ${e.seq} belongs to another stream`);
    if (e.prev_hash !== this.head.hash) {
      this.problem("chain", e.seq, `seq ${e.seq}: prev_hash is not the hash of the event before it`);
    }
    let h = null;
    try { h = eventHash(e); } catch (err) { this.problem("format", e.seq, `seq ${e.seq}: ${err.message}`); }
    if (h !== null && h !== e.hash) {
      this.problem("chain", e.seq, `seq ${e.seq}: the stored hash does not match the event's content, which hashes to ${h}`);
    }
    this.events.push(e);
    this.head = { seq: e.seq, hash: e.hash };
  }

  problem(kind, seq, message) {
    this.problems.push({ kind, seq, message });
  }

  get firstBadSeq() {
    const seqs = this.problems.map((p) => p.seq).filter((s) => typeof s === "number");
    return seqs.length ? Math.min(...seqs) : null;
  }
}

// Each commitment with the seed that revealed it (docs/verifying.md section 4).
export function commitmentTimeline(events) {
  const out = [];
  let current = null;
  const open = (commitment, seq) => {
    current = { commitment, published_at_seq: seq, revealed_seed: null, revealed_at_seq: null, seed_matches: null };
    out.push(current);
  };
  for (const e of events) {
    if (e.type === "EncounterCreated" && e.data.commitment) open(e.data.commitment, e.seq);
    else if (e.type === "DiceSeedRotated") {
      if (current) {
        const seed = e.data.revealed_seed || "";
        Object.assign(current, { revealed_seed: seed, revealed_at_seq: e.seq, seed_matches: seedMatches(seed, current.commitment) });
      }
      current = null;
      if (e.data.commitment) open(e.data.commitment, e.seq);
    }
  }
  return out;
}

export const VERIFIED = "verified", FAILED = "failed", NOT_YET_REVEALED = "not_yet_revealed", MANUAL = "manual";
export const SEED_FAILED = "seed_failed"; // its seed was revealed but fails its commitment: not recomputed

// Every DieRolled with its mark; a roll uses the commitment in force when its command began (section 4).
export function auditRolls(events, cache = new Map()) {
  const timeline = new Map(commitmentTimeline(events).map((c) => [c.commitment, c]));
  const refused = refusedFaces(events);
  return walk(events, timeline, cache).rolls.map((r) => (refused.has(r.seq) ? { ...r, mark: FAILED, problem: refused.get(r.seq), message: refused.get(r.seq) } : r));
}

// The problems of questions whose dice_key is not their resolution's key, or miscounts its draws (section 5).
export function keyProblems(events, cache = new Map()) {
  return walk(events, new Map(commitmentTimeline(events).map((c) => [c.commitment, c])), cache).requests;
}

// One walk over the stream, as projections/audit.py's: each roll's mark (commitment, keying, draws) and
// each question's key problem.
function walk(events, timeline, cache) {
  const rolls = [], requests = [];
  let inForce = null, commandCommitment = null, previousCommand = null;
  // Stream rules 3 (section 4): a resolution's dice keep the commitment in force when it began.
  let perResolution = false, resolution = [null, 0];
  const began = new Map(); // reaction id -> [its resolution's commitment, the seq that began it]
  const asked = new Map(); // reaction id -> the dice_key it was asked under
  const nextDraw = new Map(); // keying command -> the draw its next die must have
  let key = null; // the key this command's dice continue, when it answers a question not as a seat
  for (const e of events) {
    const d = e.data || {};
    if (e.command_id !== previousCommand) {
      commandCommitment = inForce; previousCommand = e.command_id;
      resolution = (e.type === "ReactionAnswered" && began.get(d.id)) || [inForce, e.seq];
      key = continuedKey(e, asked);
    }
    if (e.type === "ReactionRequested" && typeof d.id === "string") {
      began.set(d.id, resolution);
      asked.set(d.id, d.dice_key ?? null);
      const wrong = wrongRequestKey(e, key, nextDraw);
      if (wrong) requests.push({ kind: "dice", seq: e.seq, message: wrong });
    }
    if (e.type === "EncounterCreated") {
      inForce = d.commitment ?? null; commandCommitment = inForce; resolution = [inForce, e.seq];
      perResolution = (d.stream_rules ?? 0) >= 3;
    } else if (e.type === "DiceSeedRotated") inForce = d.commitment ?? null;
    if (e.type !== "DieRolled") continue;
    let roll = markRoll(e, commandCommitment, timeline, cache);
    const by = d.keyed_command_id || e.command_id;
    const fail = (problem) => { if (roll.mark !== FAILED) roll = { ...roll, mark: FAILED, problem }; };
    if (perResolution && d.source !== "manual" && resolution[0] !== commandCommitment) {
      roll = { ...roll, mark: FAILED, problem: `drawn from commitment ${commandCommitment}, but its resolution began at seq ${resolution[1]} under commitment ${resolution[0]}: every die of a resolution is drawn from the seed in force when its starting command was accepted (the seed was rotated mid-resolution)` };
    }
    const wrongKey = wronglyKeyed(e, key, perResolution);
    if (wrongKey) fail(wrongKey);
    const first = nextDraw.get(by) ?? 0;
    if (Array.isArray(d.draws)) {
      if (canonical(d.draws) !== canonical(d.draws.map((_, i) => first + i))) {
        fail(`draws ${JSON.stringify(d.draws)} do not run on from draw ${first} of command ${JSON.stringify(by)}: draws under one keying command run 0, 1, 2 … with no gap, repeat or choice`);
      }
      if (d.draws.length && d.draws.every(Number.isInteger)) nextDraw.set(by, Math.max(first, Math.max(...d.draws) + 1));
    }
    rolls.push(roll);
  }
  return { rolls, requests };
}

// The key a command's dice must continue (projections/audit.py `continued_key`): an answer not sent by a
// seat continues the key its question was asked under (DESIGN.md "Dice"); any other command keys its own
// dice (null). `first`: the command's first event; `asked`: reaction id -> its dice_key.
function continuedKey(first, asked) {
  if (first.type !== "ReactionAnswered" || String(first.actor).startsWith("seat:")) return null;
  const k = asked.get((first.data || {}).id);
  return k && typeof k === "object" && !Array.isArray(k) ? k : null;
}

// Why a die is keyed by the wrong command (projections/audit.py `_wrongly_keyed`), or null.
function wronglyKeyed(e, continued, rules3) {
  const d = e.data || {};
  if (d.source === "manual") return null;
  if (!("keyed_command_id" in d)) {
    if (continued) return `has no keyed_command_id, but it answers a question asked under ${JSON.stringify(continued.command_id)}, whose dice it must continue`;
    return rules3 ? "has no keyed_command_id: every server die names its keying command" : null;
  }
  const want = continued ? continued.command_id : e.command_id;
  if (d.keyed_command_id !== want) {
    return `keyed by ${JSON.stringify(d.keyed_command_id)}, but its dice must be keyed by ${continued ? "the command whose question this answers" : "its own command"}, ${JSON.stringify(want)}`;
  }
  if (continued && d.entropy !== continued.entropy) return `uses entropy ${JSON.stringify(d.entropy)}, but the command it continues sent ${JSON.stringify(continued.entropy)}`;
  return null;
}

// Why a question's dice_key is not the key its resolution's dice draw under now (`_wrong_request_key`).
function wrongRequestKey(e, continued, nextDraw) {
  const got = e.data.dice_key;
  if (!got || typeof got !== "object") return null;
  const want = continued ? continued.command_id : e.command_id;
  const id = JSON.stringify(e.data.id);
  if (got.command_id !== want) return `seq ${e.seq}: the question ${id} records dice key ${JSON.stringify(got.command_id)}, but its resolution's dice are keyed by ${JSON.stringify(want)}: its answer's dice would be drawn under a command of someone else's choosing`;
  if (continued && got.entropy !== continued.entropy) return `seq ${e.seq}: the question ${id} records entropy ${JSON.stringify(got.entropy)}, but its key ${JSON.stringify(want)} sent ${JSON.stringify(continued.entropy)}`;
  const drawn = nextDraw.get(want) ?? 0;
  if (got.next_draw !== drawn) return `seq ${e.seq}: the question ${id} says its key ${JSON.stringify(want)} draws next at ${got.next_draw}, but ${drawn} draw(s) were made under it: a draw is missing or extra`;
  return null;
}

// The facts a replay takes as given (server/audit/replaying.py GIVEN): every other command declares itself.
const GIVEN = new Set(["EncounterCreated", "RulesetUpgraded", "SeatCreated", "SeatChanged", "SeatRevoked", "SeatTokenRotated",
  "ReadTokenCreated", "ReadTokenRevoked", "FirehoseGranted", "FirehoseRevoked", "GmTokenRotated", "WebhookCreated", "WebhookDeleted", "WebhookSecretRotated",
  "WebhookDisabled", "WebhookEnabled"]);

// Stream rules 3: a command without its declaration, a declaration naming a version the stream did not
// announce, an announcement going down (section 5, "Every command declares itself", "Versions").
export function declarationProblems(events) {
  const first = events[0];
  if (!first || first.type !== "EncounterCreated" || (first.data.stream_rules ?? 0) < 3) return [];
  let ruleset = first.data.ruleset, version = first.data.ruleset_version, at = first.seq, previous = null;
  const out = [];
  const newer = (a, b) => typeof a === "string" && a !== b && (/^[0-9]+$/.test(a) && /^[0-9]+$/.test(b) ? Number(a) > Number(b) : true);
  for (const e of events) {
    const d = e.data || {};
    if (e.type === "RulesetUpgraded") {
      if (d.ruleset !== ruleset || !newer(d.version, version)) out.push({ kind: "version", seq: e.seq, message: `seq ${e.seq} announces ${d.ruleset} version ${d.version} after ${ruleset} version ${version}: an encounter's ruleset stays and its version only goes up` });
      else { version = d.version; at = e.seq; }
    }
    if (e.command_id === previous) continue;
    previous = e.command_id;
    const decl = d.declaration;
    if (!GIVEN.has(e.type) && (!decl || typeof decl !== "object")) {
      out.push({ kind: "declaration", seq: e.seq, message: `seq ${e.seq}: command ${JSON.stringify(e.command_id)} (${e.type}) records no declaration, but every command of this stream declares itself (stream rules 3)` });
    } else if (decl && typeof decl === "object" && (decl.ruleset !== ruleset || decl.version !== version)) {
      out.push({ kind: "version", seq: e.seq, message: `seq ${e.seq} declares ${decl.ruleset} version ${decl.version}, but the stream announced ${ruleset} version ${version} (at seq ${at}): a declaration names only the version the stream announced` });
    }
  }
  return out;
}

// Commands sent from Discord (docs/verifying.md "Commands sent from Discord"): each keeps the request
// Discord signed; it must be the interaction whose id keyed the dice, with its token's SHA-256 as the
// entropy, and, where the application's public keys are known (an export's trailer, or given), its
// Ed25519 signature must verify under one of them. Without keys only the first two are checked.
export function discordProblems(events, keys = null) {
  const out = [];
  const declaredBy = new Map();
  let previous = null;
  for (const e of events) {
    const decl = e.data && e.data.declaration;
    if (e.command_id !== previous && decl && typeof decl === "object") {
      declaredBy.set(e.command_id, decl.keyed_by);
      if (decl.keyed_by === "discord") {
        const why = discordClaimProblem(decl, e.command_id, keys);
        if (why) out.push({ kind: "discord", seq: e.seq, message: `seq ${e.seq}: command ${JSON.stringify(e.command_id)} ${why}` });
      }
    }
    previous = e.command_id;
    if (e.type === "DieRolled" && e.data.keyed_by === "discord" && e.data.source !== "manual") {
      const key = e.data.keyed_command_id || e.command_id;
      if (declaredBy.get(key) !== "discord") out.push({ kind: "discord", seq: e.seq, message: `seq ${e.seq}: a die keyed by Discord under ${JSON.stringify(key)}, a command that was not sent from Discord` });
    }
  }
  return out;
}

function discordClaimProblem(decl, commandId, keys) {
  const signed = decl.signed_request;
  if (!signed || typeof signed.body !== "string" || typeof signed.signature !== "string" || typeof signed.timestamp !== "string") {
    return "is keyed by Discord but keeps no signed request from Discord";
  }
  if (keys && keys.length) {
    const sig = fromHex(signed.signature), message = utf8.encode(signed.timestamp + signed.body);
    const ok = !!sig && keys.some((k) => { const pub = fromHex(k); try { return !!pub && verifyEd25519(pub, message, sig); } catch { return false; } });
    if (!ok) return "keeps a request whose signature does not verify under the Discord application's public key";
  }
  let interaction;
  try { interaction = JSON.parse(signed.body); } catch { return "keeps a signed request that is not JSON"; }
  if (!interaction || String(interaction.id) !== commandId) return `keeps the signed interaction ${JSON.stringify(interaction && interaction.id)}, not its command_id ${JSON.stringify(commandId)}`;
  const entropy = decl.command && decl.command.entropy;
  if (typeof interaction.token !== "string" || toHex(sha256(utf8.encode(interaction.token))) !== entropy) {
    return "declares an entropy that is not the digest of its interaction's token";
  }
  return null;
}

function fromBase64Url(text) {
  try {
    const bin = atob(String(text).replace(/-/g, "+").replace(/_/g, "/") + "=".repeat(-String(text).length & 3));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch { return null; }
}

// The bytes a receipt's signature covers (events/store/receipt_key.py signed_bytes).
function signedBytes(r) {
  return utf8.encode(`tussle receipt v1\n${canonical({ encounter: r.encounter, hash: r.hash, seq: r.seq, time: r.time })}`);
}

// Why a signed receipt does not verify under the server's published keys (GET /keys, or an export
// trailer's receipt_keys), or null when it does (`signature_problem`).
export function signatureProblem(r, keys) {
  const known = new Map(keys.filter((k) => k && (k.algorithm ?? "Ed25519") === "Ed25519").map((k) => [k.key_id, k]));
  if (!known.has(r.key_id)) return `it is signed with key ${JSON.stringify(r.key_id)}, which is not among the server's published keys [${[...known.keys()].map(String).sort().map((k) => JSON.stringify(k)).join(", ")}]`;
  let ok = false;
  try {
    const pub = fromBase64Url(known.get(r.key_id).public_key), sig = fromBase64Url(r.signature);
    ok = !!pub && !!sig && Number.isSafeInteger(r.seq) && verifyEd25519(pub, signedBytes(r), sig);
  } catch { ok = false; }
  return ok ? null : `its signature does not verify under key ${r.key_id}: the server never signed this encounter, seq, hash and time (the receipt was forged or altered)`;
}

function signedReceiptProblems(events, r, keys) {
  const at = Number.isInteger(r.seq) ? r.seq : null;
  const stream = events.length ? events[0].stream : null;
  const out = [];
  if (stream !== null && r.encounter !== stream) out.push({ kind: "receipt", seq: at, message: `seq ${r.seq}: the receipt is of encounter ${JSON.stringify(r.encounter)}, not ${JSON.stringify(stream)}` });
  const why = keys && keys.length ? signatureProblem(r, keys) : "no public receipt keys were given (the export's trailer lists none; pass --keys)";
  if (why) out.push({ kind: "receipt", seq: at, message: `seq ${r.seq}: the signed receipt does not verify: ${why}` });
  return out;
}

// Kept receipts against the stream (server/audit/verifying.py receipt_problems): receipts past the end
// mean a cut tail, named once, at the first missing seq; a signed receipt (a command answer's `receipt`,
// or a kept entry holding one) must verify under `keys`. `complete`: the stream is all there (a file, or
// a live page caught up), so a receipt past its end is not merely still on its way.
export function receiptProblems(events, receipts, complete = true, keys = null) {
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  const last = events.length ? Math.max(...events.map((e) => e.seq)) : 0;
  const out = [], beyond = [];
  for (const kept of receipts) {
    const r = kept && typeof kept.receipt === "object" && kept.receipt ? kept.receipt : kept;
    if (r && "signature" in r) out.push(...signedReceiptProblems(events, r, keys));
    const e = bySeq.get(r.seq);
    if (Number.isInteger(r.seq) && r.seq > last) beyond.push(r.seq);
    else if (!e) out.push({ kind: "receipt", seq: Number.isInteger(r.seq) ? r.seq : null, message: `a receipt names seq ${r.seq}, which the stream does not hold` });
    else if (e.hash !== r.hash) out.push({ kind: "receipt", seq: r.seq, message: `seq ${r.seq}: the receipt says hash ${r.hash}, the stream says ${e.hash}: the stream was rewritten after the receipt was given` });
  }
  if (beyond.length && complete) {
    const top = Math.max(...beyond);
    out.push({ kind: "receipt", seq: last + 1, message: `receipts name seqs up to ${top}, but the stream ends at seq ${last}: ${last + 1 === top ? `seq ${top}` : `seqs ${last + 1}-${top}`} ${last + 1 === top ? "was" : "were"} cut off` });
  }
  return out;
}

// What this player's devices sent (their sent records, refusals included) against the stream, as
// `tussle verify --sent` checks it (verifying.py sent_problems): the dice of each sent command keyed by
// it with its entropy (an answer sent not as a seat, the GM's respond, continues the key its question was
// asked under, as walk() has it); every command in the records' seat's name held by one of them; no
// change of the seat that none of its devices had seen before a command in its name; each rotation that
// refused a bound command named (commitment_moved).
export function sentProblems(events, sent) {
  const refused = refusedFaces(events);
  const mine = new Map(sent.filter((s) => s && typeof s.command_id === "string" && !s.refused).map((s) => [s.command_id, s.entropy || ""]));
  const out = movedProblems(events, sent);
  const seen = new Set();
  const asked = new Map(); // reaction id -> the dice_key it was asked under
  let continued = null, previous; // the key this command's dice continue, when it answers not as a seat
  for (const e of events) {
    seen.add(e.command_id);
    const d = e.data || {};
    if (e.command_id !== previous) { previous = e.command_id; continued = continuedKey(e, asked); }
    if (e.type === "ReactionRequested" && typeof d.id === "string") asked.set(d.id, d.dice_key ?? null);
    if (e.type !== "DieRolled" || (d.source === "manual" && !refused.has(e.seq))) continue;
    const key = d.keyed_command_id || e.command_id;
    const want = continued ? continued.command_id : e.command_id;
    if (mine.has(e.command_id) && key !== want) {
      out.push({ kind: "sent", seq: e.seq, message: `seq ${e.seq}: the dice of your command ${JSON.stringify(e.command_id)} are keyed by ${JSON.stringify(key)}, not by ${continued ? `${JSON.stringify(want)}, the command whose question it answers` : "your command"}` });
    } else if (mine.has(key) && d.entropy !== mine.get(key)) {
      out.push({ kind: "sent", seq: e.seq, message: `seq ${e.seq}: the dice keyed by your command ${JSON.stringify(key)} use entropy ${JSON.stringify(d.entropy)}, but you sent ${JSON.stringify(mine.get(key))}` });
    }
  }
  for (const id of mine.keys()) if (!seen.has(id)) out.push({ kind: "sent", seq: null, message: `your command ${JSON.stringify(id)} is not in the stream` });
  return [...out, ...seatProblems(events, sent)];
}

function movedProblems(events, sent) {
  const replaced = new Map(commitmentTimeline(events).map((c) => [c.commitment, c.revealed_at_seq]));
  const out = [];
  for (const s of sent) {
    const refusal = s && s.refused;
    if (!refusal || typeof refusal !== "object" || refusal.code !== "commitment_moved") continue;
    const pinned = s.expected_commitment || (refusal.details || {}).expected;
    const at = replaced.get(pinned) ?? null;
    out.push({ kind: "commitment_moved", seq: at, message: at !== null
      ? `seq ${at}: the dice seed was rotated after your command ${JSON.stringify(s.command_id)} was sent bound to commitment ${pinned}; it was refused and nothing was rolled`
      : `your command ${JSON.stringify(s.command_id)} was refused for commitment ${pinned}, which this stream never replaced` });
  }
  return out;
}

// Each command's first event: the commands in a seat's name are judged once each.
function commandStarts(events) {
  const out = [];
  let previous;
  for (const e of events) if (e.command_id !== previous) { previous = e.command_id; out.push(e); }
  return out;
}

function seatProblems(events, sent) {
  const seats = new Set(sent.filter((s) => s && typeof s.seat === "string").map((s) => s.seat));
  const held = new Set(sent.map((s) => s && s.command_id));
  const out = [];
  for (const e of commandStarts(events)) {
    const actor = String(e.actor);
    if (actor.startsWith("seat:") && seats.has(actor.slice(5)) && !held.has(e.command_id)) {
      out.push({ kind: "sent", seq: e.seq, message: `seq ${e.seq}: command ${JSON.stringify(e.command_id)} (${e.type}) is in the name of your seat ${JSON.stringify(actor.slice(5))}, but none of your sent records holds it` });
    }
  }
  return [...out, ...unseenSeatChanges(events, sent)];
}

// A SeatChanged of the player's seat none of its devices had seen (a record's seen_seq) before a command
// in the seat's name (verifying.py unseen_seat_changes).
function unseenSeatChanges(events, sent) {
  const seen = new Map();
  for (const s of sent) {
    if (s && typeof s.seat === "string" && Number.isInteger(s.seen_seq)) {
      if (!seen.has(s.seat)) seen.set(s.seat, []);
      seen.get(s.seat).push([String(s.command_id), s.seen_seq]);
    }
  }
  const at = new Map();
  for (const e of commandStarts(events)) if (!at.has(e.command_id)) at.set(e.command_id, e.seq);
  const out = [], changes = new Map(), flagged = new Set();
  let previous;
  for (const e of events) {
    const d = e.data || {};
    if (e.type === "SeatChanged" && seen.has(d.seat)) {
      if (!changes.has(d.seat)) changes.set(d.seat, []);
      changes.get(d.seat).push(e);
    }
    if (e.command_id === previous) continue;
    previous = e.command_id;
    const actor = String(e.actor);
    const seat = actor.startsWith("seat:") ? actor.slice(5) : null;
    if (!seen.has(seat)) continue;
    const known = Math.max(0, ...seen.get(seat).filter(([cid]) => cid === e.command_id || (at.get(cid) ?? e.seq) < e.seq).map(([, n]) => n));
    for (const change of changes.get(seat) || []) {
      if (change.seq > known && !flagged.has(change.seq)) {
        flagged.add(change.seq);
        out.push({ kind: "sent", seq: change.seq, message: `seq ${change.seq}: your seat ${JSON.stringify(seat)} was changed (now ${JSON.stringify(change.data.name)}, combatants ${JSON.stringify(change.data.combatants)}) and command ${JSON.stringify(e.command_id)} at seq ${e.seq} was accepted in its name, but none of your devices had seen seq ${change.seq} when it sent: the seat was changed behind your back` });
      }
    }
  }
  return out;
}

// Manual faces the encounter's rules let nobody supply (rules/supplied_dice.py, section 5): with server
// dice none; otherwise a player's only where option manual_dice_from is "actor". Judged on the dice
// source and options the stream itself published; seq -> the problem's message.
export function refusedFaces(events) {
  let dice = "server", options = {};
  const refused = new Map();
  for (const e of events) {
    const d = e.data || {};
    if (e.type === "EncounterCreated") { dice = d.dice ?? "server"; options = { ...(d.options || {}) }; }
    else if (e.type === "OptionsChanged" && d.options && typeof d.options === "object") options = { ...options, ...d.options };
    if (e.type !== "DieRolled" || d.source !== "manual") continue;
    const what = `faces ${JSON.stringify(d.faces)} (${d.purpose})`;
    if (dice === "server") {
      refused.set(e.seq, `seq ${e.seq}: manual faces in an encounter whose dice are the server's: ${what}, but no command may supply faces there`);
    } else if (e.actor !== "gm" && (options.manual_dice_from ?? "gm") !== "actor") {
      refused.set(e.seq, `seq ${e.seq}: manual faces from ${e.actor}: ${what}, but only the GM may supply dice faces in this encounter (option manual_dice_from is gm)`);
    }
  }
  return refused;
}

function markRoll(e, commitment, timeline, cache) {
  const d = e.data || {};
  const roll = { seq: e.seq, purpose: d.purpose, commitment, mark: MANUAL, problem: null };
  if (d.source === "manual") return roll;
  const c = timeline.get(commitment || "");
  if (!c) return { ...roll, mark: FAILED, problem: "no dice commitment was in force for this roll" };
  if (c.revealed_seed === null) return { ...roll, mark: NOT_YET_REVEALED };
  // Never recompute from a seed that fails its commitment: the fault is the reveal, named at its seq.
  if (!c.seed_matches) return { ...roll, mark: SEED_FAILED, failed_at: c.revealed_at_seq, problem: `the seed revealed at seq ${c.revealed_at_seq} does not hash to its commitment` };
  const key = `${e.hash}|${c.revealed_seed}`;
  if (!cache.has(key)) {
    let want = null;
    try {
      const seed = fromHex(c.revealed_seed);
      // The keying command (DESIGN.md: `keyed_command_id`, absent = the envelope's).
      const keyedBy = d.keyed_command_id || e.command_id;
      want = d.draws.map((draw) => dieFace(seed, e.stream, keyedBy, draw, d.sides, d.entropy ?? ""));
    } catch { want = null; }
    cache.set(key, want);
  }
  const want = cache.get(key);
  if (want === null) return { ...roll, mark: FAILED, problem: "the roll lacks sides, draws or entropy to recompute it" };
  if (canonical(want) !== canonical(d.faces ?? null)) {
    return { ...roll, mark: FAILED, expected_faces: want, problem: `faces ${JSON.stringify(d.faces)} do not match the seed, which gives ${JSON.stringify(want)}` };
  }
  return { ...roll, mark: VERIFIED };
}

// The whole report for a list of events (and, for an export, its trailer): as GET /verify says it.
export function report(chain, trailer = null, cache = new Map(), discordKeys = null) {
  const problems = [...chain.problems];
  const events = chain.events;
  const timeline = commitmentTimeline(events);
  for (const c of timeline) {
    if (c.revealed_seed !== null && !c.seed_matches) {
      problems.push({ kind: "seed", seq: c.revealed_at_seq, message: `the seed revealed at seq ${c.revealed_at_seq} does not hash to commitment ${c.commitment}` });
    }
  }
  const rolls = auditRolls(events, cache);
  for (const r of rolls) if (r.mark === FAILED) problems.push({ kind: "dice", seq: r.seq, message: r.message ?? `seq ${r.seq} (${r.purpose}): ${r.problem}` });
  problems.push(...keyProblems(events, cache), ...declarationProblems(events));
  // The Discord application's keys: those given (the live page: GET /keys), else the export trailer's.
  problems.push(...discordProblems(events, discordKeys ?? (trailer && Array.isArray(trailer.discord_public_keys) ? trailer.discord_public_keys : null)));
  const hidden = auditHidden(events, cache);
  problems.push(...hidden.problems);
  if (trailer) {
    if (trailer.head_seq !== chain.head.seq || trailer.head_hash !== chain.head.hash) {
      problems.push({ kind: "trailer", seq: null, message: `the trailer names head seq ${trailer.head_seq}, but the stream ends at seq ${chain.head.seq} hash ${chain.head.hash}` });
    }
    const published = timeline.map((c) => c.commitment);
    if (trailer.commitments && canonical(trailer.commitments) !== canonical(published)) {
      problems.push({ kind: "trailer", seq: null, message: "the trailer's commitments are not the ones the stream published" });
    }
  }
  const seqs = problems.map((p) => p.seq).filter((s) => typeof s === "number");
  const count = (m) => rolls.filter((r) => r.mark === m).length;
  return {
    ok: problems.length === 0, chain_ok: chain.problems.length === 0,
    first_bad_seq: seqs.length ? Math.min(...seqs) : null, events_checked: events.length,
    rolls, rolls_checked: rolls.length, rolls_verified: count(VERIFIED), rolls_failed: count(FAILED) + count(SEED_FAILED),
    rolls_not_yet_revealed: count(NOT_YET_REVEALED), rolls_manual: count(MANUAL),
    head: chain.head, problems, commitments: timeline, hidden: hidden.rolls,
    // Only where there are hidden rolls, as GET /verify counts them.
    ...(hidden.rolls.length ? {
      hidden_rolls: hidden.rolls.length, hidden_rolls_revealed: hidden.rolls.filter((r) => r.revealed_at_seq !== null).length,
      hidden_rolls_verified: hidden.rolls.filter((r) => r.mark === VERIFIED).length,
    } : {}),
  };
}

// What a client kept, checked beside the stream (as `tussle verify --receipts --sent --keys`): kept
// receipts, sent records, and the server's public receipt keys (else the export trailer's).
export function keptProblems(events, { receipts = null, sent = null, keys = null, trailer = null, complete = true } = {}) {
  const out = [];
  const publicKeys = keys ?? (trailer && Array.isArray(trailer.receipt_keys) ? trailer.receipt_keys : null);
  if (receipts) out.push(...receiptProblems(events, receipts, complete, publicKeys));
  if (sent) out.push(...sentProblems(events, sent));
  return out;
}

export function withProblems(rep, extra) {
  if (!extra.length) return rep;
  const problems = [...rep.problems, ...extra];
  const seqs = problems.map((p) => p.seq).filter((s) => typeof s === "number");
  return { ...rep, ok: false, problems, first_bad_seq: seqs.length ? Math.min(...seqs) : null };
}

// A JSONL export (tussle export, or GET /events as NDJSON): envelopes, then a trailer line; `kept`: what
// the client kept (keptProblems).
export function verifyExport(text, kept = {}) {
  const chain = new Chain();
  let trailer = null;
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    let obj;
    try { obj = JSON.parse(line); } catch { chain.problem("format", null, `line ${i + 1} is not JSON`); return; }
    if (obj && typeof obj === "object" && Object.keys(obj).length === 1 && obj.trailer) { trailer = obj.trailer; return; }
    if (!obj || typeof obj !== "object" || typeof obj.seq !== "number" || !obj.data || typeof obj.hash !== "string") {
      chain.problem("format", null, `line ${i + 1} is not an event envelope`);
      return;
    }
    chain.push(obj);
  });
  if (!chain.events.length) chain.problem("format", null, "the file holds no events");
  return withProblems(report(chain, trailer), keptProblems(chain.events, { ...kept, trailer }));
}


export function badgeText(roll) {
  switch (roll.mark) {
    case VERIFIED: return "verified";
    case NOT_YET_REVEALED: return "not yet revealed";
    case MANUAL: return "manual dice (not verifiable)";
    case HIDDEN: return "hidden — committed";
    default: return `FAILED at seq ${roll.failed_at ?? roll.seq}`;
  }
}

// ---- the GM's hidden rolls, behind the screen (docs/verifying.md §5 "Hidden rolls") ----

export const HIDDEN = "hidden";

// A recorded roll expression (events/dice_expressions.py's grammar): its dice terms and constant; null
// when it cannot be read.
const TERM = /([+-]?)(?:([0-9]*)d([0-9]+)(?:k([hl])([0-9]+))?|([0-9]+))/y;

export function parseExpression(text) {
  const s = String(text).replace(/ /g, "").toLowerCase();
  const terms = [];
  let constant = 0, pos = 0;
  while (pos < s.length) {
    TERM.lastIndex = pos;
    const m = TERM.exec(s);
    if (!m || TERM.lastIndex === pos || (pos > 0 && !m[1])) return null;
    const sign = m[1] === "-" ? -1 : 1;
    if (m[6] !== undefined) constant += sign * Number(m[6]);
    else {
      const count = m[2] ? Number(m[2]) : 1;
      terms.push({ sign, count, sides: Number(m[3]), keep: m[4] || null, keepN: m[4] ? Number(m[5]) : count });
    }
    pos = TERM.lastIndex;
  }
  return terms.length ? { terms, constant } : null;
}

// The expression's total for these faces (one list per dice term); null when they do not fit its terms.
export function expressionTotal(expression, faces) {
  const expr = parseExpression(expression);
  if (!expr || !Array.isArray(faces) || faces.length !== expr.terms.length) return null;
  let total = expr.constant;
  for (let i = 0; i < faces.length; i++) {
    const t = expr.terms[i], group = faces[i];
    if (!Array.isArray(group) || group.length !== t.count || group.some((f) => !Number.isInteger(f) || f < 1 || f > t.sides)) return null;
    const sorted = [...group].sort((a, b) => (t.keep === "h" ? b - a : a - b));
    total += t.sign * (t.keep ? sorted.slice(0, t.keepN) : group).reduce((a, b) => a + b, 0);
  }
  return total;
}

export function hiddenRollCommitment(faces, salt) {
  return toHex(sha256(utf8.encode(canonical({ faces, salt }))));
}

export function hiddenSalt(seed, stream, commandId, entropy) {
  return toHex(hmac(sha256, seed, utf8.encode(canonical(["tussle-hidden-salt-v1", stream, commandId, entropy]))));
}

// A hidden roll's faces under the hidden seed: the ordinary die, draws 0, 1, 2 … across the terms.
export function hiddenFaces(seed, stream, commandId, entropy, expression) {
  const expr = parseExpression(expression);
  if (!expr) return null;
  let draw = 0;
  return expr.terms.map((t) => Array.from({ length: t.count }, () => dieFace(seed, stream, commandId, draw++, t.sides, entropy)));
}

// The faces as the log shows them: 4+2+6 = 12.
export function shownFaces(faces, total) {
  return `${faces.flat().join("+")} = ${total}`;
}

// Every HiddenRollMade with its mark (hidden while only committed, verified once its reveal hashes to the
// commitment and, with the hidden seed revealed, the seed gives that commitment), and the problems as
// GET /verify names them (kinds `hidden` and `seed`).
export function auditHidden(events, cache = new Map()) {
  const made = new Map(), problems = [];
  const bad = (roll, seq, message, kind = "hidden") => {
    problems.push({ kind, seq, message });
    if (roll && roll.mark !== FAILED) Object.assign(roll, { mark: FAILED, failed_at: seq, problem: message });
  };
  const committed = events.length && events[0].type === "EncounterCreated" ? events[0].data.hidden_commitment : null;
  let seedEvent = null, seed = null;
  for (const e of events) {
    const d = e.data || {};
    if (e.type === "HiddenRollMade") {
      made.set(e.seq, { seq: e.seq, expression: d.expression, purpose: d.purpose, combatant: d.combatant ?? null,
        mark: HIDDEN, problem: null, failed_at: null, faces: null, total: null, revealed_at_seq: null, event: e });
    } else if (e.type === "HiddenRollRevealed") {
      const roll = made.get(d.seq);
      if (!roll) { bad(null, e.seq, `seq ${e.seq} reveals seq ${d.seq}, which is no earlier hidden roll`); continue; }
      if (roll.revealed_at_seq !== null) { bad(null, e.seq, `seq ${e.seq} reveals the hidden roll at seq ${d.seq} again (first at seq ${roll.revealed_at_seq})`); continue; }
      Object.assign(roll, { revealed_at_seq: e.seq, faces: d.faces, total: d.total });
      let hash = null;
      try { hash = hiddenRollCommitment(d.faces, d.salt); } catch { hash = null; }
      if (!Array.isArray(d.faces) || typeof d.salt !== "string" || hash !== roll.event.data.commitment) {
        bad(roll, e.seq, `seq ${e.seq}: the faces revealed for the hidden roll at seq ${d.seq} (${JSON.stringify(d.faces)}) with their salt do not hash to the commitment made at seq ${d.seq}: the roll was changed after it was made`);
        continue;
      }
      const total = expressionTotal(roll.expression, d.faces);
      if (total === null) bad(roll, e.seq, `seq ${e.seq}: the faces revealed for seq ${d.seq} do not fit ${roll.expression}`);
      else if (total !== d.total) bad(roll, e.seq, `seq ${e.seq}: total ${d.total}, but ${roll.expression} with faces ${JSON.stringify(d.faces)} gives ${total}`);
      else roll.mark = VERIFIED;
    } else if (e.type === "HiddenSeedRevealed" && !seedEvent) {
      seedEvent = e;
      if (committed && d.commitment === committed && seedMatches(d.revealed_seed, committed)) seed = fromHex(d.revealed_seed);
      else bad(null, e.seq, `the hidden seed revealed at seq ${e.seq} does not hash to the hidden commitment ${committed} published at seq 1`, "seed");
    }
  }
  if (seed) {
    for (const roll of made.values()) {
      const d = roll.event.data;
      const key = `hidden|${roll.event.hash}|${seedEvent.data.revealed_seed}`;
      if (!cache.has(key)) {
        let want = null;
        try {
          const faces = hiddenFaces(seed, roll.event.stream, d.keyed_command_id, d.entropy, d.expression);
          want = faces && hiddenRollCommitment(faces, hiddenSalt(seed, roll.event.stream, d.keyed_command_id, d.entropy));
        } catch { want = null; }
        cache.set(key, want);
      }
      if (cache.get(key) !== d.commitment) bad(roll, roll.seq, `seq ${roll.seq}: the hidden roll's commitment is not what the hidden seed revealed at seq ${seedEvent.seq} gives for its inputs`);
      else if (roll.revealed_at_seq === null) bad(roll, seedEvent.seq, `the hidden roll at seq ${roll.seq} was never revealed, though the hidden seed was (seq ${seedEvent.seq})`);
    }
  }
  const rolls = [...made.values()].map(({ event, ...r }) => r);
  return { rolls, problems, seed_revealed_at_seq: seed ? seedEvent.seq : null };
}
