"""The rules tables of the seed, as literal data (each cited to its seed section)."""

from __future__ import annotations

from typing import Any

# Spec §1: base-to-base contact, in hundredths of an inch (0.01").
CONTACT_TOLERANCE = 1
# §Unit Coherency During Charges: 2" between models of a unit.
COHERENCY_GAP = 200

# §Throw to Hit: score needed on a D6; row = attacker WS 1-10, column = defender WS 1-10.
TO_HIT: tuple[tuple[int, ...], ...] = (
    #  1  2  3  4  5  6  7  8  9 10   <- defender WS
    (5, 5, 6, 6, 7, 7, 8, 8, 9, 9),  # attacker WS 1
    (4, 5, 5, 6, 6, 7, 7, 8, 8, 9),  # 2
    (4, 4, 5, 5, 6, 6, 7, 7, 8, 8),  # 3
    (3, 4, 4, 5, 5, 6, 6, 7, 7, 8),  # 4
    (3, 3, 4, 4, 5, 5, 6, 6, 7, 7),  # 5
    (2, 3, 3, 4, 4, 5, 5, 6, 6, 7),  # 6
    (2, 2, 3, 3, 4, 4, 5, 5, 6, 6),  # 7
    (2, 2, 2, 3, 3, 4, 4, 5, 5, 6),  # 8
    (2, 2, 2, 2, 3, 3, 4, 4, 5, 5),  # 9
    (2, 2, 2, 2, 2, 3, 3, 4, 4, 5),  # 10
)

# §To damage points to "page 21", which the seed lacks: spec §7 default, the sister game's chart,
# UNCONFIRMED for Rogue Trader (row = S 1-10, column = T 1-10; "N" = no effect).
DEFAULT_WOUND_CHART: tuple[tuple[int | str, ...], ...] = (
    #  1    2    3    4    5    6    7    8    9   10   <- target T
    (4, 5, 6, 6, "N", "N", "N", "N", "N", "N"),  # S 1
    (3, 4, 5, 6, 6, "N", "N", "N", "N", "N"),  # S 2
    (2, 3, 4, 5, 6, 6, "N", "N", "N", "N"),  # S 3
    (2, 2, 3, 4, 5, 6, 6, "N", "N", "N"),  # S 4
    (2, 2, 2, 3, 4, 5, 6, 6, "N", "N"),  # S 5
    (2, 2, 2, 2, 3, 4, 5, 6, 6, "N"),  # S 6
    (2, 2, 2, 2, 2, 3, 4, 5, 6, 6),  # S 7
    (2, 2, 2, 2, 2, 2, 3, 4, 5, 6),  # S 8
    (2, 2, 2, 2, 2, 2, 2, 3, 4, 5),  # S 9
    (2, 2, 2, 2, 2, 2, 2, 2, 3, 4),  # S 10
)

# §Maximum to hit is garbled in the seed; spec §7 default (sister game, unconfirmed): need -> second D6.
DEFAULT_HIGH_TO_HIT: dict[str, int] = {"7": 4, "8": 5, "9": 6}

# §Special Attack Arcs: the arcs each kind of attack may strike, and its damage (Catachan Devil data;
# gore has none in the seed, spec A23: 1). "tail" damage depends on the target being living (spec A24).
ATTACK_ARCS: dict[str, frozenset[str]] = {
    "weapon": frozenset({"front"}),
    "improvised": frozenset({"front"}),
    "stomp": frozenset({"front", "left", "right", "rear"}),
    "bite": frozenset({"front"}),
    "gore": frozenset({"front"}),
    "claw": frozenset({"front", "left", "right"}),
    "tail": frozenset({"left", "right", "rear"}),
    "tentacle": frozenset({"front", "left", "right", "rear"}),
}

SPECIAL_DAMAGE: dict[str, str] = {
    "stomp": "1",
    "bite": "1",
    "gore": "1",
    "claw": "D4",
    "tail": "D6",
    "tentacle": "D4",
}

SPECIAL_KINDS: tuple[str, ...] = ("stomp", "bite", "gore", "claw", "tail", "tentacle")

# §Special Attack Arcs example: the Catachan Devil. The small devil's attack list (a*) is missing in
# the seed (the GM supplies it); the large devil's itemised list (9) wins over its stated total (7).
CATACHAN_DEVIL: dict[str, dict] = {
    "small": {
        "M": 4,
        "WS": 3,
        "BS": 0,
        "S": 5,
        "T": 5,
        "W": 4,
        "I": 8,
        "Ld": 10,
        "Int": 2,
        "Cl": 10,
        "WP": 7,
        "special_attacks": None,
    },
    "medium": {
        "M": 5,
        "WS": 3,
        "BS": 0,
        "S": 6,
        "T": 6,
        "W": 6,
        "I": 8,
        "Ld": 10,
        "Int": 2,
        "Cl": 10,
        "WP": 7,
        "special_attacks": [
            {"kind": "stomp", "count": 4},
            {"kind": "tail", "count": 1},
            {"kind": "tentacle", "count": 1},
            {"kind": "bite", "count": 1},
        ],
    },
    "large": {
        "M": 6,
        "WS": 3,
        "BS": 0,
        "S": 7,
        "T": 7,
        "W": 8,
        "I": 8,
        "Ld": 10,
        "Int": 2,
        "Cl": 10,
        "WP": 7,
        "special_attacks": [
            {"kind": "stomp", "count": 6},
            {"kind": "tail", "count": 1},
            {"kind": "tentacle", "count": 1},
            {"kind": "bite", "count": 1},
        ],
    },
}

# §Special Attack Arcs: a large devil is an adult male on d100 <= 50 (+2 claws); a male is a fiddler on
# d100 <= 10 (one claw does D6).
DEVIL_MALE_MAX = 50
DEVIL_FIDDLER_MAX = 10

# §Special Attack Arcs: "an adult male with 2 additional claw attacks", "a fiddler with a more powerful
# claw" ("Claw attacks cause D4 points of damage (D6 for fiddlers)"); a large devil that is not male has none.
DEVIL_VARIANT_CLAWS: dict[str, list[dict[str, Any]]] = {
    "female": [],
    "male": [{"kind": "claw", "count": 2, "damage": "D4"}],
    "fiddler": [{"kind": "claw", "count": 1, "damage": "D6"}, {"kind": "claw", "count": 1, "damage": "D4"}],
}
DEVIL_VARIANTS: tuple[str, ...] = tuple(DEVIL_VARIANT_CLAWS)
