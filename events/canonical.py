"""Canonical JSON (DESIGN.md "The event envelope"): the exact bytes that are hashed."""

from __future__ import annotations

from typing import Any

import msgspec

_encoder = msgspec.json.Encoder(order="sorted")


def canonical(value: Any) -> bytes:
    """Encode `value` as canonical JSON: sorted keys, no whitespace, integers only."""
    return _encoder.encode(value)


class FloatInEventData(ValueError):
    """Event data (and so command bodies) must hold no floats (DESIGN.md "Units")."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def check_integers_only(value: Any, path: str = "data") -> None:
    """Raise FloatInEventData if `value` holds a float or an integer too large for 2^53."""
    if not _integers_only(value):
        _explain(value, path)


def _integers_only(value: Any) -> bool:
    """What `_explain` checks, without naming the place of each value as it goes (every command and
    event passes here, and nearly all of them pass)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    if isinstance(value, int):
        return abs(value) < 2**53
    if isinstance(value, float):
        return False
    if isinstance(value, dict):
        value = value.values()
    elif not isinstance(value, (list, tuple)):
        return True
    for v in value:
        if not _integers_only(v):
            return False
    return True


def _explain(value: Any, path: str) -> None:
    """Raise FloatInEventData naming the first value that is not allowed."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if abs(value) >= 2**53:
            raise FloatInEventData(f"{path} is an integer too large to hash canonically", path)
        return
    if isinstance(value, float):
        raise FloatInEventData(f"{path} is a fraction; only integers are allowed", path)
    if isinstance(value, dict):
        for k, v in value.items():
            _explain(v, f"{path}.{k}")
        return
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _explain(v, f"{path}[{i}]")
