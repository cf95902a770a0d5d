"""The dice audit projection (DESIGN.md "Dice", "Projections"): every roll with what derived it.

It reads the event stream alone: commitments come from `EncounterCreated` and `DiceSeedRotated`, seeds
from the `DiceSeedRotated` that revealed them. A roll uses the commitment in force when its command
began (a command's events are contiguous, so that is the commitment before the command's first event);
in streams of stream rules 3 that must also be the one in force when its resolution began.
Each roll gets a mark: `verified` (every face recomputed from the revealed seed), `failed` (faces or
draws wrong), `not_yet_revealed`, `seed_failed` (its revealed seed fails the commitment, so it is not
used) or `manual` (physical dice, not verifiable). Faces are keyed by `keyed_command_id` (absent: the
envelope's command), whose draws run 0, 1, 2 … across the stream.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any, NamedTuple

from events.dice import WEAK_ENTROPY_BELOW, derive_face
from events.envelope import Event
from rules.state import voided_seqs
from rules.supplied_dice import SuppliedDice

VERIFIED, FAILED, NOT_YET_REVEALED, MANUAL = "verified", "failed", "not_yet_revealed", "manual"
SEED_FAILED = "seed_failed"  # its seed was revealed but fails its commitment: not recomputed


def seed_bytes(hex_seed: Any) -> bytes | None:
    """A revealed seed (64 lowercase hex) as its 32 bytes, or None if it is not one."""
    if not isinstance(hex_seed, str) or len(hex_seed) != 64:
        return None
    try:
        return bytes.fromhex(hex_seed)
    except ValueError:
        return None


def keying_command(e: Event) -> str:
    """The command whose id and entropy key a `DieRolled`'s faces (absent in older streams: the envelope's)."""
    return e.data.get("keyed_command_id") or e.command_id


def expected_faces(seed: bytes, stream: str, command_id: str, data: dict[str, Any]) -> list[int]:
    """The faces the seed gives for a server `DieRolled`, draw by draw (`command_id`: the keying command)."""
    return [
        derive_face(seed, stream, command_id, draw, data["sides"], data["entropy"]) for draw in data["draws"]
    ]


def _published(commitment: str, seq: int) -> dict[str, Any]:
    return {
        "commitment": commitment,
        "published_at_seq": seq,
        "replaced_at_seq": None,
        "revealed_seed": None,
        "revealed_at_seq": None,
        "seed_matches": None,
    }


class Timeline:
    """The commitments a stream published so far, read event by event (`commitment_timeline`)."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self.current: dict[str, Any] | None = None
        self.by_commitment: dict[str, dict[str, Any]] = {}  # the last entry to publish each

    def step(self, e: Event) -> str | None:
        """Take `e` in; the commitment it revealed the seed of, if it did."""
        revealed = None
        if e.type == "EncounterCreated" and e.data.get("commitment"):
            self._publish(e.data["commitment"], e.seq)
        elif e.type == "DiceSeedRotated":
            if self.current is not None:
                seed = e.data.get("revealed_seed") or ""
                raw = seed_bytes(seed)
                self.current.update(
                    replaced_at_seq=e.seq,
                    revealed_seed=seed,
                    revealed_at_seq=e.seq,
                    seed_matches=raw is not None
                    and hashlib.sha256(raw).hexdigest() == self.current["commitment"],
                )
                revealed = self.current["commitment"]
            self.current = None
            if e.data.get("commitment"):
                self._publish(e.data["commitment"], e.seq)
        return revealed

    def _publish(self, commitment: str, seq: int) -> None:
        self.current = _published(commitment, seq)
        self.entries.append(self.current)
        self.by_commitment[commitment] = self.current


def commitment_timeline(events: Iterable[Event]) -> list[dict[str, Any]]:
    """Each commitment: the seq that published it, the seq that replaced it, and its revealed seed."""
    timeline = Timeline()
    for e in events:
        timeline.step(e)
    return timeline.entries


