"""Issue 29 item 11: every reaction parameter and every item field a ruleset's deciders read is described in
GET /rulesets/{id} and in the generated guide. The sources are scanned for what they read — a reaction
answer's params (`answer.params.get("to")`, a `params` taken from `answer.params`, the `*_PARAMS` /
`ANSWER_FIELDS` sets that check them) and an item's fields (`it.get("state")`, `it["id"]`) — so a decider that
starts reading a field nobody described fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from rules.registry import Registry

ROOT = Path(__file__).resolve().parents[1]
# The rulesets of this repository (the test-only probe ruleset has no folder nor guide).
RULESETS = sorted(
    rs.id
    for rs in Registry.discover().rulesets.values()
    if rs.id != "freeform" and (ROOT / "rules" / rs.id.replace("-", "_")).is_dir()
)
ITEM_READ = re.compile(r"\bit(?:em)?(?:\.get\(|\[)\"([a-z_]+)\"")
# The constants that list what an answer's params may carry.
PARAM_SETS = re.compile(r"^[A-Z_]*(PARAMS|ANSWER_FIELDS)$")


def _folder(ruleset_id: str) -> Path:
    return ROOT / "rules" / ruleset_id.replace("-", "_")


def _strings(node: ast.AST) -> set[str]:
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _reads_params(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "params"
        and getattr(node.value, "id", "") == "answer"
    )


def _is_params(node: ast.AST) -> bool:
    """`answer.params`, `answer.params or {}`, `dict(answer.params)`: the answer's params themselves."""
    if isinstance(node, ast.BoolOp):
        return _is_params(node.values[0])
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "dict" and node.args:
        return _is_params(node.args[0])
    return _reads_params(node)


def params_read(ruleset_id: str) -> set[str]:
    """The reaction-answer params a ruleset's sources read or accept."""
    found: set[str] = set()
    for path in _folder(ruleset_id).glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and PARAM_SETS.match(t.id) for t in node.targets
            ):
                # {choice: params} lists the params of each choice: its values, not its keys.
                value = node.value
                found |= (
                    set().union(*map(_strings, value.values))
                    if isinstance(value, ast.Dict)
                    else _strings(value)
                )
            if isinstance(node, ast.FunctionDef):
                # Names bound to answer.params in this function (`params = answer.params or {}`).
                aliases = {"answer.params"} | {
                    t.id
                    for n in ast.walk(node)
                    if isinstance(n, ast.Assign) and _is_params(n.value)
                    for t in n.targets
                    if isinstance(t, ast.Name)
                }
                for n in ast.walk(node):
                    target = None
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get":
                        target = n.func.value
                    elif isinstance(n, ast.Subscript):
                        target = n.value
                    if target is None or ast.unparse(target) not in aliases:
                        continue
                    key = n.args[0] if isinstance(n, ast.Call) and n.args else getattr(n, "slice", None)
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        found.add(key.value)
            # `set(answer.params) - {"text"}`: the params it accepts.
            if (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.Sub)
                and any(_reads_params(v) for v in ast.walk(node.left))
            ):
                found |= _strings(node.right)
    return found


def items_read(ruleset_id: str) -> set[str]:
    """The fields of combatant.items[] a ruleset's sources read (an item bound as `it` or `item`)."""
    return {k for p in _folder(ruleset_id).glob("*.py") for k in ITEM_READ.findall(p.read_text())}


def test_the_scan_finds_what_the_deciders_read() -> None:
    # The scan can fail: it sees the params and item fields known to be read.
    assert {"turn_to_face", "weapon", "terrain_divisor", "to"} <= params_read("rogue-trader")
    assert {"to", "facing"} <= params_read("skirmish") and "barrier" in params_read("ap-grapple")
    assert {"weapon", "retreat", "text"} <= params_read("gurps") and "item" in params_read("tft")
    assert {"id", "state"} <= items_read("gurps") and {"kind", "state"} <= items_read("skirmish")


@pytest.mark.parametrize("ruleset_id", RULESETS)
async def test_every_param_and_item_field_read_is_described(tussle: Any, ruleset_id: str) -> None:
    detail = (await tussle.request("GET", f"/rulesets/{ruleset_id}")).body
    guide = (ROOT / "docs" / "playing" / f"{ruleset_id}.md").read_text()
    described = {k for r in detail["reactions"] for k in (r.get("params") or {})}
    missing = params_read(ruleset_id) - described
    assert not missing, f"{ruleset_id}: reaction params read but not described: {sorted(missing)}"
    for k in described:
        assert f"with `params.{k}`:" in guide, (ruleset_id, k)
    fields = {f["name"] for f in detail["item_fields"]}
    missing = items_read(ruleset_id) - fields
    assert not missing, f"{ruleset_id}: item fields read but not described: {sorted(missing)}"
    if fields:
        listed = guide.split("## Item fields", 1)[1]
        for f in fields:
            assert f"- `{f}` — " in listed, (ruleset_id, f)
