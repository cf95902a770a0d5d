"""Recording an injury (spec sections 1 and 4.4): the server rolls a weapon's damage dice, the GM
records what it does (`gurps.record_injury`, GM only), appending `Wounded`."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import Wounded
from events.dice import Dice
from rules.gurps.commands import RecordInjury
from rules.interface import BadCommand


def decide_record_injury(state: dict[str, Any], cmd: RecordInjury, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.record_injury`."""
    if cmd.amount < 0:
        raise BadCommand("amount cannot be negative", "amount")
    return [Wounded(cmd.target, cmd.amount, cmd.source)]
