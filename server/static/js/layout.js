// Small pieces of the page's layout for people: deadlines in the reader's own time, an inline "are you
// sure?" before what cannot be undone, and the log folded by turn.

import { el } from "./api.js";

// "in 3 h 12 min (21:36)", "2 min ago (21:36)": relative, and the clock time in the viewer's zone.
export function whenText(iso, now = Date.now()) {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return String(iso);
  const diff = at - now;
  const mins = Math.round(Math.abs(diff) / 60000);
  const span = mins < 1 ? "less than a minute" : mins < 60 ? `${mins} min` : mins < 60 * 48 ? `${Math.floor(mins / 60)} h ${mins % 60} min` : `${Math.round(mins / 1440)} days`;
  const clock = new Date(at).toLocaleString(undefined, { hour: "2-digit", minute: "2-digit", ...(Math.abs(diff) > 20 * 3600e3 ? { weekday: "short", day: "numeric", month: "short" } : {}) });
  return `${diff >= 0 ? `in ${span}` : `${span} ago`} (${clock})`;
}

// A deadline as an element that keeps itself up to date (see refreshDeadlines).
export function deadlineEl(iso) {
  return el("time", { datetime: iso, class: "deadline", "data-deadline": iso, title: iso }, whenText(iso));
}

export function refreshDeadlines(root = document) {
  for (const t of root.querySelectorAll("time[data-deadline]")) t.textContent = whenText(t.dataset.deadline);
}

/**
 * Ask before an irreversible step, in the page (no modal dialog): the question and two buttons appear
 * after `anchor`; resolves true for yes. Focus goes to "No", the safe answer.
 */
export function confirmInline(anchor, question, yesLabel) {
  const old = anchor.parentNode && anchor.parentNode.querySelector(":scope > .confirm");
  if (old) old.remove();
  return new Promise((resolve) => {
    const done = (answer) => { box.remove(); resolve(answer); };
    const no = el("button", { type: "button", class: "small", onclick: () => done(false) }, "No, keep it");
    const box = el("div", { class: "confirm", role: "alertdialog", "aria-label": question },
      el("p", {}, question), el("button", { type: "button", class: "danger", onclick: () => done(true) }, yesLabel), no);
    anchor.after(box);
    no.focus();
  });
}

// The log as one <details> per turn: the newest open, the others folded, and a reader's own
// opening or folding kept across the page's redraws.
const foldedByReader = new Map();

export function turnSection(key, title, body, newest) {
  const summary = el("summary", {}, title);
  const d = el("details", { class: "turn", "data-turn": key }, summary, body);
  d.open = foldedByReader.has(key) ? foldedByReader.get(key) : newest;
  // A click (Enter and Space too) on the summary is the reader's; the page's own opening is not.
  summary.addEventListener("click", () => foldedByReader.set(key, !d.open));
  return d;
}
