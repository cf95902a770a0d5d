"""The seed's literal tables, as data (each cites its section; the rules that read them live beside).

Tables whose rows compute from a figure (the HTH DX table, the defense modifiers, the standing cases)
stay with their rule: dx_in_hth.py, defense_table.py, standing.py.
"""

from __future__ import annotations

from typing import Any

# A2 `by_st`: fist damage by ST (derivative source, unconfirmed): (highest ST of the row, damage).
FIST_DAMAGE_BY_ST: tuple[tuple[int, str], ...] = (
    (8, "1d6-4"),
    (10, "1d6-3"),
    (12, "1d6-2"),
    (14, "1d6-1"),
    (16, "1d6"),
    (20, "1d6+1"),
    (24, "1d6+2"),
    (30, "1d6+3"),
    (40, "2d6+1"),
    (50, "3d6+1"),
)

FIST_DAMAGE_FLAT = "1d6-4"  # A2 `flat` (BASE, unconfirmed)

# A3: what remaining ST means (first match): at most 0 dead, 1-2 unconscious.
WOUND_THRESHOLDS: tuple[tuple[int, str], ...] = ((0, "dead"), (2, "unconscious"))

# The Judo throw's fist damage bonus by Judo level (§Judo-1 +3, §Judo-2 +5).
THROW_BONUS: dict[int, int] = {1: 3, 2: 5}

# A3 criticals of a 3-dice attack roll (OPTION attack_criticals): face total -> (outcome, damage x, fumble).
ATTACK_CRITICALS: dict[int, tuple[str, int, str | None]] = {
    3: ("hit", 3, None),
    4: ("hit", 2, None),
    16: ("miss", 1, None),
    17: ("miss", 1, "drops"),
    18: ("miss", 1, "breaks"),
}

PRONE_PUNCH_DX = -3  # §Judo-2: unarmed attack at -3 DX while prone, having moved 0 hexes

ATTACK_DICE = 3  # an attack is a roll of 3 dice against adjusted DX (§Actions-Attack)

DEFENDED_ATTACK_DICE = 4  # BASE: against a defending figure the attacker rolls 4 dice (§Judo-2 prone Defend)

# The result table (4.5): (lowest M, highest M, result); None = open end.
DEFENSE_RESULTS: tuple[tuple[int | None, int | None, str], ...] = (
    (None, 2, "enter_no_draw"),
    (3, 4, "enter_may_draw"),
    (5, 5, "knocked_back"),
    (6, None, "knocked_back_free_hit"),
)

# From this M a defender with Judo 1+, unarmed, against an entrant that is not `large`, may throw (§Judo-1).
JUDO_THROW_FROM = 7

REAR_REROLL_FACE = 6  # from the rear hex a raw 6 is rolled again until 1-5 (§Entering, A7)

# Weapons the seed names with an HTH attack penalty when the item carries no `hth_dx_mod` (§DX-Mods).
NAMED_WEAPON_HTH_DX: dict[str, int] = {"dirk": -2, "poniard": -4}

TAKE_DOWN_BASE_OFFSET = 2  # X : X+2 (§Take-Down)

# Talent prerequisites (§Dive-Block, §Judo): talent level -> [(stat, minimum, words)].
PREREQUISITES: dict[tuple[str, int], tuple[tuple[str, int, str], ...]] = {
    ("dive_block", 1): (("iq", 9, "IQ 9"),),
    ("dive_block", 2): (("iq", 11, "IQ 11"), ("dx", 13, "DX 13+")),
    ("judo", 1): (("iq", 12, "IQ 12"), ("uc", 1, "Unarmed Combat 1")),
    ("judo", 2): (("iq", 14, "IQ 14"), ("dx", 14, "DX 14+"), ("uc", 1, "Unarmed Combat 1")),
}

STAT_DEFAULTS: dict[str, Any] = {
    "sprint_bonus": 0,
    "armor_stops": 0,
    "uc": 0,
    "judo": 0,
    "dive_block": 0,
    "large": False,
    "back_to_wall": False,
    "natural_attacks": [],
}
