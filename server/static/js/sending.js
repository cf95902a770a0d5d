// Sending a command so that a lost answer never re-rolls: the command's id and entropy are fixed once,
// and a send that got no definite answer (the network failed, it timed out, a 5xx such as 503) is sent
// again, the same bytes, with backoff and the server's Retry-After, until it gets one. The server
// answers a resent command_id with the events it stored the first time (API.md "command_id"), so the
// dice are the same. A refusal (4xx) is an answer: it is never resent, and the next action is new.

import { ApiError } from "./api.js";

const TIMEOUT_MS = 15000;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Seconds (or an HTTP date) to milliseconds; null when the header says nothing usable.
function retryAfterMs(header) {
  if (!header) return null;
  const s = Number(header);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

// One POST; {answer} for a definite answer (2xx, or a 4xx other than 408), {retryIn, why} otherwise.
async function attempt(path, headers, text) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  try {
    const r = await fetch(path, { method: "POST", headers, body: text, cache: "no-store", signal: abort.signal });
    const raw = await r.text();
    let data = null;
    try { data = raw ? JSON.parse(raw) : null; } catch { data = raw; }
    if (r.ok) return { answer: data };
    if (r.status >= 500 || r.status === 408 || r.status === 429) {
      return { retryIn: retryAfterMs(r.headers.get("Retry-After")), why: `the server answered ${r.status}` };
    }
    return { error: new ApiError(r.status, data) };
  } catch (err) {
    return { retryIn: null, why: abort.signal.aborted ? "no answer in time" : "the connection failed" };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * POST `body` (its command_id and entropy already set) to `path` until the server answers it.
 * `onWait({attempt, why, delayMs})` is told before each resend. Resolves to the answer, rejects with
 * the ApiError of a refusal.
 */
export async function postUntilAnswered(path, token, body, { onWait } = {}) {
  const headers = { Accept: "application/json", "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const text = JSON.stringify(body); // the very same bytes every time
  let delay = FIRST_DELAY_MS;
  for (let n = 1; ; n++) {
    const r = await attempt(path, headers, text);
    if ("answer" in r) return r.answer;
    if (r.error) throw r.error;
    const wait = r.retryIn ?? delay;
    if (onWait) onWait({ attempt: n, why: r.why, delayMs: wait });
    await sleep(wait);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}
