"""What `GET /rulesets` says of each installed ruleset: options, geometry, command types and fields."""

from __future__ import annotations

from typing import Any

import msgspec

from rules.common.commands import COMMON_COMMANDS
from rules.common.options import EngineOptions
from rules.registry import Registry
from server.guides.guide import fields


def _command(cls: type[msgspec.Struct]) -> dict[str, Any]:
    return {"type": cls.__struct_config__.tag, "fields": fields(cls), "doc": (cls.__doc__ or "").strip()}


def describe_rulesets(registry: Registry) -> list[dict[str, Any]]:
    """Each ruleset with its id, title, version, geometry, options and commands (common ones included)."""
    common = [_command(c) for c in COMMON_COMMANDS]
    return [
        {
            "id": rs.id,
            "title": rs.title,
            "version": rs.version,
            "geometry": rs.geometry,
            "options": fields(rs.Options) + fields(EngineOptions),
            "commands": [_command(c) for c in rs.commands],
            "common_commands": common,
        }
        for rs in registry.rulesets.values()
    ]
