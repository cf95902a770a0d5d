// The token this browser was given for an encounter, remembered per encounter in localStorage: a link
// without a token (a notice's, posted where everyone reads it) then opens as that seat here, and only
// here. "Forget this device" removes it; a token the GM has replaced is forgotten when the server says so.

import { el, linkRow } from "./api.js";

const key = (stream) => `tussle-token:${stream}`;

export function rememberedToken(stream) {
  try { return localStorage.getItem(key(stream)); } catch { return null; }
}

export function rememberToken(stream, token) {
  try { localStorage.setItem(key(stream), token); } catch { /* private mode: the link still works */ }
}

export function forgetToken(stream) {
  try { localStorage.removeItem(key(stream)); } catch { /* nothing kept */ }
}

// A token's link is shown this once (the server keeps only a hash of it): copy it now.
export function onceLink(label, url) {
  const row = linkRow(label, url);
  row.append(el("small", { class: "help once" }, " Shown only this once: the server keeps no copy it could show again. Copy it now and hand it over."));
  return row;
}
