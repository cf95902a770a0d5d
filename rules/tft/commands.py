"""The tft ruleset's commands (spec section 4); `combatant` acts, `target` is acted on."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from rules.interface import Command

# Spec 4.1: the entry condition the entrant claims; the server checks it.
Condition = Annotated[
    Literal["C1", "C2", "C3", "C4"] | None,
    msgspec.Meta(
        description=(
            "The entry condition you claim: C1 faster (MA less sprint bonus above the defender's), C2 the defender's back "
            "to a wall or down, C3 stepping from the defender's rear hex (never against Judo 2), C4 the defender consented "
            "(tft.consent_hth); null: the first that holds."
        )
    ),
]
# Spec 4.5: the Judo 2 shift on the defender's 1d6 HTH defense roll.
Judo2Shift = Annotated[
    Literal[-1, 0, 1] | None,
    msgspec.Meta(
        description=(
            "Judo 2 entrants only: an extra -1, 0 or +1 on the defender's HTH defense roll (lower is better for you); "
            "null: -1."
        )
    ),
]

Weapon = Annotated[
    str,
    msgspec.Meta(
        description=(
            "fist, the id of a ready item (in HTH one usable there: a dagger-list item or cestus), or the name of a "
            "natural attack (in HTH an hth one)."
        )
    ),
]


class GivenModifier(msgspec.Struct, forbid_unknown_fields=True):
    """A base-TFT modifier the player states, recorded as given (4.7, 4.13)."""

    value: int
    reason: str


class EnterHth(Command, tag="tft.enter_hth"):
    """Ways 1-2 (4.2): in the action phase, after moving at most half MA, try to get into HTH with an adjacent
    enemy; `condition` C1-C4 (the first that holds when omitted), `judo2_shift` for a Judo 2 entrant."""

    combatant: str
    target: str
    condition: Condition = None
    judo2_shift: Judo2Shift = None


class DiveForLegs(Command, tag="tft.dive_for_legs"):
    """Way 3 (4.3, option diving_for_legs): dive for an adjacent enemy's legs as the last step of the move (+1 to
    the enemy's defense roll)."""

    combatant: str
    target: str
    condition: Condition = None
    judo2_shift: Judo2Shift = None


class JoinHth(Command, tag="tft.join_hth"):
    """Way 4 (4.4): step into a brawl of two or more with an enemy of yours; no roll, attack only at -4 this turn.
    `target`: any member."""

    combatant: str
    target: str  # any member of the group to join


class HthAttack(Command, tag="tft.hth_attack"):
    """Attack another member of your brawl (4.6) with `weapon`: fist, a ready dagger-list item or cestus, or an hth
    natural attack."""

    combatant: str
    target: str
    weapon: Weapon = "fist"


class CastSpellInHth(Command, tag="tft.cast_spell_in_hth"):
    """Cast a spell in HTH at -6 DX (4.7); `motion: false` for a spell without hand motions (allowed while pinned);
    `modifiers` as given."""

    combatant: str
    spell: Annotated[
        str,
        msgspec.Meta(
            description="The spell's name, for the log (its effect and ST cost are the GM's ruling)."
        ),
    ] = ""
    motion: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "Whether the spell needs hand motions; false (speaking, disbelieving) is allowed while pinned."
            )
        ),
    ] = True
    modifiers: list[GivenModifier] = []


class DrawDagger(Command, tag="tft.draw_dagger"):
    """Ready a carried dagger-list item: 3 vs HTH DX (4.8)."""

    combatant: str
    item: str | None = None


class DropShield(Command, tag="tft.drop_shield"):
    """Wiggle free of a worn shield: 3 vs HTH DX, the shield's penalty counted (4.8)."""

    combatant: str
    item: str | None = None


class Disengage(Command, tag="tft.disengage"):
    """Leave the brawl: 4 vs HTH DX, stand in the empty adjacent hex `to`, facing `facing` (4.9)."""

    combatant: str
    to: list[int]
    facing: int | None = None


class Pin(Command, tag="tft.pin"):
    """Try to pin a member of your fallen brawl (4.10, option pins)."""

    combatant: str
    target: str


class BreakPin(Command, tag="tft.break_pin"):
    """Try to break the pin on you: 4 vs ST in HTH, from the third turn after the pin, if as strong as the holder
    (4.12)."""

    combatant: str


class ReleasePin(Command, tag="tft.release_pin"):
    """Let go of the figure you hold pinned (free, 4.11)."""

    combatant: str


class StrikeIntoHth(Command, tag="tft.strike_into_hth"):
    """Strike into a brawl from outside (4.13): melee from an adjacent hex, or `attack` thrown/missile from 3 hexes
    or less."""

    combatant: str
    target: str
    weapon: Weapon = "fist"
    attack: Annotated[
        Literal["melee", "thrown", "missile"],
        msgspec.Meta(
            description=("melee from an adjacent hex, or a thrown or missile weapon from 3 hexes or less.")
        ),
    ] = "melee"
    modifiers: list[GivenModifier] = []


