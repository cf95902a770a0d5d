"""Reading a ruleset option from the encounter state: one `option()` for every ruleset.

`EncounterCreated.options` holds every option resolved at creation (rules/common/options.py), and
`OptionsChanged` merges validated values over them, so a stored key is the encounter's choice — even
a stored null, which an option typed `X | None` may mean ("no limit", "off"): it is never replaced by
the default. Only a key the encounter lacks (an encounter older than the option) reads the default.
An unknown name is a KeyError: a typo in a rule must be loud, not a silent default.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

OptionReader = Callable[[Mapping[str, Any], str], Any]


def defaults_of(options_type: type[msgspec.Struct]) -> dict[str, Any]:
    """Every option of a ruleset's `Options` Struct with its default, as JSON."""
    return msgspec.to_builtins(options_type())


def option(state: Mapping[str, Any], name: str, defaults: Mapping[str, Any]) -> Any:
    """The encounter's value of option `name`; `defaults[name]` only when the encounter predates it."""
    default = defaults[name]
    return (state.get("options") or {}).get(name, default)


def reader(options_type: type[msgspec.Struct]) -> OptionReader:
    """`option(state, name)` for one ruleset, its defaults taken once from `options_type`."""
    defaults = defaults_of(options_type)

    def read(state: Mapping[str, Any], name: str) -> Any:
        return option(state, name, defaults)

    read.__doc__ = f"The encounter's value of a {options_type.__name__} option (rules.options.option)."
    return read
