"""What `GET /rulesets` says of each installed ruleset: options, geometry, command types and fields."""

from __future__ import annotations

from typing import Any

import msgspec

from rules.common.commands import COMMON_COMMANDS
from rules.common.options import EngineOptions
from rules.interface import Command
from rules.registry import Registry

_ENVELOPE_FIELDS = set(Command.__struct_fields__)


def _fields(cls: type[msgspec.Struct]) -> list[dict[str, Any]]:
    out = []
    for f in msgspec.structs.fields(cls):
        if f.name in _ENVELOPE_FIELDS:
            continue
        required = f.default is msgspec.NODEFAULT and f.default_factory is msgspec.NODEFAULT
        default = None if required else (f.default if f.default is not msgspec.NODEFAULT else f.default_factory())
        out.append({"name": f.encode_name, "type": _type_name(f.type), "required": required,
                    "default": msgspec.to_builtins(default)})
    return out


def _type_name(t: Any) -> str:
    return getattr(t, "__name__", None) or str(t).replace("typing.", "")


def _command(cls: type[msgspec.Struct]) -> dict[str, Any]:
    return {"type": cls.__struct_config__.tag, "fields": _fields(cls), "doc": (cls.__doc__ or "").strip()}


def describe_rulesets(registry: Registry) -> list[dict[str, Any]]:
    """Each ruleset with its id, title, version, geometry, options and commands (common ones included)."""
    common = [_command(c) for c in COMMON_COMMANDS]
    return [{
        "id": rs.id, "title": rs.title, "version": rs.version, "geometry": rs.geometry,
        "options": _fields(rs.Options) + _fields(EngineOptions),
        "commands": [_command(c) for c in rs.commands], "common_commands": common,
    } for rs in registry.rulesets.values()]