class MissileIntoHthFar(Command, tag="tft.missile_into_hth_far"):
    """Shoot into a brawl from more than 3 hexes (4.13): a hit strikes a random member."""

    combatant: str
    target: str
    weapon: Annotated[str, msgspec.Meta(description="The id of the ready missile weapon (an item).")]
    modifiers: list[GivenModifier] = []


class ConsentHth(Command, tag="tft.consent_hth"):
    """The defender (`combatant`) lets the entrant (`target`) try to get into HTH this turn (condition C4)."""

    combatant: str  # the defender
    target: str  # the entrant allowed to try


class SetHthPreferences(Command, tag="tft.set_hth_preferences"):
    """A figure's standing HTH choices (4.15): Judo defense points, entry dagger, Judo throw, stand or fall wish,
    Take Down dice."""

    combatant: str
    # Each: null keeps the figure's current choice (the first defaults are spec 4.15's DECISION).
    use_judo1_defense: Annotated[
        bool | None,
        msgspec.Meta(
            description=(
                "Judo 1 or 2 defender: take the +1 on your HTH defense roll (initially true); null: unchanged."
            )
        ),
    ] = None
    judo2_shift_defense: Annotated[
        Literal[-1, 0, 1] | None,
        msgspec.Meta(
            description=(
                "Judo 2 defender: the extra -1, 0 or +1 on your HTH defense roll (initially +1); null: unchanged."
            )
        ),
    ] = None
    entry_dagger: Annotated[
        Literal["ask", "always", "never"] | None,
        msgspec.Meta(
            description=(
                "When an entrant's roll lets you ready a dagger free: ask each time, always, or never (initially ask); "
                "null: unchanged."
            )
        ),
    ] = None
    judo_throw: Annotated[
        Literal["ask", "never"] | None,
        msgspec.Meta(
            description=(
                "When a defense roll of 7 or more lets you throw the entrant by Judo: ask each time, or never "
                "(initially ask); null: unchanged."
            )
        ),
    ] = None
    hth_wish: Annotated[
        Literal["stand", "fall"] | None,
        msgspec.Meta(
            description=(
                "With the option standing_in_hth: whether you wish your HTH group to stay standing or fall "
                "(initially fall); null: unchanged."
            )
        ),
    ] = None
    take_down_dice: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "The dice you roll pulling a standing group down in a Take Down, 1-20 (initially 2); null: unchanged."
            )
        ),
    ] = None


class Pass(Command, tag="tft.pass"):
    """Give up this turn's action at your place in the order."""

    combatant: str


class TftMove(Command, tag="tft.move"):
    """Rule-checked movement (4.15): a `path` of adjacent hexes in the movement phase, within MA (or the crawl
    limit when down)."""

    combatant: str
    path: list[list[int]]
    facing: int | None = None


class ProneUnarmedAttack(Command, tag="tft.prone_unarmed_attack"):
    """Judo 2 (§Judo-2): punch an adjacent figure from the ground at -3 DX, having moved 0 hexes."""

    combatant: str
    target: str


class Defend(Command, tag="tft.defend"):
    """Judo 2 on the ground (§Judo-2): spend the action defending; unarmed attacks on you roll 4 dice this turn."""

    combatant: str


class StandUp(Command, tag="tft.stand_up"):
    """Out of HTH and down: get to your feet, as your action in the action phase (base TFT; NOTES.md)."""

    combatant: str


class PickUp(Command, tag="tft.pick_up"):
    """Out of HTH: pick up the dropped `item` (an item id) from your hex or an adjacent one, as your action; a
    weapon is readied if you have none ready (base TFT; NOTES.md)."""

    combatant: str
    item: str


class AttackFallen(Command, tag="tft.attack_fallen"):
    """Out of HTH and on your feet: attack an adjacent fallen enemy who is not in HTH (§Standing) with `weapon`
    (fist, a ready item at its normal damage, or a natural attack); `modifiers` as given (base TFT)."""

    combatant: str
    target: str
    weapon: Weapon = "fist"
    modifiers: list[GivenModifier] = []


class SetBackToWall(Command, tag="tft.set_back_to_wall"):
    """GM ruling: the figure's back is (or is no longer) to a wall or pit (condition C2)."""

    combatant: str
    back_to_wall: Annotated[
        bool,
        msgspec.Meta(
            description=(
                "true: a wall or pit is now behind the figure (entry condition C2); false: no longer."
            )
        ),
    ] = True


TFT_COMMANDS: tuple[type[Command], ...] = (
    EnterHth,
    DiveForLegs,
    JoinHth,
    HthAttack,
    CastSpellInHth,
    DrawDagger,
    DropShield,
    Disengage,
    Pin,
    BreakPin,
    ReleasePin,
    StrikeIntoHth,
    MissileIntoHthFar,
    ConsentHth,
    SetHthPreferences,
    Pass,
    TftMove,
    ProneUnarmedAttack,
    Defend,
    SetBackToWall,
    StandUp,
    PickUp,
    AttackFallen,
)
