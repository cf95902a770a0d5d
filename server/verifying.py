"""Verification of an encounter's stream, shared by `GET /verify` and the offline `tussle verify`.

It recomputes the hash chain, checks every revealed seed against its commitment and every server die
against the revealed seed (docs/verifying.md says exactly how), and optionally checks an export's
trailer and a client's saved receipts. It trusts nothing but the events it is given.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from events.envelope import ZERO_HASH, Event, chain_links
from projections.audit import FAILED, MANUAL, NOT_YET_REVEALED, VERIFIED, audit_rolls, commitment_timeline


class Problem(msgspec.Struct, frozen=True, omit_defaults=True):
    """One thing wrong: its kind (format, chain, seed, dice, trailer, receipt), the seq, a sentence."""

    kind: str
    message: str
    seq: int | None = None


def chain_problems(events: list[Event]) -> list[Problem]:
    """Seq gaps, foreign streams, broken links and hashes that do not match their event's body."""
    problems: list[Problem] = []
    stream = events[0].stream if events else None
    for expected_seq, (e, prev_hash, body_hash) in enumerate(chain_links(events), start=1):
        if e.seq != expected_seq:
            problems.append(Problem("chain", f"expected seq {expected_seq} here, found seq {e.seq}", e.seq))
        if e.stream != stream:
            problems.append(Problem("chain", f"seq {e.seq} belongs to stream {e.stream!r}, not {stream!r}", e.seq))
        if e.prev_hash != prev_hash:
            problems.append(Problem("chain", f"seq {e.seq}: prev_hash {e.prev_hash} is not the hash of the "
                                             f"event before it ({prev_hash})", e.seq))
        if body_hash != e.hash:
            problems.append(Problem("chain", f"seq {e.seq}: the stored hash {e.hash} does not match the event's "
                                             f"content, which hashes to {body_hash}", e.seq))
    return problems


def trailer_problems(events: list[Event], trailer: dict[str, Any]) -> list[Problem]:
    """The export's last line must name the head and the commitments the stream published."""
    problems = []
    head_seq, head_hash = (events[-1].seq, events[-1].hash) if events else (0, ZERO_HASH)
    if trailer.get("head_seq") != head_seq or trailer.get("head_hash") != head_hash:
        problems.append(Problem("trailer", f"the trailer names head seq {trailer.get('head_seq')} hash "
                                           f"{trailer.get('head_hash')}, but the stream ends at seq {head_seq} "
                                           f"hash {head_hash}"))
    published = [c["commitment"] for c in commitment_timeline(events)]
    if "commitments" in trailer and trailer["commitments"] != published:
        problems.append(Problem("trailer", f"the trailer lists commitments {trailer['commitments']}, the stream "
                                           f"published {published}"))
    return problems


def receipt_problems(events: list[Event], receipts: Iterable[dict[str, Any]]) -> list[Problem]:
    """Each saved (seq, hash) receipt must match the stream's event at that seq."""
    by_seq = {e.seq: e for e in events}
    problems = []
    for r in receipts:
        seq, h = r.get("seq"), r.get("hash")
        e = by_seq.get(seq) if isinstance(seq, int) else None
        if e is None:
            problems.append(Problem("receipt", f"a receipt names seq {seq}, which the stream does not hold",
                                    seq if isinstance(seq, int) else None))
        elif e.hash != h:
            problems.append(Problem("receipt", f"seq {seq}: the receipt says hash {h}, the stream says {e.hash}: "
                                               "the stream was rewritten after the receipt was given", seq))
    return problems


