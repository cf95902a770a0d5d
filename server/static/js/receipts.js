// The receipts of one encounter's own commands, (seq, hash) per 201, kept in this browser: the view page
// checks them against the stream; the landing page keeps the create answer's as the first (seq 1).

function key(stream) { return `tussle-receipts:${stream}`; }

export function receipts(stream) {
  try { return JSON.parse(localStorage.getItem(key(stream)) || "[]"); } catch { return []; }
}

export function keepReceipt(stream, r) {
  if (!r || typeof r.seq !== "number" || typeof r.hash !== "string") return;
  try {
    const all = receipts(stream);
    if (!all.some((x) => x.seq === r.seq)) all.push({ seq: r.seq, hash: r.hash });
    localStorage.setItem(key(stream), JSON.stringify(all));
  } catch { /* private mode: receipts are not kept */ }
}
