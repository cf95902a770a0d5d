"""Options the engine itself reads, stored beside each ruleset's own in `EncounterCreated.options`."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from rules.interface import BadCommand


class EngineOptions(msgspec.Struct, forbid_unknown_fields=True):
    reaction_timeout_s: Annotated[
        int | None,
        msgspec.Meta(
            description="Seconds a reaction waits before its default answers (null: it waits for its answer)."
        ),
    ] = None
    reminder_before_s: Annotated[
        int | None,
        msgspec.Meta(
            description=(
                "Seconds before a reaction's deadline (reaction_timeout_s) that its seat is reminded by its "
                "notice webhooks (null: no reminder)."
            )
        ),
    ] = None
    rotate_seed_each_turn: Annotated[
        bool, msgspec.Meta(description="Reveal the dice seed and commit to a new one at every start_turn.")
    ] = False
    manual_dice_from: Annotated[
        Literal["gm", "actor"],
        msgspec.Meta(
            description="With physical dice (dice: manual), who types the faces in: the GM, or whoever acts."
        ),
    ] = "gm"


ENGINE_OPTION_NAMES = frozenset(EngineOptions.__struct_fields__)


def resolve_options(ruleset: Any, given: dict[str, Any]) -> dict[str, Any]:
    """Every option's resolved value (defaults included), or BadCommand naming the bad one."""
    if not isinstance(given, dict):
        raise BadCommand("options must be an object", "options")
    engine_part = {k: v for k, v in given.items() if k in ENGINE_OPTION_NAMES}
    rules_part = {k: v for k, v in given.items() if k not in ENGINE_OPTION_NAMES}
    try:
        engine = msgspec.convert(engine_part, EngineOptions)
        rules = msgspec.convert(rules_part, ruleset.Options)
    except msgspec.ValidationError as exc:
        raise BadCommand(f"options: {exc}", "options") from None
    if engine.reaction_timeout_s is not None and engine.reaction_timeout_s < 1:
        raise BadCommand("options.reaction_timeout_s must be at least 1 second", "options.reaction_timeout_s")
    if engine.reminder_before_s is not None and engine.reminder_before_s < 1:
        raise BadCommand("options.reminder_before_s must be at least 1 second", "options.reminder_before_s")
    resolved = {**msgspec.to_builtins(rules), **msgspec.to_builtins(engine)}
    if resolved["reminder_before_s"] is None:
        # Kept out unless set, so every encounter created without it stores the options it always did.
        del resolved["reminder_before_s"]
    return resolved
