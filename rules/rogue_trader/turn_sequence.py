"""The common commands as Rogue Trader sees them (spec §1 turn, 4.1, 4.13, A34): phases, the
coherency check at the end of movement and close combat, ordinary moves, and devil variants."""

from __future__ import annotations

from typing import Any

import msgspec

from events.dice import Dice
from rules.common.commands import AddCombatant, Move, StartPhase, StartTurn
from rules.interface import RuleError
from rules.refusals import refuse
from rules.rogue_trader.coherency import check_all
from rules.rogue_trader.events import RtCreatureVariantDetermined
from rules.rogue_trader.models import rules_model, turn, unit_name
from rules.rogue_trader.movement import check_move
from rules.rogue_trader.tables import CATACHAN_DEVIL, DEVIL_FIDDLER_MAX, DEVIL_MALE_MAX, DEVIL_VARIANT_CLAWS
from rules.working import Working

State = dict[str, Any]
PHASES = ("movement", "shooting", "close_combat", "end")


def on_common(
    state: State, command: Any, events: list[msgspec.Struct], dice: Dice, ruleset: Any
) -> list[msgspec.Struct]:
    """Extend or refuse a common command."""
    if isinstance(command, StartPhase):
        if command.phase not in PHASES:
            raise RuleError(
                f"Rogue Trader turns have the phases {', '.join(PHASES)}, not {command.phase!r}",
                {"phase": command.phase},
            )
        return _leaving_phase(state, ruleset) + list(events)
    if isinstance(command, StartTurn):
        return _leaving_phase(state, ruleset) + list(events)
    if isinstance(command, Move):
        check_move(state, command)
        return events
    if isinstance(command, AddCombatant):
        return _devil_variant(state, events, dice)
    return events


def _leaving_phase(state: State, ruleset: Any) -> list[msgspec.Struct]:
    """Refuse to pass what is owed (A34); check coherency when movement or close combat ends (4.13)."""
    r = state.get("rules", {})
    current = state.get("phase")
    in_this_turn = r.get("phase_turn") == turn(state)
    problems = []
    if r.get("charge"):
        charger = state["combatants"].get(r["charge"]["charger"], {}).get("name", r["charge"]["charger"])
        problems.append(f"{charger}'s charge is not finished (its target ran: retarget or name none)")
    for uid in sorted(r.get("owed", {}).get("push_back", {})):
        problems.append(f"{unit_name(state, uid)} must still be pushed back (rogue-trader.push_back)")
    for uid in sorted(r.get("owed", {}).get("follow_up", {})):
        problems.append(
            f"{unit_name(state, uid)} must still follow up or try to hold (rogue-trader.follow_up)"
        )
    if current == "close_combat" and in_this_turn:
        unfought = [
            gid
            for gid, members in sorted(r.get("groups", {}).items())
            if not any(rules_model(state, m).get("resolved_round") == turn(state) for m in members)
        ]
        if unfought:
            problems.append(f"every combat group fights each turn; not yet resolved: {', '.join(unfought)}")
    refuse(problems)
    if current in ("movement", "close_combat") and in_this_turn:
        t = Working(state, ruleset.evolve)
        check_all(t)
        return t.events
    return []


def _devil_variant(state: State, events: list[msgspec.Struct], dice: Dice) -> list[msgspec.Struct]:
    """A large Catachan Devil: d100 <= 50 adult male (+2 claws), then d100 <= 10 fiddler (one claw D6)."""
    out = list(events)
    for ev in events:
        stats = getattr(ev, "stats", None)
        # A large devil's variant: rolled (`variant_roll`), or entered by the GM (`variant`), which gives
        # the same claws without dice.
        if not isinstance(stats, dict) or not (
            stats.get("variant_roll") == "catachan_devil"
            or (
                stats.get("creature") == "catachan_devil"
                and stats.get("size") == "large"
                and "variant" in stats
            )
        ):
            continue
        base = [dict(a) for a in (stats.get("special_attacks") or CATACHAN_DEVIL["large"]["special_attacks"])]
        variant = stats.get("variant")
        if variant is None:
            male_roll = dice.roll(1, 100, "variant", ev.id)
            male = male_roll.faces[0] <= DEVIL_MALE_MAX
            out.append(male_roll.event(target=DEVIL_MALE_MAX, outcome="adult male" if male else "not male"))
            variant = "female"
            if male:
                fiddler_roll = dice.roll(1, 100, "variant", ev.id)
                fiddler = fiddler_roll.faces[0] <= DEVIL_FIDDLER_MAX
                out.append(
                    fiddler_roll.event(
                        target=DEVIL_FIDDLER_MAX, outcome="fiddler" if fiddler else "not a fiddler"
                    )
                )
                variant = "fiddler" if fiddler else "male"
        attacks = base + [dict(a) for a in DEVIL_VARIANT_CLAWS[variant]]
        out.append(RtCreatureVariantDetermined(combatant=ev.id, variant=variant, attacks=attacks))
    return out


def devil_profile(size: str) -> dict[str, Any]:
    """The Catachan Devil's profile of one size (§Special Attack Arcs example)."""
    return dict(CATACHAN_DEVIL[size])


__all__ = ["on_common", "PHASES", "devil_profile", "rules_model"]
