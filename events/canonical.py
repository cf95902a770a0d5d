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


def check_integers_only(value: Any, path: str = "data") -> None:
    """Raise FloatInEventData if `value` holds a float or an integer too large for 2^53."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if abs(value) >= 2**53:
            raise FloatInEventData(f"{path} is an integer too large to hash canonically")
        return
    if isinstance(value, float):
        raise FloatInEventData(f"{path} is a fraction; only integers are allowed")
    if isinstance(value, dict):
        for k, v in value.items():
            check_integers_only(v, f"{path}.{k}")
        return
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            check_integers_only(v, f"{path}[{i}]")
