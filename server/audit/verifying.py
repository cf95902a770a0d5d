"""Verification of an encounter's stream, shared by `GET /verify` and the offline `tussle verify`.

It recomputes the hash chain, checks every revealed seed against its commitment and every server die
against the revealed seed (docs/verifying.md says exactly how), and optionally checks an export's
trailer and a client's saved receipts. It trusts nothing but the events it is given.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from events.common import newer_version
from events.dice import is_commitment
from events.envelope import ZERO_HASH, Event, event_hash
from events.store.receipt_key import signature_problem
from projections.audit import (
    FAILED,
    MANUAL,
    NOT_YET_REVEALED,
    SEED_FAILED,
    VERIFIED,
    RollWalk,
    commitment_timeline,
    continued_key,
    keying_command,
)
from rules.registry import Registry
from rules.supplied_dice import refused_faces
from server.audit.replaying import GIVEN, replay_stream
from server.audit.verifying_discord import DiscordClaims
from server.audit.verifying_hidden import HiddenRolls


class Problem(msgspec.Struct, frozen=True, omit_defaults=True):
    """One thing wrong: its kind (format, chain, seed, dice, trailer, receipt), the seq, a sentence."""

    kind: str
    message: str
    seq: int | None = None


def _runs(seqs: list[int]) -> list[tuple[int, int]]:
    """Sorted seqs as (first, last) runs of consecutive numbers."""
    runs: list[tuple[int, int]] = []
    for n in seqs:
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


def _span(first: int, last: int) -> str:
    return f"seq {first}" if first == last else f"seqs {first}-{last}"


def chain_problems(
    events: list[Event], after: tuple[int, str] = (0, ZERO_HASH), stream: str | None = None
) -> list[Problem]:
    """Missing, repeated and out-of-order seqs, foreign streams, broken links and hashes that do not match
    their event's body, each named where it is: a missing event by its own seq, an out-of-order one at the
    first position that holds the wrong seq, an edited one at itself (links are checked seq to seq, so an
    event is not blamed for a neighbour that is missing or moved). `after`: the (seq, hash) of the last
    event already checked, which the first of `events` links to; `stream`: theirs."""
    problems: list[Problem] = []
    if not events:
        return problems
    stream = stream or events[0].stream
    after_seq, after_hash = after
    by_seq: dict[int, Event] = {}
    for e in events:
        if e.seq in by_seq:
            problems.append(Problem("chain", f"seq {e.seq} appears twice in the stream", e.seq))
        else:
            by_seq[e.seq] = e
        if e.stream != stream:
            problems.append(
                Problem("chain", f"seq {e.seq} belongs to stream {e.stream!r}, not {stream!r}", e.seq)
            )
    present = sorted(by_seq)
    for first, last in _runs(sorted(set(range(after_seq + 1, present[-1] + 1)) - set(present))):
        problems.append(
            Problem(
                "chain",
                f"{_span(first, last)} missing: the stream goes from seq {first - 1} to seq {last + 1}",
                first,
            )
        )
    in_order = sorted(events, key=lambda e: e.seq)
    for position, (e, want) in enumerate(zip(events, in_order, strict=True), start=1):
        if e.seq != want.seq:
            problems.append(
                Problem(
                    "chain",
                    f"event {position} of the stream is seq {e.seq} where seq {want.seq} "
                    f"belongs: the events are out of order from seq {want.seq}",
                    want.seq,
                )
            )
            break
    for seq in present:
        e = by_seq[seq]
        before = by_seq.get(seq - 1)
        link = after_hash if seq == after_seq + 1 else before.hash if before is not None else None
        if link is not None and e.prev_hash != link:
            problems.append(
                Problem(
                    "chain",
                    f"seq {seq}: prev_hash {e.prev_hash} is not the hash of the event before it ({link})",
                    seq,
                )
            )
        body_hash = event_hash(
            stream=e.stream,
            seq=e.seq,
            type=e.type,
            data=e.data,
            actor=e.actor,
            command_id=e.command_id,
            ts=e.ts,
            prev_hash=e.prev_hash,
        )
        if body_hash != e.hash:
            problems.append(
                Problem(
                    "chain",
                    f"seq {seq}: the stored hash {e.hash} does not match the event's "
                    f"content, which hashes to {body_hash}",
                    seq,
                )
            )
    return problems


def parse_head(text: str) -> tuple[int, str]:
    """A kept head `SEQ:HASH` (what a 201 answer or a trailer gave); ValueError names what is wrong."""
    seq, _, h = text.partition(":")
    if not seq.isdigit() or not is_commitment(h):
        raise ValueError(f"a head is SEQ:HASH (a seq, a colon, 64 lowercase hex), not {text!r}")
    return int(seq), h


def head_problems(events: list[Event], seq: int, h: str, where: str) -> list[Problem]:
    """A head kept outside the stream (by a client, the store's listing or a trailer) must be in it: a
    stream that ends before it was cut, named at the first missing seq."""
    return known_head_problems(
        {e.seq: e.hash for e in events}, max((e.seq for e in events), default=0), seq, h, where
    )


def known_head_problems(hashes: dict[int, str], last: int, seq: int, h: str, where: str) -> list[Problem]:
    """`head_problems` against the hashes known of a stream that ends at seq `last`."""
    if seq > last:
        return [
            Problem(
                "head",
                f"{where} names head seq {seq}, but the stream ends at seq {last}: "
                f"{_span(last + 1, seq)} were cut off",
                last + 1,
            )
        ]
    if seq == 0 and h == ZERO_HASH:
        return []
    stored = hashes.get(seq)
    if stored is not None and stored != h:
        return [
            Problem(
                "head",
                f"seq {seq}: {where} says hash {h}, the stream says {stored}: the stream was "
                f"rewritten at or before seq {seq}",
                seq,
            )
        ]
    return []


def trailer_problems(events: list[Event], trailer: dict[str, Any]) -> list[Problem]:
    """The export's last line must name the head and the commitments the stream published. (Written by the
    same export, it cannot prove a tail was not cut: only a head or a receipt kept elsewhere can.)"""
    problems = []
    last = max(events, key=lambda e: e.seq) if events else None
    head_seq, head_hash = (last.seq, last.hash) if last else (0, ZERO_HASH)
    t_seq, t_hash = trailer.get("head_seq"), trailer.get("head_hash")
    if isinstance(t_seq, int) and isinstance(t_hash, str) and t_seq > head_seq:
        problems += head_problems(events, t_seq, t_hash, "the trailer")
    elif t_seq != head_seq or t_hash != head_hash:
        problems.append(
            Problem(
                "trailer",
                f"the trailer names head seq {t_seq} hash {t_hash}, but the stream "
                f"ends at seq {head_seq} hash {head_hash}",
            )
        )
    published = [c["commitment"] for c in commitment_timeline(events)]
    if "commitments" in trailer and trailer["commitments"] != published:
        problems.append(
            Problem(
                "trailer",
                f"the trailer lists commitments {trailer['commitments']}, the stream published {published}",
            )
        )
    return problems


def signed_receipt_problems(
    events: list[Event], r: dict[str, Any], keys: list[dict[str, Any]] | None
) -> list[Problem]:
    """A signed receipt must be this encounter's and verify under one of the server's published keys
    (docs/verifying.md "Signed receipts"): else the server never said it."""
    seq = r.get("seq")
    at = seq if isinstance(seq, int) else None
    stream = events[0].stream if events else None
    problems = []
    if stream is not None and r.get("encounter") != stream:
        problems.append(
            Problem(
                "receipt",
                f"seq {seq}: the receipt is of encounter {r.get('encounter')!r}, not {stream!r}",
                at,
            )
        )
    if not keys:
        why: str | None = "no public receipt keys were given (the export's trailer lists none; pass --keys)"
    else:
        why = signature_problem(r, keys)
    if why is not None:
        problems.append(Problem("receipt", f"seq {seq}: the signed receipt does not verify: {why}", at))
    return problems


def receipt_problems(
    events: list[Event], receipts: Iterable[dict[str, Any]], keys: list[dict[str, Any]] | None = None
) -> list[Problem]:
    """Each saved (seq, hash) receipt must match the stream's event at that seq; receipts past the end
    mean a cut tail, named once, at the first missing seq. A signed receipt (a command answer's `receipt`,
    or the whole answer holding one) must also verify under `keys`, the server's public receipt keys."""
    by_seq = {e.seq: e for e in events}
    last = max(by_seq, default=0)
    problems, beyond = [], []
    for kept in receipts:
        r = kept["receipt"] if isinstance(kept.get("receipt"), dict) else kept
        if "signature" in r:
            problems += signed_receipt_problems(events, r, keys)
        seq, h = r.get("seq"), r.get("hash")
        e = by_seq.get(seq) if isinstance(seq, int) else None
        if isinstance(seq, int) and seq > last:
            beyond.append(seq)
        elif e is None:
            problems.append(
                Problem(
                    "receipt",
                    f"a receipt names seq {seq}, which the stream does not hold",
                    seq if isinstance(seq, int) else None,
                )
            )
        elif e.hash != h:
            problems.append(
                Problem(
                    "receipt",
                    f"seq {seq}: the receipt says hash {h}, the stream says {e.hash}: "
                    "the stream was rewritten after the receipt was given",
                    seq,
                )
            )
    if beyond:
        problems.append(
            Problem(
                "receipt",
                f"receipts name seqs up to {max(beyond)}, but the stream ends at seq "
                f"{last}: {_span(last + 1, max(beyond))} were cut off",
                last + 1,
            )
        )
    return problems


