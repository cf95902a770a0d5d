// The receipts of one encounter's own commands, (seq, hash) and the signed receipt per 201, kept in this browser: the view page
// checks them against the stream; the landing page keeps the create answer's as the first (seq 1).

function key(stream) { return `tussle-receipts:${stream}`; }

export function receipts(stream) {
  try { return JSON.parse(localStorage.getItem(key(stream)) || "[]"); } catch { return []; }
}

export function keepReceipt(stream, r) {
  if (!r || typeof r.seq !== "number" || typeof r.hash !== "string") return;
  try {
    const all = receipts(stream);
    // The signed receipt too, where the server gave one: it proves what the server said (GET /keys).
    if (!all.some((x) => x.seq === r.seq)) all.push({ seq: r.seq, hash: r.hash, ...(r.receipt && typeof r.receipt === "object" ? { receipt: r.receipt } : {}) });
    localStorage.setItem(key(stream), JSON.stringify(all));
  } catch { /* private mode: receipts are not kept */ }
}

// What this browser sent, per encounter: each command's id and entropy (what keyed its dice), the
// commitment it was bound to, and the server's answer: its receipt, or the refusal (a refused command
// appends nothing, so this record is the player's only proof of it). `tussle verify --sent` reads it.
function sentKey(stream) { return `tussle-sent:${stream}`; }

export function sentRecord(stream) {
  try { return JSON.parse(localStorage.getItem(sentKey(stream)) || "[]"); } catch { return []; }
}

export function keepSent(stream, entry) {
  try {
    const all = sentRecord(stream);
    all.push(entry);
    localStorage.setItem(sentKey(stream), JSON.stringify(all));
  } catch { /* private mode: the record is not kept */ }
}

// Replace the record of one send (by its command_id) with what the server answered: a send kept before it
// went out (so the event it makes never arrives ahead of its record) learns here that it was refused.
export function updateSent(stream, commandId, patch) {
  try {
    const all = sentRecord(stream).map((s) => (s && s.command_id === commandId ? { ...s, ...patch } : s));
    localStorage.setItem(sentKey(stream), JSON.stringify(all));
  } catch { /* private mode: the record is not kept */ }
}