def verify_events(events: list[Event], *, trailer: dict[str, Any] | None = None,
                  receipts: Iterable[dict[str, Any]] | None = None,
                  format_problems: list[Problem] | None = None) -> dict[str, Any]:
    """The verification report: {ok, chain_ok, first_bad_seq, rolls_*, problems, head}."""
    problems: list[Problem] = list(format_problems or [])
    chain = chain_problems(events)
    problems += chain
    for c in commitment_timeline(events):
        if c["revealed_seed"] is not None and not c["seed_matches"]:
            problems.append(Problem("seed", f"the seed revealed at seq {c['revealed_at_seq']} does not hash to "
                                            f"commitment {c['commitment']}", c["revealed_at_seq"]))
    rolls = audit_rolls(events)
    for r in rolls:
        if r["mark"] == FAILED:
            problems.append(Problem("dice", f"seq {r['seq']} ({r['purpose']}): {r['problem']}", r["seq"]))
    if trailer is not None:
        problems += trailer_problems(events, trailer)
    if receipts is not None:
        problems += receipt_problems(events, receipts)
    bad = [p.seq for p in problems if p.seq is not None]
    marks = [r["mark"] for r in rolls]
    return {
        "ok": not problems,
        "chain_ok": not chain,
        "first_bad_seq": min(bad) if bad else None,
        "events_checked": len(events),
        "rolls_checked": len(rolls),
        "rolls_verified": marks.count(VERIFIED),
        "rolls_failed": marks.count(FAILED),
        "rolls_unverifiable": marks.count(NOT_YET_REVEALED) + marks.count(MANUAL),
        "rolls_not_yet_revealed": marks.count(NOT_YET_REVEALED),
        "rolls_manual": marks.count(MANUAL),
        "head": {"seq": events[-1].seq, "hash": events[-1].hash} if events else {"seq": 0, "hash": ZERO_HASH},
        "problems": [msgspec.to_builtins(p) for p in problems],
    }


def parse_export(raw: bytes) -> tuple[list[Event], dict[str, Any] | None, list[Problem]]:
    """Envelopes, the trailer (if any) and format problems of a JSONL export."""
    events: list[Event] = []
    trailer = None
    problems: list[Problem] = []
    for n, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = msgspec.json.decode(line)
        except msgspec.DecodeError as exc:
            problems.append(Problem("format", f"line {n} is not JSON: {exc}"))
            continue
        if isinstance(obj, dict) and set(obj) == {"trailer"}:
            trailer = obj["trailer"]
            continue
        if isinstance(obj, dict) and set(obj) == {"secrets"}:
            continue  # `tussle export --with-secrets`: seeds and token hashes for `tussle import`, not the record
        try:
            events.append(msgspec.convert(obj, Event, strict=True))
        except msgspec.ValidationError as exc:
            problems.append(Problem("format", f"line {n} is not an event envelope: {exc}"))
    return events, trailer, problems


def parse_receipts(raw: bytes) -> list[dict[str, Any]]:
    """A receipts file: JSONL of {seq, hash} (a JSON array of them works too)."""
    text = raw.strip()
    if text.startswith(b"["):
        return list(msgspec.json.decode(text))
    return [msgspec.json.decode(line) for line in text.splitlines() if line.strip()]


def verify_export(raw: bytes, receipts: bytes | None = None) -> dict[str, Any]:
    """Verify an exported stream (and optionally a receipts file) from bytes alone."""
    events, trailer, problems = parse_export(raw)
    if not events:
        problems.append(Problem("format", "the file holds no events"))
    return verify_events(events, trailer=trailer, format_problems=problems,
                         receipts=parse_receipts(receipts) if receipts is not None else None)


def report_text(report: dict[str, Any], name: str) -> str:
    """The report as lines a person reads."""
    head = report["head"]
    lines = []
    if report["ok"]:
        lines.append(f"{name}: OK — {report['events_checked']} events, the chain holds up to seq {head['seq']} "
                     f"(hash {head['hash']}).")
    else:
        lines.append(f"{name}: FAILED — first bad seq {report['first_bad_seq']}, "
                     f"{len(report['problems'])} problem(s):")
        lines += [f"  [{p['kind']}] {p['message']}" for p in report["problems"]]
    lines.append(f"Rolls: {report['rolls_checked']} checked, {report['rolls_verified']} verified, "
                 f"{report['rolls_failed']} failed, {report['rolls_not_yet_revealed']} not yet revealed, "
                 f"{report['rolls_manual']} manual.")
    return "\n".join(lines)
