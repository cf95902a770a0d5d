"""Which attacks a model makes and at whom (spec 4.4; §Close Combat Weapons, §Multiple weapons,
§Attack Arc, §Special Attack Arcs), and the to-hit modifiers of each (spec 4.6, §To Hit Modifiers)."""

from __future__ import annotations

from typing import Any

from events.dice import Modifier
from rules.interface import BadCommand, RuleError
from rules.plane import Point, relative_bearing
from rules.refusals import refuse
from rules.rogue_trader.attacks import Blow, table_to_hit
from rules.rogue_trader.models import (
    contacts_of,
    disadvantaged,
    has_flag,
    living,
    rules_model,
    special_attacks,
    stat,
    turn,
    weapon_by_id,
    weapons,
)
from rules.rogue_trader.options import option
from rules.rogue_trader.tables import ATTACK_ARCS, SPECIAL_DAMAGE

ANGLE_EPSILON = 1e-6  # the 45° and 135° boundaries belong to the narrower arc (A1)


def pushed_back_an_opponent(state: State, cid: str, round_: int) -> bool:
    """§To Hit Modifiers "+1 Following up: if the model pushed back its combat opponent in the previous turn":
    the pusher's, whether its unit then followed up or held (a pushed-back model records who pushed it)."""
    return any(
        m.get("pushed_back_round") == round_ and cid in (m.get("pushed_back_by") or [])
        for m in state.get("rules", {}).get("models", {}).values()
    )


def arc_of(attacker: Point, facing: int, defender: Point) -> str:
    """Which arc of the attacker the defender stands in: front, left, right or rear (spec §1, A1)."""
    delta = relative_bearing(attacker, facing, defender)
    size = abs(delta)
    if size <= 45.0 + ANGLE_EPSILON:
        return "front"
    if size <= 135.0 + ANGLE_EPSILON:
        return "left" if delta > 0 else "right"
    return "rear"


State = dict[str, Any]
ARC_WORDS = {"front": "front", "left": "left side", "right": "right side", "rear": "rear"}


def weapon_hands(w: dict[str, Any]) -> int:
    return 2 if int(w.get("hands", 1)) >= 2 or w.get("held_in") == "both" else 1


def free_hands(c: dict[str, Any]) -> int:
    """Hands free for weapons: a hand holding equipment is not free (§Multiple weapons)."""
    return int(c["stats"].get("hands", 2)) - int(c["stats"].get("equipment_hands", 0))


def held_in(w: dict[str, Any]) -> str:
    return "both" if weapon_hands(w) == 2 else str(w.get("held_in", "R")).upper()


def default_weapons(c: dict[str, Any]) -> list[dict[str, Any]]:
    """DECISION: one C-type weapon per hand (right first), else a two-handed one; none -> improvised."""
    close = [w for w in weapons(c) if has_flag(w, "C")]
    one_handed: dict[str, dict[str, Any]] = {}
    for w in close:
        if weapon_hands(w) == 1:
            one_handed.setdefault(held_in(w), w)
    chosen = [one_handed[h] for h in ("R", "L") if h in one_handed][: max(0, free_hands(c))]
    if chosen:
        return chosen
    two = [w for w in close if weapon_hands(w) == 2]
    return two[:1] if two and free_hands(c) >= 2 else []