def audit_rolls(events: list[Event]) -> list[dict[str, Any]]:
    """Every `DieRolled` with its inputs, the commitment in force, and its mark."""
    walk = RollWalk(keep=True, voided=voided_seqs(events))
    walk.fold(events)
    return walk.rolls


# What a verifier's checkpoint keeps of a roll: what its verdict names, and what its faces are recomputed
# from once its seed is revealed (a checkpoint may hold every roll of an encounter whose seed never rotated).
_JUDGED = ("seq", "purpose", "mark", "problem")
_RECOMPUTED_FROM = ("keyed_command_id", "sides", "draws", "entropy", "faces", "source", "purpose")


def _recomputable(e: Event) -> Event:
    """The roll with only what marking it needs."""
    data = {k: e.data[k] for k in _RECOMPUTED_FROM if k in e.data}
    return Event(e.stream, e.seq, e.type, data, e.actor, e.command_id, "", "", "")


class _Pending(NamedTuple):
    """A roll whose commitment's seed is not revealed yet: what marks it again once it is."""

    n: int  # its number among the rolls that waited
    at: int  # its place in `RollWalk.rolls` (kept rolls), else -1
    event: Event
    commitment: str | None
    keyed_actor: str
    faults: tuple[str | None, str | None, str | None, str | None]
    roll: dict[str, Any]  # as marked now


