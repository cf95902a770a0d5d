"""Ruleset discovery through the `tussle.rulesets` entry-point group (and TUSSLE_EXTRA_RULESETS)."""

from __future__ import annotations

import importlib
import os
from importlib.metadata import entry_points
from typing import Any, Union

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
                    raise RegistryError(
                        f"event type {ev.__name__!r} of {rs.id} is also defined by {event_names[ev.__name__]}"
                    )
                event_names[ev.__name__] = rs.id
            self.rulesets[rs.id] = rs
        self.command_owner = commands
        # One decoder per ruleset, built once: a tagged union (on `type`) of the common commands and the
        # ruleset's own, so the Structs' types are the whole check of a command's shape (a decoder keeps
        # msgspec's analysis of the union; `msgspec.convert` to a union would redo it on every call).
        self._decoders = {rs_id: command_decoder(rs) for rs_id, rs in self.rulesets.items()}

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
        """Decode a command body for an encounter of this ruleset; BadCommand (400) says what is wrong:
        an unknown command, one of another ruleset, or a field the command's type does not allow."""
        if "actor" in body:  # a field of every Command, but the server's to set
            raise BadCommand("actor is set by the server from your token, not by the command", "actor")
        if body.get("type") == "respond":
            body = _respond_params(body)
        try:
            return self._decoders[ruleset_id].decode(_encode(body))
        except msgspec.ValidationError as exc:
            message = str(exc)
            if message.endswith("at `$.type`") or "missing required field `type`" in message:
                raise BadCommand(self._unknown_type(ruleset_id, body.get("type")), "type") from None
            raise BadCommand(f"{body.get('type')}: {message}", _field_of(message)) from None

    def _unknown_type(self, ruleset_id: str, ctype: Any) -> str:
        if not isinstance(ctype, str):
            return "the command needs a string field type"
        owner = self.command_owner.get(ctype)
        if owner is None:
            return f"there is no command type {ctype!r}"
        return f"{ctype!r} is a command of the {owner} ruleset, not of {ruleset_id}"


_encode = msgspec.json.Encoder().encode


def command_decoder(ruleset: Ruleset) -> msgspec.json.Decoder:
    """The decoder of every command an encounter of `ruleset` takes: a tagged union over `type`."""
    return msgspec.json.Decoder(Union[(*COMMON_COMMANDS, *ruleset.commands)], strict=True)  # noqa: UP007


def _respond_params(body: dict[str, Any]) -> dict[str, Any]:
    """A respond's fields beyond its own are the reaction's params (API.md "Reactions")."""
    known = set(Respond.__struct_fields__) | {"type"}
    extra = {k: v for k, v in body.items() if k not in known}
    if not extra:
        return body
    params = body.get("params") if isinstance(body.get("params"), dict) else {}
    return {k: v for k, v in body.items() if k in known} | {"params": {**params, **extra}}


def _field_of(message: str) -> str | None:
    if "unknown field `" in message:
        return message.split("unknown field `", 1)[1].split("`", 1)[0]
    if "`$." in message:
        return message.split("`$.", 1)[1].split("`", 1)[0]
    return None
