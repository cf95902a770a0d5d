"""Issue 13 item 5: each ruleset's commands are decoded by one tagged-union decoder; an unknown command,
or one of another ruleset, is 400 `bad_request` in every ruleset (API.md), and nothing is appended."""

from __future__ import annotations

import pytest

from rules.interface import BadCommand
from rules.registry import Registry

REGISTRY = Registry.discover()
RULESETS = sorted(REGISTRY.rulesets)


def _foreign(ruleset: str) -> str:
    """A command type of some other ruleset."""
    other = next(r for r in RULESETS if r != ruleset and REGISTRY.rulesets[r].commands)
    return REGISTRY.rulesets[other].commands[0].__struct_config__.tag


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_ruleset_decodes_its_own_and_the_common_commands_only(ruleset: str) -> None:
    assert type(REGISTRY.command(ruleset, {"type": "start_turn"})).__name__ == "StartTurn"
    for other in RULESETS:
        for cls in REGISTRY.rulesets[other].commands:
            tag = cls.__struct_config__.tag
            with pytest.raises(BadCommand) as err:
                REGISTRY.command(ruleset, {"type": tag, "no_such_field": 1})
            if other == ruleset:  # its own: decoded, and refused for the field the type does not have
                assert err.value.field != "type", err.value.message
            else:
                assert err.value.field == "type" and f"command of the {other} ruleset" in err.value.message
    with pytest.raises(BadCommand) as err:
        REGISTRY.command(ruleset, {"type": f"{ruleset}.no_such_verb"})
    assert err.value.field == "type" and "no command type" in err.value.message


@pytest.mark.parametrize("ruleset", [r for r in RULESETS if r != "probe"])
async def test_unknown_and_foreign_commands_are_bad_requests_over_http(tussle, ruleset: str) -> None:
    enc = await tussle.create(ruleset)
    before = await enc.events()
    for body, says in [
        ({"type": "no_such_command"}, "there is no command type 'no_such_command'"),
        ({"type": _foreign(ruleset)}, f"not of {ruleset}"),
        ({"combatant": "x"}, "needs a string field type"),
        ({"type": 7}, "needs a string field type"),
    ]:
        r = await tussle.request("POST", f"{enc.path}/commands", body, token=enc.gm_token)
        assert r.status == 400, (ruleset, body, r.body)
        assert r.body["error"]["code"] == "bad_request" and says in r.body["error"]["message"], r.body
        assert r.body["error"]["details"].get("field") == "type", r.body
    assert await enc.events() == before


def test_a_declared_command_its_ruleset_does_not_decide_is_a_bad_request_too() -> None:
    from rules.common.commands import StartTurn
    from rules.interface import Ruleset

    with pytest.raises(BadCommand) as err:
        Ruleset().decide({}, StartTurn(), None)  # type: ignore[arg-type]
    assert err.value.field == "type"
