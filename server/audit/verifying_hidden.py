"""The verifier's check of the GM's hidden rolls (events/hidden_rolls.py, docs/verifying.md §Hidden rolls).

Each revealed roll must hash to the commitment its `HiddenRollMade` published and add up as its
expression says; once the hidden seed is revealed (at close), it must hash to the creation's
`hidden_commitment`, and every hidden roll's commitment, faces and salt must be what that seed derives.
A changed roll is named at the event that shows the change: a reveal whose faces do not match, or a
commitment the seed does not give.
"""

from __future__ import annotations

from typing import Any

from events.dice import commitment_of
from events.envelope import Event
from events.hidden_rolls import hidden_faces, roll_commitment, salt_of, total_of
from projections.audit import seed_bytes


class HiddenRolls:
    """The hidden rolls checked event by event, resumable (the verifier's checkpoint): each reveal when it
    comes; the seed, which may be revealed at any point, against every roll when the report is made."""

    def __init__(self) -> None:
        self.problems: list[tuple[str, str, int]] = []
        self.created: dict[str, Any] | None = None  # the creation's data, once the first event is taken
        self.made: dict[int, Event] = {}
        self.reveals: dict[int, Event] = {}
        self.bad: set[int] = set()
        self.seed_event: Event | None = None

    def fold(self, events: list[Event]) -> None:
        """Take the events after the last ones taken."""
        ordered = sorted(events, key=lambda e: e.seq)
        if ordered and self.created is None:
            self.created = ordered[0].data if ordered[0].type == "EncounterCreated" else {}
        self.made.update((e.seq, e) for e in ordered if e.type == "HiddenRollMade")
        for e in ordered:
            if e.type == "HiddenRollRevealed":
                self._revealed(e)
            elif e.type == "HiddenSeedRevealed" and self.seed_event is None:
                self.seed_event = e

    def _revealed(self, e: Event) -> None:
        problems, reveals, bad = self.problems, self.reveals, self.bad
        target = e.data.get("seq")
        roll = self.made.get(target) if isinstance(target, int) else None
        if roll is None or not isinstance(target, int) or target >= e.seq:
            problems.append(
                ("hidden", f"seq {e.seq} reveals seq {target}, which is no earlier hidden roll", e.seq)
            )
            return
        if target in reveals:
            problems.append(
                (
                    "hidden",
                    f"seq {e.seq} reveals the hidden roll at seq {target} again (first at seq "
                    f"{reveals[target].seq})",
                    e.seq,
                )
            )
            return
        reveals[target] = e
        faces, salt = e.data.get("faces"), e.data.get("salt")
        if (
            not isinstance(faces, list)
            or not isinstance(salt, str)
            or roll_commitment(faces, salt) != roll.data["commitment"]
        ):
            problems.append(
                (
                    "hidden",
                    f"seq {e.seq}: the faces revealed for the hidden roll at seq {target} ({faces}) "
                    f"with their salt do not hash to the commitment made at seq {target}: the roll "
                    "was changed after it was made",
                    e.seq,
                )
            )
            bad.add(target)
            return
        try:
            total = total_of(roll.data["expression"], faces)
        except ValueError as exc:
            problems.append(
                (
                    "hidden",
                    f"seq {e.seq}: the faces revealed for seq {target} do not fit "
                    f"{roll.data['expression']}: {exc}",
                    e.seq,
                )
            )
            bad.add(target)
            return
        if total != e.data.get("total"):
            problems.append(
                (
                    "hidden",
                    f"seq {e.seq}: total {e.data.get('total')}, but {roll.data['expression']} "
                    f"with faces {faces} gives {total}",
                    e.seq,
                )
            )
            bad.add(target)

    def report(self) -> tuple[list[tuple[str, str, int]], dict[str, int]]:
        """The problems and counts of every event taken so far."""
        problems, bad, made, reveals = list(self.problems), set(self.bad), self.made, self.reveals
        seed_event = self.seed_event
        seed = _checked_seed(seed_event, self.created or {}, problems)
        if seed is not None and seed_event is not None:
            stream = seed_event.stream
            for seq, roll in made.items():
                d = roll.data
                faces = hidden_faces(seed, stream, d["keyed_command_id"], d["entropy"], d["expression"])
                if (
                    roll_commitment(faces, salt_of(seed, stream, d["keyed_command_id"], d["entropy"]))
                    != d["commitment"]
                ):
                    problems.append(
                        (
                            "hidden",
                            f"seq {seq}: the hidden roll's commitment is not what the hidden seed "
                            f"revealed at seq {seed_event.seq} gives for its inputs",
                            seq,
                        )
                    )
                    bad.add(seq)
                elif seq not in reveals:
                    problems.append(
                        (
                            "hidden",
                            f"the hidden roll at seq {seq} was never revealed, though the hidden "
                            f"seed was (seq {seed_event.seq})",
                            seed_event.seq,
                        )
                    )
                    bad.add(seq)
        counts = {
            "hidden_rolls": len(made),
            "hidden_rolls_revealed": len(reveals),
            "hidden_rolls_verified": len([s for s in reveals if s not in bad]),
        }
        return problems, counts


def _checked_seed(
    e: Event | None, created: dict[str, Any], problems: list[tuple[str, str, int]]
) -> bytes | None:
    """The revealed hidden seed when it hashes to the creation's hidden commitment (never used otherwise)."""
    if e is None:
        return None
    committed = created.get("hidden_commitment")
    seed = seed_bytes(e.data.get("revealed_seed", "")) or b""
    if not committed or commitment_of(seed) != committed or e.data.get("commitment") != committed:
        problems.append(
            (
                "seed",
                f"the hidden seed revealed at seq {e.seq} does not hash to the hidden commitment "
                f"{committed} published at seq 1",
                e.seq,
            )
        )
        return None
    return seed


__all__ = ["HiddenRolls"]
