"""Ruleset discovery through the `tussle.rulesets` entry-point group (and TUSSLE_EXTRA_RULESETS)."""

from __future__ import annotations

import importlib
import os
from importlib.metadata import entry_points
from typing import Any

import msgspec

from events.common import COMMON_EVENTS
from events.dice import DieRolled
from rules.common.commands import COMMON_COMMANDS, Respond
from rules.interface import BadCommand, Command, Ruleset


class RegistryError(Exception):
    """Two rulesets claim the same id, command type or event type."""


def _load(spec: str) -> Ruleset:
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr or "ruleset")


class Registry:
    """The installed rulesets, and a typed decoder for every command type."""

    def __init__(self, rulesets: list[Ruleset]):
        self.rulesets: dict[str, Ruleset] = {}
        commands = {cls.__struct_config__.tag: "common" for cls in COMMON_COMMANDS}
        event_names = {cls.__name__: "common" for cls in COMMON_EVENTS}
        event_names["DieRolled"] = "common"
        for rs in rulesets:
            if rs.id in self.rulesets:
                raise RegistryError(f"two rulesets are registered as {rs.id!r}")
            for cls in rs.commands:
                tag = cls.__struct_config__.tag
                if tag in commands:
                    raise RegistryError(f"command type {tag!r} of {rs.id} is also defined by {commands[tag]}")
                commands[tag] = rs.id
            for ev in rs.events:
                if ev.__name__ in event_names and ev is not DieRolled and ev not in COMMON_EVENTS:
                    raise RegistryError(f"event type {ev.__name__!r} of {rs.id} is also defined by {event_names[ev.__name__]}")
                event_names[ev.__name__] = rs.id
            self.rulesets[rs.id] = rs
        self.command_owner = commands
        # Each command type's own Struct: converting to it is some fifty times quicker than to a tagged
        # union of the ruleset's commands (which msgspec analyses anew on every call), with the same
        # results and messages.
        self._command_classes = {cls.__struct_config__.tag: cls
                                 for cls in [*COMMON_COMMANDS, *(c for rs in self.rulesets.values() for c in rs.commands)]}

    @classmethod
    def discover(cls) -> Registry:
        """Every ruleset installed as an entry point, plus TUSSLE_EXTRA_RULESETS (module:attr, comma-separated)."""
        found = [ep.load() for ep in entry_points(group="tussle.rulesets")]
        extra = os.environ.get("TUSSLE_EXTRA_RULESETS", "")
        found += [_load(s.strip()) for s in extra.split(",") if s.strip()]
        return cls(found)

    def get(self, ruleset_id: str) -> Ruleset | None:
        return self.rulesets.get(ruleset_id)

    def command(self, ruleset_id: str, body: dict[str, Any]) -> Command:
        """Decode a command body for an encounter of this ruleset; BadCommand says what is wrong."""
        ctype = body.get("type")
        if not isinstance(ctype, str):
            raise BadCommand("the command needs a string field type", "type")
        owner = self.command_owner.get(ctype)
        if owner is None:
            raise BadCommand(f"there is no command type {ctype!r}", "type")
        if owner not in ("common", ruleset_id):
            raise BadCommand(f"{ctype!r} is a command of the {owner} ruleset, not of {ruleset_id}", "type")
        if "actor" in body:
            raise BadCommand("actor is set by the server from your token, not by the command", "actor")
        if ctype == "respond":
            known = set(Respond.__struct_fields__) | {"type"}
            extra = {k: v for k, v in body.items() if k not in known}
            if extra:
                params = body.get("params") if isinstance(body.get("params"), dict) else {}
                body = {k: v for k, v in body.items() if k in known} | {"params": {**params, **extra}}
        try:
            return msgspec.convert(body, self._command_classes[ctype], strict=True)
        except msgspec.ValidationError as exc:
            raise BadCommand(f"{ctype}: {exc}", _field_of(str(exc))) from None


def _field_of(message: str) -> str | None:
    if "unknown field `" in message:
        return message.split("unknown field `", 1)[1].split("`", 1)[0]
    if "`$." in message:
        return message.split("`$.", 1)[1].split("`", 1)[0]
    return None
