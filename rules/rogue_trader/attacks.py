"""One blow or shot, from the to-hit roll to the wound (spec 4.6-4.8; §Throw to Hit, §To damage,
§Saving throw). Shared by the close-combat round, free blows and stand-and-fire."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import msgspec

from events.common import Wounded
from events.dice import Dice, Modifier
from rules.rogue_trader.models import stat
from rules.rogue_trader.tables import TO_HIT

# ASCII digits, at most nine a number and a die of at least one side: what int() and the dice can take.
_DICE = re.compile(r"([0-9]{0,9})[dD]([1-9][0-9]{0,8})\Z")


def clamp_ws(value: int) -> int:
    """WS on the table: values above 10 count as 10, below 1 as 1 (A32)."""
    return max(1, min(10, value))


def table_to_hit(attacker_ws: int, defender_ws: int) -> int:
    """§Throw to Hit: the literal 10x10 chart."""
    return TO_HIT[clamp_ws(attacker_ws) - 1][clamp_ws(defender_ws) - 1]


def wound_score(chart: list[list[Any]], strength: int, toughness: int) -> int | None:
    """§To damage: the score needed to wound, or None for "no effect" (N)."""
    s = max(1, min(len(chart), strength))
    t = max(1, min(len(chart[s - 1]), toughness))
    value = chart[s - 1][t - 1]
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


@dataclass
class Blow:
    """One attack ready to resolve."""

    attacker: str
    target: str
    kind: str  # weapon, improvised, or a special attack kind
    strength: int
    save_mod: int
    damage: str  # "1", "D4", "D6", "2D6"
    table: int  # the chart's to-hit score
    modifiers: list[Modifier]
    weapon: str | None = None
    table_from: str = ""  # how the chart's score was reached: "WS 4 against WS 3"


@dataclass
class BlowResult:
    outcome: str  # impossible, miss, no_effect, no_wound, saved, wounded
    wounds: int = 0
    events: list[msgspec.Struct] = field(default_factory=list)
    wound_from: str | None = None  # "S 4 against T 3", once the blow hit


def roll_to_hit(
    dice: Dice,
    table: int,
    modifiers: list[Modifier],
    high_to_hit: dict[str, int],
    purpose: str,
    combatant: str,
) -> tuple[str, list[msgspec.Struct]]:
    """§Throw to Hit, §Minimum to hit, §Maximum to hit: hit, miss or impossible, with its rolls.

    The need is the table score less the modifiers (A2). A natural 1 never hits; a need of 7+ takes
    a 6 and then the `high_to_hit` score on a second die; a need beyond that chart is not rolled.
    """
    need = table - sum(m.value for m in modifiers)
    if need >= 7:
        second = high_to_hit.get(str(need))
        if second is None:
            return "impossible", []
        first = dice.roll(1, 6, purpose, combatant)
        face = first.faces[0]
        if face < 6:
            return "miss", [first.event(modifiers=modifiers, target=table, outcome="miss")]
        events: list[msgspec.Struct] = [first.event(modifiers=modifiers, target=table, outcome="six_rolled")]
        again = dice.roll(1, 6, purpose + "_second", combatant)
        hit = again.faces[0] >= second
        events.append(again.event(target=second, outcome="hit" if hit else "miss"))
        return ("hit" if hit else "miss"), events
    roll = dice.roll(1, 6, purpose, combatant)
    face = roll.faces[0]
    hit = face != 1 and face >= max(2, need)
    return ("hit" if hit else "miss"), [
        roll.event(modifiers=modifiers, target=table, outcome="hit" if hit else "miss")
    ]


def strength_save_modifier(strength: int) -> int:
    """The optional strength scale of spec §7: S4 -1, S5 -2, each further point another -1."""
    return -(strength - 3) if strength >= 4 else 0


def damage_amount(dice: Dice, damage: str, purpose: str, combatant: str) -> tuple[int, list[msgspec.Struct]]:
    """A fixed damage, or a damage roll ("D4", "D6", "2D6")."""
    text = str(damage).strip()
    if re.fullmatch(r"[0-9]{1,9}", text):
        return int(text), []
    m = _DICE.match(text)
    if not m:
        return 1, []
    count = int(m.group(1) or 1)
    roll = dice.roll(count, int(m.group(2)), purpose, combatant)
    return roll.sum, [roll.event(outcome=f"{roll.sum} damage")]


def resolve_blow(
    dice: Dice,
    blow: Blow,
    target: dict[str, Any],
    options: dict[str, Any],
    purpose_prefix: str = "",
) -> BlowResult:
    """To hit, to wound, save, damage; dice not needed are not drawn (spec 4.5)."""
    p = purpose_prefix
    outcome, events = roll_to_hit(
        dice, blow.table, blow.modifiers, options["high_to_hit"], p + "to_hit", blow.attacker
    )
    result = BlowResult(outcome=outcome, events=list(events))
    if outcome != "hit":
        return result
    score = wound_score(options["wound_chart"], blow.strength, stat(target, "T"))
    result.wound_from = f"S {blow.strength} against T {stat(target, 'T')}"
    if score is None:
        result.outcome = "no_effect"
        return result
    wr = dice.roll(1, 6, p + "to_wound", blow.attacker)
    face = wr.faces[0]
    wounded = face != 1 and face >= score
    result.events.append(wr.event(target=score, outcome="wound" if wounded else "no_wound"))
    if not wounded:
        result.outcome = "no_wound"
        return result
    save = target["stats"].get("save")
    if save:
        mods = []
        if blow.save_mod:
            mods.append(Modifier(blow.save_mod, "weapon save modifier"))
        if options.get("strength_save_mods"):
            sm = strength_save_modifier(blow.strength)
            if sm:
                mods.append(Modifier(sm, f"strength {blow.strength}"))
        required = int(save) - sum(m.value for m in mods)
        if required <= 6:
            sr = dice.roll(1, 6, p + "save", blow.target)
            sface = sr.faces[0]
            saved = sface != 1 and sface >= required
            result.events.append(
                sr.event(modifiers=mods, target=int(save), outcome="saved" if saved else "failed")
            )
            if saved:
                result.outcome = "saved"
                return result
    amount, devents = damage_amount(dice, blow.damage, p + "damage", blow.attacker)
    result.events.extend(devents)
    result.outcome = "wounded"
    result.wounds = amount
    result.events.append(Wounded(combatant=blow.target, amount=amount, source=blow.attacker))
    return result
