"""An independent verifier for tests, written from DESIGN.md alone: hashlib, hmac and json only."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chain_ok(events: list[dict[str, Any]]) -> int | None:
    """The first bad seq, or None."""
    prev = "0" * 64
    for i, e in enumerate(events, start=1):
        body = {k: e[k] for k in ("stream", "seq", "type", "data", "actor", "command_id", "ts", "prev_hash")}
        if e["seq"] != i or e["prev_hash"] != prev:
            return e["seq"]
        if hashlib.sha256(prev.encode("ascii") + canonical(body)).hexdigest() != e["hash"]:
            return e["seq"]
        prev = e["hash"]
    return None


def face(seed: bytes, stream: str, command_id: str, draw: int, sides: int, entropy: str) -> int:
    attempt = 0
    while True:
        msg = json.dumps(
            ["tussle-dice-v1", stream, command_id, draw, sides, attempt, entropy], separators=(",", ":")
        ).encode()
        u = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest()[:8], "big")
        if u < (2**64 // sides) * sides:
            return u % sides + 1
        attempt += 1


def check_dice(events: list[dict[str, Any]]) -> tuple[int, list[str]]:
    """Recompute every server die from the revealed seeds: (rolls checked, problems)."""
    commitment = events[0]["data"]["commitment"]
    seeds: dict[str, bytes] = {}
    in_force: list[tuple[dict[str, Any], str]] = []
    for e in events:
        if e["type"] == "DiceSeedRotated":
            seed = bytes.fromhex(e["data"]["revealed_seed"])
            assert hashlib.sha256(seed).hexdigest() == commitment, (
                f"seq {e['seq']}: seed does not match commitment"
            )
            seeds[commitment] = seed
            commitment = e["data"]["commitment"]
        elif e["type"] == "DieRolled" and e["data"]["source"] == "server":
            in_force.append((e, commitment))
    problems = []
    for e, c in in_force:
        d = e["data"]
        for f, draw in zip(d["faces"], d["draws"], strict=True):
            expected = face(seeds[c], e["stream"], e["command_id"], draw, d["sides"], d["entropy"])
            if expected != f:
                problems.append(f"seq {e['seq']}: draw {draw} is {f}, the seed gives {expected}")
    return len(in_force), problems