def created_commitment(first: Event | None) -> str | None:
    """The commitment the stream's first event published, if it is the creation."""
    return first.data.get("commitment") if first is not None and first.type == "EncounterCreated" else None


def commitment_problems(found: str | None, pinned: str) -> list[Problem]:
    """The first commitment, pinned from the create answer, must be the stream's (`found`)."""
    if found != pinned:
        return [
            Problem(
                "commitment",
                f"seq 1 commits to {found}, but the create answer you kept said {pinned}: "
                "the stream was rewritten from its start",
                1,
            )
        ]
    return []


def sent_problems(
    events: list[Event], sent: Iterable[dict[str, Any]], refused: dict[int, str] | None = None
) -> list[Problem]:
    """What a client sent (command_id, entropy) must be what keyed its dice: the dice of its commands are
    keyed by them, with its entropy; but the dice of its answer to a question, sent not as a seat (the
    GM's `respond`), continue the key the question was asked under (`continued_key`, as the dice audit
    has it), which keyed the resolution before the answer was sent. A roll that merely claims to be manual
    where no faces may be supplied (`refused`) is checked like a server roll."""
    refused = refused_faces(events) if refused is None else refused
    sent = list(sent)
    # A send the server refused appended nothing: the record of it is the player's (the page keeps the 409).
    mine = {
        s["command_id"]: s.get("entropy", "") or ""
        for s in sent
        if isinstance(s.get("command_id"), str) and not s.get("refused")
    }
    problems, seen = moved_problems(events, sent), set()
    asked: dict[str, dict[str, Any] | None] = {}  # reaction id -> the dice_key it was asked under
    continued: dict[str, Any] | None = None  # the key this command's dice continue, when it answers
    previous: str | None = None
    for e in events:
        seen.add(e.command_id)
        if e.command_id != previous:
            previous = e.command_id
            continued = continued_key(e, asked)
        if e.type == "ReactionRequested" and isinstance(e.data.get("id"), str):
            asked[e.data["id"]] = e.data.get("dice_key")
        if e.type != "DieRolled" or (e.data.get("source") == "manual" and e.seq not in refused):
            continue
        key = keying_command(e)
        want = continued.get("command_id") if continued else e.command_id
        if e.command_id in mine and key != want:
            problems.append(
                Problem(
                    "sent",
                    f"seq {e.seq}: the dice of your command {e.command_id!r} are keyed by {key!r}, not by "
                    + (f"{want!r}, the command whose question it answers" if continued else "your command"),
                    e.seq,
                )
            )
        elif key in mine and e.data.get("entropy") != mine[key]:
            problems.append(
                Problem(
                    "sent",
                    f"seq {e.seq}: the dice keyed by your command {key!r} use entropy "
                    f"{e.data.get('entropy')!r}, but you sent {mine[key]!r}",
                    e.seq,
                )
            )
    for command_id in mine:
        if command_id not in seen:
            problems.append(Problem("sent", f"your command {command_id!r} is not in the stream"))
    return problems + seat_problems(events, sent)


