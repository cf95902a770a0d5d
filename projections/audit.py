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
from typing import Any

from events.dice import WEAK_ENTROPY_BELOW, derive_face
from events.envelope import Event
from rules.state import voided_seqs
from rules.supplied_dice import refused_faces

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


def commitment_timeline(events: Iterable[Event]) -> list[dict[str, Any]]:
    """Each commitment: the seq that published it, the seq that replaced it, and its revealed seed."""
    out: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for e in events:
        if e.type == "EncounterCreated" and e.data.get("commitment"):
            current = {
                "commitment": e.data["commitment"],
                "published_at_seq": e.seq,
                "replaced_at_seq": None,
                "revealed_seed": None,
                "revealed_at_seq": None,
                "seed_matches": None,
            }
            out.append(current)
        elif e.type == "DiceSeedRotated":
            if current is not None:
                seed = e.data.get("revealed_seed") or ""
                raw = seed_bytes(seed)
                current.update(
                    replaced_at_seq=e.seq,
                    revealed_seed=seed,
                    revealed_at_seq=e.seq,
                    seed_matches=raw is not None and hashlib.sha256(raw).hexdigest() == current["commitment"],
                )
            current = None
            if e.data.get("commitment"):
                current = {
                    "commitment": e.data["commitment"],
                    "published_at_seq": e.seq,
                    "replaced_at_seq": None,
                    "revealed_seed": None,
                    "revealed_at_seq": None,
                    "seed_matches": None,
                }
                out.append(current)
    return out


def audit_rolls(events: list[Event]) -> list[dict[str, Any]]:
    """Every `DieRolled` with its inputs, the commitment in force, and its mark."""
    return _walk(events)[0]


def key_problems(events: list[Event]) -> list[tuple[int, str]]:
    """Each `ReactionRequested` whose `dice_key` is not its own resolution's key, or does not count the
    draws already made under it: (seq, why)."""
    return _walk(events)[1]


def _walk(events: list[Event]) -> tuple[list[dict[str, Any]], list[tuple[int, str]]]:
    timeline = {c["commitment"]: c for c in commitment_timeline(events)}
    voided = voided_seqs(events)
    refused = refused_faces(events)  # manual faces where the rules let nobody supply them: forged
    rolls: list[dict[str, Any]] = []
    in_force: str | None = None
    command_commitment: str | None = None
    previous_command: str | None = None
    actor_of: dict[str, str] = {}  # each command's sender, from its first event
    next_draw: dict[str, int] = {}  # per keying command: the draw the next die must have
    asked: dict[str, dict[str, Any] | None] = {}  # reaction id -> the dice_key it was asked under
    key: dict[str, Any] | None = None  # the key this command's dice must continue, when it answers
    # Stream rules 3 (docs/verifying.md "Stream rules"): a resolution's dice keep the commitment in force
    # when its starting command was accepted. reaction id -> (that commitment, the starting seq).
    per_resolution = False
    began: dict[str, tuple[str | None, int]] = {}
    resolution: tuple[str | None, int] = (None, 0)  # the resolution this command's dice belong to
    requests: list[tuple[int, str]] = []
    for e in events:
        if e.command_id != previous_command:
            command_commitment = in_force
            previous_command = e.command_id
            key = _continued_key(e, asked)
            resolution = _resolution_of(e, began, (in_force, e.seq))
        actor_of.setdefault(e.command_id, e.actor)
        if e.type == "ReactionRequested" and isinstance(e.data.get("id"), str):
            asked[e.data["id"]] = e.data.get("dice_key")
            began[e.data["id"]] = resolution
            wrong = _wrong_request_key(e, key, next_draw)
            if wrong:
                requests.append((e.seq, wrong))
        if e.type == "EncounterCreated":
            in_force = e.data.get("commitment")
            command_commitment = in_force
            resolution = (in_force, e.seq)
            per_resolution = (e.data.get("stream_rules") or 0) >= 3
        elif e.type == "DiceSeedRotated":
            in_force = e.data.get("commitment")
        if e.type != "DieRolled":
            continue
        by = keying_command(e)
        roll = _roll(e, command_commitment, timeline, e.seq in voided, actor_of.get(by, e.actor))
        if per_resolution and roll["source"] != "manual" and resolution[0] != command_commitment:
            roll = {
                **roll,
                "mark": FAILED,
                "problem": f"drawn from commitment {command_commitment}, but its resolution began at seq "
                f"{resolution[1]} under commitment {resolution[0]}: every die of a resolution is drawn from "
                "the seed in force when its starting command was accepted (the seed was rotated mid-resolution)",
            }
        draws, first = e.data.get("draws"), next_draw.get(by, 0)
        wrong_key = _wrongly_keyed(e, key, per_resolution)
        if wrong_key and roll["mark"] != FAILED:
            roll = {**roll, "mark": FAILED, "problem": wrong_key}
        if (
            isinstance(draws, list)
            and draws != list(range(first, first + len(draws)))
            and roll["mark"] != FAILED
        ):
            roll = {
                **roll,
                "mark": FAILED,
                "problem": f"draws {draws} do not run on from draw {first} of command "
                f"{by!r}: draws under one keying command run 0, 1, 2 … with no gap, repeat or choice",
            }
        if isinstance(draws, list) and draws and all(isinstance(d, int) for d in draws):
            next_draw[by] = max(first, max(draws) + 1)
        if e.seq in refused:
            roll = {**roll, "mark": FAILED, "problem": refused[e.seq]}
        rolls.append(roll)
    return rolls, requests


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


def _continued_key(first: Event, asked: dict[str, dict[str, Any] | None]) -> dict[str, Any] | None:
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
    e: Event, commitment: str | None, timeline: dict[str, dict[str, Any]], voided: bool, keyed_actor: str
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
    c = timeline.get(commitment or "")
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
