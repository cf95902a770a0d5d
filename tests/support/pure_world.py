"""A pure, in-memory encounter for ruleset tests: the engine's own command pipeline (rules.pipeline) with
manual dice, folding events with rules.state.evolve. No server, no store."""

from __future__ import annotations

from typing import Any

from events.common import EncounterCreated
from events.dice import Dice
from events.envelope import Event, NewEvent
from rules.common.options import resolve_options
from rules.interface import Ruleset
from rules.pipeline import Context, decide_command, to_new_event
from rules.registry import Registry
from rules.state import evolve, initial_state, replay
from tests.support.bodies import decided


class PureWorld:
    """One encounter of `ruleset`: `send` runs a command as the engine would and appends its events."""

    ruleset: Ruleset

    def __init__(self, ruleset: Ruleset, **options: Any):
        self.ruleset = ruleset
        self.registry = Registry([ruleset])
        self.options = resolve_options(ruleset, options)
        self.state: dict[str, Any] = {**initial_state(), "rules": ruleset.initial_state(self.options)}
        self.log: list[Event] = []
        self.commands = 0
        created = EncounterCreated(
            "test", ruleset.id, ruleset.version, self.options, dict(ruleset.geometry), None, "manual"
        )
        self._append([to_new_event(created)], "gm", "create")

    def _append(self, new: list[NewEvent], actor: str, command_id: str) -> list[Event]:
        out = []
        for ne in new:
            e = Event("s", self.state["seq"] + 1, ne.type, ne.data, actor, command_id, "", "", "")
            self.state = evolve(self.state, e, self.ruleset)
            self.log.append(e)
            out.append(e)
        return out

    def send(
        self, type: str, *, dice: list[list[int]] | None = None, actor: str = "gm", **fields: Any
    ) -> list[Event]:
        """Decide and append one command (raises RuleError/BadCommand/Forbidden like the server)."""
        cmd = self.registry.command(self.ruleset.id, {"type": type, **fields})
        self.commands += 1
        command_id = f"c{self.commands}"
        ctx = Context(stream="s", actor=actor, command_id=command_id)
        d = Dice(stream="s", command_id=command_id, supplied=list(dice or []))
        return self._append(decide_command(self.state, self.ruleset, cmd, ctx, d), actor, command_id)

    def replayed(self) -> dict[str, Any]:
        """The state replayed from the log, to compare with the state folded live."""
        return replay(self.log, lambda e: self.ruleset)

    @property
    def rules(self) -> dict[str, Any]:
        return self.state["rules"]

    def combatant(self, cid: str) -> dict[str, Any]:
        return self.state["combatants"][cid]


def types(events: list[Event]) -> list[str]:
    """The event types, in order."""
    return [e.type for e in events]


def of_type(events: list[Event], name: str) -> list[dict[str, Any]]:
    """The data of the events of one type, in order."""
    return [decided(e.data) for e in events if e.type == name]