def seat_problems(events: list[Event], sent: list[dict[str, Any]]) -> list[Problem]:
    """With the seat named in the sent records (the page writes it), they are the seat's complete record:
    every command in that seat's name must be one of them (refusals included), or it was sent by someone
    else in the player's name."""
    seats = {s["seat"] for s in sent if isinstance(s.get("seat"), str)}
    held = {s.get("command_id") for s in sent}
    problems, previous = [], None
    for e in events:
        if e.command_id == previous:
            continue
        previous = e.command_id
        if e.actor.startswith("seat:") and e.actor[5:] in seats and e.command_id not in held:
            problems.append(
                Problem(
                    "sent",
                    f"seq {e.seq}: command {e.command_id!r} ({e.type}) is in the name of your seat "
                    f"{e.actor[5:]!r}, but none of your sent records holds it",
                    e.seq,
                )
            )
    return problems + unseen_seat_changes(events, sent, seats)


def unseen_seat_changes(events: list[Event], sent: list[dict[str, Any]], seats: set[str]) -> list[Problem]:
    """A `SeatChanged` of the player's seat that none of its devices had seen (a record's `seen_seq`: the
    head its page had verified when it sent) before a command in the seat's name was accepted: the seat was
    changed behind the player's back, then used. Judged only where the records say what they had seen."""
    seen: dict[str, list[tuple[str, int]]] = {}
    for s in sent:
        if isinstance(s.get("seat"), str) and isinstance(s.get("seen_seq"), int):
            seen.setdefault(s["seat"], []).append((str(s.get("command_id")), s["seen_seq"]))
    at: dict[str | None, int] = {}
    previous = None
    for e in events:
        if e.command_id != previous:
            at.setdefault(e.command_id, e.seq)
        previous = e.command_id
    problems: list[Problem] = []
    changes: dict[str, list[Event]] = {}
    flagged: set[int] = set()
    previous = None
    for e in events:
        if e.type == "SeatChanged" and e.data.get("seat") in seen:
            changes.setdefault(e.data["seat"], []).append(e)
        if e.command_id == previous:
            continue
        previous = e.command_id
        seat = e.actor[5:] if e.actor.startswith("seat:") else None
        if seat not in seen:
            continue
        # What the seat had seen by this command: its own record's view, and every earlier command's.
        known = max(
            (n for cid, n in seen[seat] if cid == e.command_id or at.get(cid, e.seq) < e.seq), default=0
        )
        for change in changes.get(seat, []):
            if change.seq > known and change.seq not in flagged:
                flagged.add(change.seq)
                problems.append(
                    Problem(
                        "sent",
                        f"seq {change.seq}: your seat {seat!r} was changed (now {change.data.get('name')!r}, "
                        f"combatants {change.data.get('combatants')}) and command {e.command_id!r} at seq "
                        f"{e.seq} was accepted in its name, but none of your devices had seen seq "
                        f"{change.seq} when it sent: the seat was changed behind your back",
                        change.seq,
                    )
                )
    return problems


