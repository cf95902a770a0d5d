"""Issue 26 item 4: docs/rulesets.md gives the kernel helpers' signatures as the code has them, so a ruleset
author writes against what is there (a helper added, renamed or re-typed fails here until the page says so)."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from typing import Any

from events.dice import Dice, Roll

DOC = Path(__file__).resolve().parents[1] / "docs" / "rulesets.md"
MODULES = ("rules.hexes", "rules.plane", "rules.offers", "rules.offer_checks", "rules.working")


class _Written:
    """An annotation as the source writes it (the modules use postponed annotations: strings)."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _shown(f: Any) -> str:
    sig = inspect.signature(f)
    params = [
        p.replace(annotation=_Written(p.annotation)) if isinstance(p.annotation, str) else p
        for p in sig.parameters.values()
    ]
    ret = sig.return_annotation
    sig = sig.replace(parameters=params, return_annotation=_Written(ret) if isinstance(ret, str) else ret)
    return re.sub(r"<function <lambda> at 0x[0-9a-f]+>", "<lambda>", str(sig))


def signature_lines() -> list[str]:
    """One line per public function of the kernel modules above, and Dice.roll and Roll's methods."""
    lines = []
    for name in MODULES:
        module = importlib.import_module(name)
        for fname, f in vars(module).items():
            if inspect.isfunction(f) and f.__module__ == name and not fname.startswith("_"):
                lines.append(f"{name}.{fname}{_shown(f)}")
    for cls, method in ((Dice, "roll"), (Roll, "sum"), (Roll, "notation"), (Roll, "event")):
        f = inspect.getattr_static(cls, method)
        if isinstance(f, property):  # read as `roll.sum`, no call
            shape = f": {f.fget.__annotations__['return']} (a property)"
        else:
            shape = _shown(f)
        lines.append(f"{cls.__module__}.{cls.__name__}.{method}{shape}")
    return lines


def test_the_page_gives_every_kernel_helper_with_its_signature() -> None:
    text = DOC.read_text()
    missing = [line for line in signature_lines() if line not in text]
    assert not missing, "docs/rulesets.md lacks (or has an old form of):\n" + "\n".join(missing)