class RollWalk:
    """The rolls of a stream marked event by event, resumable: `fold` the events after the last ones it
    took. A roll is marked when its commitment's seed is revealed, which may come after it: until then it
    waits in `pending`. With `keep`, every roll is kept (the dice audit); without, a settled roll only
    counts (`marks`) and, if it failed, stays in `failed` (the verifier's checkpoint)."""

    def __init__(self, keep: bool, voided: set[int] | None = None) -> None:
        self.keep = keep
        self.voided = voided or set()
        self.timeline = Timeline()
        self.supplied = SuppliedDice()  # manual faces where the rules let nobody supply them: forged
        self.refused: dict[int, str] = {}
        self.rolls: list[dict[str, Any]] = []
        self.marks: dict[str, int] = {}  # settled rolls' marks (not `keep`)
        self.failed: list[dict[str, Any]] = []  # settled rolls marked failed (not `keep`)
        self.pending: dict[str | None, list[_Pending]] = {}
        # The pending rolls' marks now, and those failed already (a fault no seed can mend), by number.
        self.waiting_marks: dict[str, int] = {}
        self.waiting_failed: dict[int, dict[str, Any]] = {}
        self.waited = 0  # pending rolls numbered
        self.requests: list[tuple[int, str]] = []
        self.in_force: str | None = None
        self.command_commitment: str | None = None
        self.previous_command: str | None = None
        self.actor_of: dict[str, str] = {}  # each command's sender, from its first event (`keep` only)
        self.next_draw: dict[str, int] = {}  # per keying command: the draw the next die must have
        self.asked: dict[str, dict[str, Any] | None] = {}  # reaction id -> the dice_key it was asked under
        self.key: dict[str, Any] | None = None  # the key this command's dice must continue, when it answers
        # Stream rules 3 (docs/verifying.md "Stream rules"): a resolution's dice keep the commitment in force
        # when its starting command was accepted. reaction id -> (that commitment, the starting seq).
        self.per_resolution = False
        self.began: dict[str, tuple[str | None, int]] = {}
        self.resolution: tuple[str | None, int] = (None, 0)  # the resolution this command's dice belong to

    def failing(self) -> list[dict[str, Any]]:
        """Every roll marked failed now."""
        if self.keep:
            return [r for r in self.rolls if r["mark"] == FAILED]
        return [*self.failed, *self.waiting_failed.values()]

    def counts(self) -> dict[str, int]:
        """How many rolls have each mark now."""
        if self.keep:
            out: dict[str, int] = {}
            for r in self.rolls:
                out[r["mark"]] = out.get(r["mark"], 0) + 1
            return out
        out = dict(self.marks)
        for mark, n in self.waiting_marks.items():
            out[mark] = out.get(mark, 0) + n
        return out

    def fold(self, events: Iterable[Event]) -> None:
        for e in events:
            self._step(e)

    def _step(self, e: Event) -> None:
        revealed = self.timeline.step(e)
        if e.command_id != self.previous_command:
            self.command_commitment = self.in_force
            self.previous_command = e.command_id
            self.key = continued_key(e, self.asked)
            self.resolution = _resolution_of(e, self.began, (self.in_force, e.seq))
        if self.keep:
            self.actor_of.setdefault(e.command_id, e.actor)
        if e.type == "ReactionRequested" and isinstance(e.data.get("id"), str):
            self.asked[e.data["id"]] = e.data.get("dice_key")
            self.began[e.data["id"]] = self.resolution
            wrong = _wrong_request_key(e, self.key, self.next_draw)
            if wrong:
                self.requests.append((e.seq, wrong))
        if e.type == "EncounterCreated":
            self.in_force = e.data.get("commitment")
            self.command_commitment = self.in_force
            self.resolution = (self.in_force, e.seq)
            self.per_resolution = (e.data.get("stream_rules") or 0) >= 3
        elif e.type == "DiceSeedRotated":
            self.in_force = e.data.get("commitment")
        refusal = self.supplied.refusal(e)
        if refusal is not None:
            self.refused[e.seq] = refusal
        if revealed is not None:
            for p in self.pending.pop(revealed, []):
                self.waiting_marks[p.roll["mark"]] -= 1
                self.waiting_failed.pop(p.n, None)
                self._mark(p.at, p.event, p.commitment, p.keyed_actor, p.faults)
        if e.type == "DieRolled":
            self._rolled(e, refusal)

    def _rolled(self, e: Event, refusal: str | None) -> None:
        by = keying_command(e)
        commitment = self.command_commitment
        resolution_fault = None
        if self.per_resolution and e.data.get("source") != "manual" and self.resolution[0] != commitment:
            resolution_fault = (
                f"drawn from commitment {commitment}, but its resolution began at seq "
                f"{self.resolution[1]} under commitment {self.resolution[0]}: every die of a resolution is "
                "drawn from the seed in force when its starting command was accepted (the seed was rotated "
                "mid-resolution)"
            )
        draws, first = e.data.get("draws"), self.next_draw.get(by, 0)
        draws_fault = None
        if isinstance(draws, list) and draws != list(range(first, first + len(draws))):
            draws_fault = (
                f"draws {draws} do not run on from draw {first} of command "
                f"{by!r}: draws under one keying command run 0, 1, 2 … with no gap, repeat or choice"
            )
        if isinstance(draws, list) and draws and all(isinstance(d, int) for d in draws):
            self.next_draw[by] = max(first, max(draws) + 1)
        faults = (resolution_fault, _wrongly_keyed(e, self.key, self.per_resolution), draws_fault, refusal)
        at = len(self.rolls) if self.keep else -1
        if self.keep:
            self.rolls.append({})
        else:
            e = _recomputable(e)
        self._mark(at, e, commitment, self.actor_of.get(by, e.actor), faults)

    def _mark(
        self,
        at: int,
        e: Event,
        commitment: str | None,
        keyed_actor: str,
        faults: tuple[str | None, str | None, str | None, str | None],
    ) -> None:
        """Mark a roll by what is known now; one whose seed is still to come waits for it."""
        roll = _roll(
            e,
            commitment,
            self.timeline.by_commitment.get(commitment or ""),
            e.seq in self.voided,
            keyed_actor,
        )
        waits = roll["mark"] == NOT_YET_REVEALED
        resolution_fault, wrong_key, draws_fault, refusal = faults
        if resolution_fault:
            roll = {**roll, "mark": FAILED, "problem": resolution_fault}
        if wrong_key and roll["mark"] != FAILED:
            roll = {**roll, "mark": FAILED, "problem": wrong_key}
        if draws_fault and roll["mark"] != FAILED:
            roll = {**roll, "mark": FAILED, "problem": draws_fault}
        if refusal is not None:
            roll = {**roll, "mark": FAILED, "problem": refusal}
        if self.keep:
            self.rolls[at] = roll
        else:
            roll = {k: roll[k] for k in _JUDGED}
        if waits:
            self.waited += 1
            self.pending.setdefault(commitment, []).append(
                _Pending(self.waited, at, e, commitment, keyed_actor, faults, roll)
            )
            self.waiting_marks[roll["mark"]] = self.waiting_marks.get(roll["mark"], 0) + 1
            if roll["mark"] == FAILED and not self.keep:
                self.waiting_failed[self.waited] = roll
        elif not self.keep:
            self.marks[roll["mark"]] = self.marks.get(roll["mark"], 0) + 1
            if roll["mark"] == FAILED:
                self.failed.append(roll)