def _rules_3(first: Event) -> bool:
    return first.type == "EncounterCreated" and (first.data.get("stream_rules") or 0) >= 3


class Declarations:
    """In a stream of stream rules 3, every command the pipeline decided (anything but the facts a replay
    takes as given: the creation, seats, tokens, webhooks) declares itself in its first event, so that no
    command escapes the replay by leaving its declaration out. Checked event by event, resumable."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.applies: bool | None = None  # known from the first event
        self.previous: str | None = None

    def fold(self, events: list[Event]) -> None:
        """Take the events after the last ones taken."""
        if events and self.applies is None:
            self.applies = _rules_3(events[0])
        if not self.applies:
            return
        for e in events:
            if e.command_id == self.previous:
                continue
            self.previous = e.command_id
            if e.type not in GIVEN and not isinstance(e.data.get("declaration"), dict):
                self.problems.append(
                    Problem(
                        "declaration",
                        f"seq {e.seq}: command {e.command_id!r} ({e.type}) records no declaration, but every "
                        "command of this stream declares itself (stream rules 3)",
                        e.seq,
                    )
                )


class Versions:
    """In a stream of stream rules 3, each declaration names the ruleset and the version the stream
    announced last (at creation, or in a `RulesetUpgraded`), and versions only go up: a declaration set to
    a version nobody announced would otherwise make a forged command "not replayable here". Checked event
    by event, resumable."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.applies: bool | None = None  # known from the first event
        self.ruleset: Any = None
        self.version: Any = None
        self.at = 0  # the seq that announced `version`
        self.previous: str | None = None

    def fold(self, events: list[Event]) -> None:
        """Take the events after the last ones taken."""
        if events and self.applies is None:
            first = events[0]
            self.applies = _rules_3(first)
            self.ruleset, self.version, self.at = (
                first.data.get("ruleset"),
                first.data.get("ruleset_version"),
                first.seq,
            )
        if not self.applies:
            return
        problems = self.problems
        for e in events:
            if e.type == "RulesetUpgraded":
                if e.data.get("ruleset") != self.ruleset or not newer_version(
                    e.data.get("version"), self.version
                ):
                    problems.append(
                        Problem(
                            "version",
                            f"seq {e.seq} announces {e.data.get('ruleset')} version {e.data.get('version')} "
                            f"after {self.ruleset} version {self.version}: an encounter's ruleset stays and its "
                            "version only goes up",
                            e.seq,
                        )
                    )
                else:
                    self.version, self.at = e.data["version"], e.seq
            if e.command_id == self.previous:
                continue
            self.previous = e.command_id
            declared = e.data.get("declaration")
            if isinstance(declared, dict) and (declared.get("ruleset"), declared.get("version")) != (
                self.ruleset,
                self.version,
            ):
                problems.append(
                    Problem(
                        "version",
                        f"seq {e.seq} declares {declared.get('ruleset')} version {declared.get('version')}, but "
                        f"the stream announced {self.ruleset} version {self.version} (at seq {self.at}): a "
                        "declaration names only the version the stream announced",
                        e.seq,
                    )
                )