def attack_slots(
    state: State, c: dict[str, Any], chosen: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """Every attack the model may make this round: `{attack, weapon, hand, damage, S, save_mod}`.

    Creatures with special attacks use that list instead of A; otherwise A attacks with each weapon
    in use (two weapons: A with each), or A improvised attacks (A21)."""
    specials = special_attacks(state, c)
    if specials:
        slots = []
        for sa in specials:
            for _ in range(int(sa.get("count", 1))):
                slots.append(
                    {
                        "attack": sa["kind"],
                        "weapon": None,
                        "hand": None,
                        "damage": str(sa.get("damage", SPECIAL_DAMAGE.get(sa["kind"], "1"))),
                        "S": sa.get("S"),
                        "save_mod": int(sa.get("save_mod", 0)),
                    }
                )
        return slots
    a = stat(c, "A")
    ws = default_weapons(c) if chosen is None else chosen
    if not ws:
        return [
            {"attack": "improvised", "weapon": None, "hand": None, "damage": "1", "S": None, "save_mod": 0}
            for _ in range(a)
        ]
    return [
        {
            "attack": "weapon",
            "weapon": w["id"],
            "hand": held_in(w),
            "damage": str(w.get("damage", 1)),
            "S": w.get("S"),
            "save_mod": int(w.get("save_mod", 0)),
        }
        for w in ws
        for _ in range(a)
    ]


def legal_targets(state: State, c: dict[str, Any], attack: str, facing: int | None = None) -> list[str]:
    """Enemies in contact that lie in the arc this kind of attack may strike."""
    f = (c.get("facing") or 0) if facing is None else facing
    arcs = ATTACK_ARCS.get(attack, ATTACK_ARCS["weapon"])
    return [
        e
        for e in contacts_of(state, c["id"])
        if arc_of(c["position"], f, state["combatants"][e]["position"]) in arcs
    ]


def front_enemies(state: State, c: dict[str, Any]) -> list[str]:
    return legal_targets(state, c, "weapon")


def _left_to_give(remaining: list[dict[str, Any]]) -> str:
    """What a refused allocation entry could have named instead: each {attack, weapon} still unallocated."""
    if not remaining:
        return "every attack is allocated already"
    left = ", ".join(
        f'{{"attack": "{s["attack"]}", "weapon": ' + (f'"{s["weapon"]}"' if s["weapon"] else "null") + "}"
        for s in remaining
    )
    return f"attack is weapon, improvised or a special attack's kind; left to give: {left}"


def validate(
    state: State, c: dict[str, Any], entries: list[dict[str, Any]], facing: int | None = None
) -> list[dict[str, Any]]:
    """Check a player's allocation (spec 4.4 rule errors) and return it complete, in the order given."""
    if not isinstance(entries, list) or not entries:
        raise BadCommand(
            "allocations must be a non-empty list of {attack, weapon, hand, target}", "allocations"
        )
    cid = c["id"]
    problems: list[str] = []
    used_weapons: list[dict[str, Any]] = []
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or not isinstance(e.get("target"), str):
            raise BadCommand(f"allocations[{i}] needs a target", f"allocations[{i}]")
        wid = e.get("weapon")
        if wid is not None:
            w = weapon_by_id(c, wid)
            if w is None:
                raise RuleError(f"{c['name']} carries no weapon {wid!r}", {"weapon": wid})
            if not has_flag(w, "C"):
                problems.append(f"{w.get('name', wid)} is not a close combat (C-type) weapon")
            if w not in used_weapons:
                used_weapons.append(w)
    specials = special_attacks(state, c)
    if specials and used_weapons:
        problems.append(f"{c['name']} fights with its special attacks, not weapons")
    hands_needed = sum(weapon_hands(w) for w in used_weapons)
    if hands_needed > free_hands(c):
        problems.append(f"{c['name']} has {free_hands(c)} free hand(s) but the weapons need {hands_needed}")
    held = [held_in(w) for w in used_weapons]
    if len(held) != len(set(held)) or ("both" in held and len(held) > 1):
        problems.append("two weapons cannot be wielded in the same hand")
    refuse(problems, details={"combatant": cid})
    slots = attack_slots(state, c, used_weapons if used_weapons else None)
    out: list[dict[str, Any]] = []
    remaining = list(slots)
    f = (c.get("facing") or 0) if facing is None else facing
    for i, e in enumerate(entries):
        kind = e.get("attack") or ("weapon" if e.get("weapon") else None)
        if kind is None and not specials:
            # Only a target: the model's next attack (its default weapon's, or improvised when unarmed).
            kind = remaining[0]["attack"] if remaining else next((s["attack"] for s in slots), "improvised")
            match = remaining[0] if remaining else None
        else:
            match = next(
                (s for s in remaining if s["attack"] == kind and s["weapon"] == e.get("weapon")), None
            )
        if match is None:
            problems.append(
                f"allocations[{i}]: {c['name']} has no {'more ' if any(s['attack'] == kind for s in slots) else ''}"
                f"{kind or 'such'} attack{' with ' + str(e.get('weapon')) if e.get('weapon') else ''} to give"
                f" ({_left_to_give(remaining)})"
            )
            continue
        remaining.remove(match)
        target = e["target"]
        if target not in contacts_of(state, cid):
            problems.append(
                f"allocations[{i}]: {_name(state, target)} is not in base contact with {c['name']}"
            )
            continue
        arc = arc_of(c["position"], f, state["combatants"][target]["position"])
        if arc not in ATTACK_ARCS.get(kind, ATTACK_ARCS["weapon"]):
            allowed = ", ".join(
                ARC_WORDS[a]
                for a in ("front", "left", "right", "rear")
                if a in ATTACK_ARCS.get(kind, ATTACK_ARCS["weapon"])
            )
            problems.append(
                f"allocations[{i}]: {_name(state, target)} is in {c['name']}'s {ARC_WORDS[arc]} arc; "
                f"a {kind} attack strikes only {allowed}"
            )
            continue
        out.append({**match, "target": target, "arc": arc})
    left_over = [s for s in remaining if legal_targets(state, c, s["attack"], f)]
    if left_over and not problems:
        kinds = ", ".join(
            sorted({s["attack"] if s["attack"] != "weapon" else str(s["weapon"]) for s in left_over})
        )
        problems.append(f"every attack must be allocated; {len(left_over)} left ({kinds})")
    refuse(problems, details={"combatant": cid})
    return [
        {"attack": o["attack"], "weapon": o["weapon"], "hand": o["hand"], "target": o["target"]} for o in out
    ]


def default_allocation(state: State, c: dict[str, Any], force: bool) -> list[dict[str, Any]] | None:
    """The server's allocation: each attack on its only legal target; with several, None unless
    `force` (then the enemy it charged, else the lowest id)."""
    out = []
    charged_target = rules_model(state, c["id"]).get("charge_target")
    for s in attack_slots(state, c):
        targets = legal_targets(state, c, s["attack"])
        if not targets:
            continue
        if len(targets) > 1 and not force:
            return None
        target = charged_target if charged_target in targets else targets[0]
        out.append({"attack": s["attack"], "weapon": s["weapon"], "hand": s["hand"], "target": target})
    return out


def slot_for(state: State, c: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """The full attack description (damage, S, save) behind an allocation entry."""
    w = weapon_by_id(c, entry.get("weapon")) if entry.get("weapon") else None
    if w is not None:
        return {
            "attack": "weapon",
            "weapon": w["id"],
            "hand": held_in(w),
            "damage": str(w.get("damage", 1)),
            "S": w.get("S") if has_flag(w, "C") else None,
            "save_mod": int(w.get("save_mod", 0)),
        }
    for s in attack_slots(state, c):
        if s["attack"] == entry.get("attack"):
            return s
    return {"attack": "improvised", "weapon": None, "hand": None, "damage": "1", "S": None, "save_mod": 0}


def to_hit_modifiers(
    state: State,
    attacker: dict[str, Any],
    target: dict[str, Any],
    slot: dict[str, Any],
    *,
    weapons_in_use: int,
    in_round: bool,
) -> list[Modifier]:
    """§To Hit Modifiers, each with its reason (spec 4.6). Free blows: `in_round` False, no charging (A26)."""
    rm = rules_model(state, attacker["id"])
    tm = rules_model(state, target["id"])
    mods: list[Modifier] = []
    if "frenzied" in attacker.get("conditions", []):
        mods.append(Modifier(2, "frenzied"))
    if in_round and rm.get("charged_turn") == turn(state):
        mods.append(Modifier(1, "charging"))
    if target["id"] in rm.get("uphill_over", []):
        mods.append(Modifier(1, "uphill"))
    if pushed_back_an_opponent(state, attacker["id"], turn(state) - 1):
        mods.append(Modifier(1, "following up"))
    against = tm.get("obstacle_against") or []
    if tm.get("behind_obstacle") and (not against or attacker["id"] in against):
        mods.append(Modifier(-1, "defended obstacle"))
    if weapons_in_use >= 2:
        mods.append(Modifier(-1, "more than one weapon"))
    hand = slot.get("hand")
    handedness = str(attacker["stats"].get("handedness", "right"))
    if hand in ("R", "L") and handedness in ("right", "left") and hand != handedness[0].upper():
        mods.append(Modifier(-1, "wrong hand"))
    if slot["attack"] == "improvised":
        mods.append(Modifier(-2, "improvised"))
    return mods


def build_blow(
    state: State,
    attacker: dict[str, Any],
    target: dict[str, Any],
    slot: dict[str, Any],
    *,
    weapons_in_use: int,
    in_round: bool,
    target_turned_away: bool = False,
) -> Blow:
    """A blow with its S (weapon S vs own S: the higher, §To damage), damage, save modifier and to-hit."""
    own = stat(attacker, "S")
    if slot.get("S") is None:
        strength = own
    elif slot["attack"] == "weapon":
        strength = max(own, int(slot["S"]))  # §To damage: the higher of the C-type weapon's S and the model's
    else:
        strength = int(slot["S"])  # spec 4.7: a special attack that lists its own S uses it
    damage = slot["damage"]
    if slot["attack"] == "tail" and not living(state, target):
        damage = str(option(state, "nonliving_tail_damage"))
    defender_ws = 1 if (disadvantaged(target) or target_turned_away) else stat(target, "WS")
    why_one = (
        f" ({', '.join(disadvantaged(target))}: cannot fight back)"
        if disadvantaged(target)
        else " (back turned)"
        if target_turned_away
        else ""
    )
    return Blow(
        attacker=attacker["id"],
        target=target["id"],
        kind=slot["attack"],
        strength=strength,
        save_mod=int(slot.get("save_mod", 0)),
        damage=damage,
        table=table_to_hit(stat(attacker, "WS"), defender_ws),
        modifiers=to_hit_modifiers(
            state, attacker, target, slot, weapons_in_use=weapons_in_use, in_round=in_round
        ),
        weapon=slot.get("weapon"),
        table_from=f"WS {stat(attacker, 'WS')} against WS {defender_ws}{why_one}",
    )


def weapons_in_use(entries: list[dict[str, Any]]) -> int:
    return len({e["weapon"] for e in entries if e.get("weapon")})


def _name(state: State, cid: str) -> str:
    c = state["combatants"].get(cid)
    return c["name"] if c else cid