def _wrong_request_key(e: Event, continued: dict[str, Any] | None, next_draw: dict[str, int]) -> str | None:
    """Why a question's `dice_key` is not the key its resolution's dice draw under now (streams with
    dice_key only): the command it continues (an answer not sent by a seat), else its own command, with
    that key's entropy, and its next draw after every draw already made under that key."""
    got = e.data.get("dice_key")
    if not isinstance(got, dict):
        return None
    want = continued.get("command_id") if continued else e.command_id
    if got.get("command_id") != want:
        return (
            f"seq {e.seq}: the question {e.data.get('id')!r} records dice key {got.get('command_id')!r}, but "
            f"its resolution's dice are keyed by {want!r}: its answer's dice would be drawn under a command "
            "of someone else's choosing"
        )
    if continued and got.get("entropy") != continued.get("entropy"):
        return f"seq {e.seq}: the question {e.data.get('id')!r} records entropy {got.get('entropy')!r}, but its key {want!r} sent {continued.get('entropy')!r}"
    drawn = next_draw.get(want, 0)
    if got.get("next_draw") != drawn:
        return (
            f"seq {e.seq}: the question {e.data.get('id')!r} says its key {want!r} draws next at "
            f"{got.get('next_draw')}, but {drawn} draw(s) were made under it: a draw is missing or extra"
        )
    return None


def _resolution_of(
    first: Event, began: dict[str, tuple[str | None, int]], own: tuple[str | None, int]
) -> tuple[str | None, int]:
    """The resolution a command's dice belong to: an answer's (a respond, a timeout answer) is the one its
    question was asked in; any other command starts its own (`own`: the commitment in force, its seq)."""
    if first.type == "ReactionAnswered":
        return began.get(first.data.get("id"), own)
    return own


def continued_key(first: Event, asked: dict[str, dict[str, Any] | None]) -> dict[str, Any] | None:
    """The key a command's dice must continue: an answer not sent by a seat continues the key its
    question was asked under (DESIGN.md "Dice"); any other command keys its own dice (None)."""
    if first.type != "ReactionAnswered" or first.actor.startswith("seat:"):
        return None
    key = asked.get(first.data.get("id"))
    return key if isinstance(key, dict) else None


def _wrongly_keyed(e: Event, continued: dict[str, Any] | None, rules_3: bool = False) -> str | None:
    """Why a die is keyed by the wrong command (streams with keyed_command_id, or whose question recorded a
    dice_key, or of stream rules 3), or None."""
    d = e.data
    if d.get("source") == "manual":
        return None
    if "keyed_command_id" not in d:
        if continued:
            return (
                f"has no keyed_command_id, but it answers a question asked under {continued.get('command_id')!r}, "
                "whose dice it must continue"
            )
        return "has no keyed_command_id: every server die names its keying command" if rules_3 else None
    want = continued.get("command_id") if continued else e.command_id
    if d["keyed_command_id"] != want:
        whose = "the command whose question this answers" if continued else "its own command"
        return f"keyed by {d['keyed_command_id']!r}, but its dice must be keyed by {whose}, {want!r}"
    if continued and d.get("entropy") != continued.get("entropy"):
        return f"uses entropy {d.get('entropy')!r}, but the command it continues sent {continued.get('entropy')!r}"
    return None