def moved_problems(events: list[Event], sent: list[dict[str, Any]]) -> list[Problem]:
    """Each rotation that came after one of the player's commands was sent bound to the commitment it
    replaced, and refused for it (409 commitment_moved, in the player's sent record): an operator can
    refuse a command by rotating first, which the chain alone does not show."""
    replaced = {c["commitment"]: c["replaced_at_seq"] for c in commitment_timeline(events)}
    problems = []
    for s in sent:
        refusal = s.get("refused")
        if not isinstance(refusal, dict) or refusal.get("code") != "commitment_moved":
            continue
        pinned = s.get("expected_commitment") or (refusal.get("details") or {}).get("expected")
        at = replaced.get(pinned)
        problems.append(
            Problem(
                "commitment_moved",
                f"seq {at}: the dice seed was rotated after your command {s.get('command_id')!r} was sent bound "
                f"to commitment {pinned}; it was refused and nothing was rolled"
                if at is not None
                else f"your command {s.get('command_id')!r} was refused for commitment {pinned}, which this "
                "stream never replaced",
                at,
            )
        )
    return problems


class Checkpoint:
    """What the verifier found in a stream's events up to `seq` and all it carries to check the ones after
    them: the chain's head, the commitments and the rolls still waiting for their seed, the draws made
    under each key, the questions asked, the hidden rolls, the stream rules, the Discord claims. A check
    of the whole stream is `resume` from a new checkpoint; a check of only what came after an earlier
    one is `resume` from that one: the same code, so both reach the same verdict. `discord_keys`: the
    Discord application's keys the claims are checked with (a checkpoint holds for those only)."""

    def __init__(self, discord_keys: list[str] | None = None) -> None:
        self.stream: str | None = None
        self.seq = 0
        self.hash = ZERO_HASH
        self.events = 0
        self.created_commitment: str | None = None
        self.chain: list[Problem] = []
        self.rolls = RollWalk(keep=False)
        self.hidden = HiddenRolls()
        self.declarations = Declarations()
        self.versions = Versions()
        self.discord = DiscordClaims(discord_keys)

    def resume(self, events: list[Event]) -> None:
        """Check the events that come after the ones checked so far."""
        if not events:
            return
        if self.stream is None:
            self.stream = events[0].stream
            self.created_commitment = created_commitment(events[0])
        self.chain += chain_problems(events, (self.seq, self.hash), self.stream)
        self.rolls.fold(events)
        self.hidden.fold(events)
        self.declarations.fold(events)
        self.versions.fold(events)
        self.discord.fold(events)
        self.events += len(events)
        last = max(events, key=lambda e: e.seq)
        if last.seq > self.seq:
            self.seq, self.hash = last.seq, last.hash

    def problems(self, hidden: list[tuple[str, str, int]]) -> list[Problem]:
        """Every problem of the events checked so far (`hidden`: the hidden rolls' report's), unsorted, in
        the order of the checks."""
        problems = list(self.chain)
        for c in self.rolls.timeline.entries:
            if c["revealed_seed"] is not None and not c["seed_matches"]:
                problems.append(
                    Problem(
                        "seed",
                        f"the seed revealed at seq {c['revealed_at_seq']} does not hash to "
                        f"commitment {c['commitment']}",
                        c["revealed_at_seq"],
                    )
                )
        problems += [Problem(kind, message, seq) for kind, message, seq in hidden]
        problems += [Problem("dice", message, seq) for seq, message in self.rolls.requests]
        problems += self.declarations.problems + self.versions.problems
        problems += [Problem("discord", message, seq) for seq, message in self.discord.problems]
        refused = self.rolls.refused
        for r in self.rolls.failing():
            if r["seq"] in refused:
                problems.append(Problem("dice", refused[r["seq"]], r["seq"]))
            else:
                problems.append(Problem("dice", f"seq {r['seq']} ({r['purpose']}): {r['problem']}", r["seq"]))
        return problems

    def report(
        self, before: list[Problem], after: list[Problem], replay: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The verification report of the events checked so far, with problems found beside the stream's
        own checks (`before`: the file's format; `after`: what a client kept, the replay) and the
        replay's summary."""
        hidden, hidden_counts = self.hidden.report()
        problems = [*before, *self.problems(hidden), *after]
        problems.sort(key=lambda p: (p.seq is None, p.seq or 0))
        bad = [p.seq for p in problems if p.seq is not None]
        marks = self.rolls.counts()
        report = {
            "ok": not problems,
            "chain_ok": not self.chain,
            "first_bad_seq": min(bad) if bad else None,
            "events_checked": self.events,
            "rolls_checked": sum(marks.values()),
            "rolls_verified": marks.get(VERIFIED, 0),
            "rolls_failed": marks.get(FAILED, 0) + marks.get(SEED_FAILED, 0),
            "rolls_unverifiable": marks.get(NOT_YET_REVEALED, 0) + marks.get(MANUAL, 0),
            "rolls_not_yet_revealed": marks.get(NOT_YET_REVEALED, 0),
            "rolls_manual": marks.get(MANUAL, 0),
            # Only where there are hidden rolls: the reports of streams without them stay as they were.
            **(hidden_counts if hidden_counts["hidden_rolls"] else {}),
            "head": {"seq": self.seq, "hash": self.hash},
            "problems": [msgspec.to_builtins(p) for p in problems],
        }
        if replay is not None:
            report["replay"] = replay
        return report


def verify_events(
    events: list[Event],
    *,
    trailer: dict[str, Any] | None = None,
    receipts: Iterable[dict[str, Any]] | None = None,
    format_problems: list[Problem] | None = None,
    heads: list[tuple[int, str, str]] | None = None,
    commitment: str | None = None,
    sent: Iterable[dict[str, Any]] | None = None,
    replay: Registry | None = None,
    receipt_keys: list[dict[str, Any]] | None = None,
    discord_keys: list[str] | None = None,
) -> dict[str, Any]:
    """The verification report: {ok, chain_ok, first_bad_seq, rolls_*, problems, head}. `heads`: (seq, hash,
    whose) heads kept outside the stream; `commitment`: the first commitment pinned from the create answer;
    `sent`: the client's own {command_id, entropy}; `replay`: the rulesets to decide every declared command
    again with (server/audit/replaying.py), which adds the report's `replay` part; `receipt_keys`: the
    public keys signed receipts are checked with (else the trailer's); `discord_keys`: the Discord
    application's public keys the commands sent from Discord are checked with (else the trailer's)."""
    if discord_keys is None and trailer is not None and isinstance(trailer.get("discord_public_keys"), list):
        discord_keys = [k for k in trailer["discord_public_keys"] if isinstance(k, str)]
    checkpoint = Checkpoint(discord_keys)
    checkpoint.resume(events)
    problems: list[Problem] = []
    if trailer is not None:
        problems += trailer_problems(events, trailer)
    if receipts is not None:
        keys = receipt_keys
        if keys is None and trailer is not None and isinstance(trailer.get("receipt_keys"), list):
            keys = trailer["receipt_keys"]
        problems += receipt_problems(events, receipts, keys)
    for seq, h, whose in heads or []:
        problems += head_problems(events, seq, h, whose)
    if commitment is not None:
        problems += commitment_problems(checkpoint.created_commitment, commitment)
    if sent is not None:
        problems += sent_problems(events, sent, checkpoint.rolls.refused)
    replayed = replay_stream(events, replay) if replay is not None else None
    if replayed is not None:
        problems += [Problem("replay", d.message, d.seq) for d in replayed.differences]
    return checkpoint.report(
        list(format_problems or []), problems, replayed.summary() if replayed is not None else None
    )


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
    """A receipts (or sent commands) file: JSONL of objects, {seq, hash} (a JSON array of them works too)."""
    text = raw.strip()
    if text.startswith(b"["):
        return list(msgspec.json.decode(text))
    return [msgspec.json.decode(line) for line in text.splitlines() if line.strip()]


def verify_export(
    raw: bytes,
    receipts: bytes | None = None,
    *,
    head: tuple[int, str] | None = None,
    commitment: str | None = None,
    sent: bytes | None = None,
    replay: Registry | None = None,
    receipt_keys: bytes | None = None,
    discord_keys: list[str] | None = None,
) -> dict[str, Any]:
    """Verify an exported stream from bytes alone, and optionally what the client kept: a receipts file, a
    head, the first commitment and the commands it sent (JSONL of {command_id, entropy}, or an array);
    with `replay`, decide every declared command again; `receipt_keys`: GET /keys's answer as saved, the
    keys signed receipts must verify under (else the export trailer's)."""
    events, trailer, problems = parse_export(raw)
    if not events:
        problems.append(Problem("format", "the file holds no events"))
    return verify_events(
        events,
        trailer=trailer,
        format_problems=problems,
        receipts=parse_receipts(receipts) if receipts is not None else None,
        heads=[(*head, "the head you kept")] if head else None,
        commitment=commitment,
        sent=parse_receipts(sent) if sent is not None else None,
        replay=replay,
        receipt_keys=parse_keys(receipt_keys) if receipt_keys is not None else None,
        discord_keys=discord_keys,
    )


def parse_keys(raw: bytes) -> list[dict[str, Any]]:
    """GET /keys's answer ({"keys": [...]}), or a bare list of its keys."""
    obj = msgspec.json.decode(raw)
    keys = obj.get("keys") if isinstance(obj, dict) else obj
    return [k for k in keys if isinstance(k, dict)] if isinstance(keys, list) else []


def report_text(report: dict[str, Any], name: str) -> str:
    """The report as lines a person reads."""
    head = report["head"]
    lines = []
    if report["ok"]:
        lines.append(
            f"{name}: OK — {report['events_checked']} events, the chain holds up to seq {head['seq']} "
            f"(hash {head['hash']})."
        )
    else:
        lines.append(
            f"{name}: FAILED — first bad seq {report['first_bad_seq']}, {len(report['problems'])} problem(s):"
        )
        lines += [f"  [{p['kind']}] {p['message']}" for p in report["problems"]]
    lines.append(
        f"Rolls: {report['rolls_checked']} checked, {report['rolls_verified']} verified, "
        f"{report['rolls_failed']} failed, {report['rolls_not_yet_revealed']} not yet revealed, "
        f"{report['rolls_manual']} manual."
    )
    if "replay" in report:
        lines.append(f"Replay: {report['replay']['summary']}.")
        by_reason: dict[str, list[int]] = {}
        for skipped in report["replay"]["skipped"]:
            by_reason.setdefault(skipped["reason"], []).append(skipped["seq"])
        for reason, seqs in by_reason.items():
            shown = ", ".join(str(n) for n in seqs[:8]) + (" …" if len(seqs) > 8 else "")
            lines.append(f"  {reason}: {len(seqs)} command(s), at seq {shown}")
    if report.get("hidden_rolls"):
        lines.append(
            f"Hidden rolls: {report['hidden_rolls']} made, {report['hidden_rolls_revealed']} revealed, "
            f"{report['hidden_rolls_verified']} of them verified."
        )
    return "\n".join(lines)
