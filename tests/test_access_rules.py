"""Authorization is decided in one place (server/encounters/access.py): no other module of server/ refuses
a caller with a sentence of its own; they name an action and access.py's table answers."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from server.encounters.access import RULES, require
from server.encounters.service_errors import NotPermitted, Unauthenticated
from server.encounters.tokens import Principal

SERVER = Path(__file__).resolve().parent.parent / "server"
# Who a token is (identification), not what it may do: the HTTP layer's and the token check's own.
IDENTIFYING = {
    ("http/context.py", "this token is not valid for this encounter"),
    ("encounters/service.py", "this token was revoked; ask the GM for the new one"),
    # A Discord interaction is identified by Discord's signature over it (docs/discord.md).
    ("discord/interactions.py", "invalid request signature"),
}


def refusals_outside_access() -> set[tuple[str, str]]:
    found = set()
    for path in SERVER.rglob("*.py"):
        rel = path.relative_to(SERVER).as_posix()
        if rel == "encounters/access.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("NotPermitted", "Unauthenticated")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add((rel, node.args[0].value))
    return found


def test_no_module_but_access_refuses_a_role():
    assert refusals_outside_access() == IDENTIFYING


@pytest.mark.parametrize("action", sorted(RULES))
def test_each_rule_refuses_the_anonymous_with_401_and_other_roles_with_403(action):
    rule = RULES[action]
    with pytest.raises(Unauthenticated, match=re.escape(rule.unauthenticated)):
        require(None, action)
    for role in ("admin", "gm", "player", "observer", "system"):
        who = Principal(role, "enc", seat="s1" if role == "player" else None)
        if role in rule.roles:
            assert require(who, action) is who
        else:
            with pytest.raises(NotPermitted, match=re.escape(rule.refusal)):
                require(who, action)