def _roll(
    e: Event, commitment: str | None, c: dict[str, Any] | None, voided: bool, keyed_actor: str
) -> dict[str, Any]:
    d = e.data
    entropy = d.get("entropy", "")
    key = keying_command(e)
    # Dice keyed by a command no seat sent are the GM's to aim (DESIGN.md "Dice"). Streams written before
    # dice were keyed by the resolution (no keyed_command_id) render as they always did.
    keyed = "keyed_command_id" in d
    gm_keyed = keyed and d.get("source") != "manual" and not keyed_actor.startswith("seat:")
    roll: dict[str, Any] = {
        "seq": e.seq,
        "command_id": e.command_id,
        **({"keyed_command_id": key} if keyed else {}),
        "actor": e.actor,
        "combatant": d.get("combatant"),
        "purpose": d.get("purpose"),
        "notation": d.get("notation"),
        "sides": d.get("sides"),
        "draws": d.get("draws"),
        "faces": d.get("faces"),
        "kept": d.get("kept"),
        "modifiers": d.get("modifiers"),
        "total": d.get("total"),
        "target": d.get("target"),
        "outcome": d.get("outcome"),
        "entropy": entropy,
        "entropy_weak": len(entropy) < WEAK_ENTROPY_BELOW,
        "keyed_by": "gm" if gm_keyed else d.get("keyed_by"),
        "client_keyed": d.get("keyed_by") == "client",
        "source": d.get("source"),
        "commitment": None,
        "voided": voided,
        "mark": MANUAL,
        "problem": None,
    }
    if d.get("source") == "manual":
        return roll
    roll["commitment"] = commitment
    if c is None:
        return {**roll, "mark": FAILED, "problem": "no dice commitment was in force for this roll"}
    if c["revealed_seed"] is None:
        return {**roll, "mark": NOT_YET_REVEALED}
    seed = seed_bytes(c["revealed_seed"])
    if seed is None or not c["seed_matches"]:
        # Never recompute from a seed that fails its commitment: the fault is at the seq that revealed it.
        return {
            **roll,
            "mark": SEED_FAILED,
            "problem": f"the seed revealed at seq {c['revealed_at_seq']} "
            f"does not hash to commitment {commitment}",
        }
    try:
        want = expected_faces(seed, e.stream, key, d)
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return {**roll, "mark": FAILED, "problem": "the roll lacks sides, draws or entropy to recompute it"}
    if want != d.get("faces"):
        return {
            **roll,
            "mark": FAILED,
            "expected_faces": want,
            "problem": f"faces {d.get('faces')} do not match the seed, which gives {want}",
        }
    return {**roll, "mark": VERIFIED}


def audit(events: list[Event]) -> dict[str, Any]:
    """The whole audit: rolls, commitments with revealed seeds, counts and the chain head."""
    rolls = audit_rolls(events)
    counts = {
        mark: sum(1 for r in rolls if r["mark"] in (mark, SEED_FAILED if mark == FAILED else mark))
        for mark in (VERIFIED, FAILED, NOT_YET_REVEALED, MANUAL)
    }
    head = {"seq": events[-1].seq, "hash": events[-1].hash} if events else {"seq": 0, "hash": "0" * 64}
    return {
        "stream": events[0].stream if events else None,
        "head": head,
        "commitments": commitment_timeline(events),
        "rolls": rolls,
        "counts": {"rolls": len(rolls), **counts},
    }
