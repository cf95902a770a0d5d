"""Arrows only downward (issue 13 item 3): `lint-imports` keeps the contracts in pyproject.toml
(server -> projections -> rules -> events; nothing imports server but server; events imports only
events; a ruleset only rules and events; the kernel no ruleset; the service no HTTP; no circles)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
# A ruleset is what the registry finds: the module of each `tussle.rulesets` entry point; the rest of
# rules/ is the kernel.
RULESETS = {ep.module for ep in entry_points(group="tussle.rulesets")}
RULES_CHILDREN = {
    f"rules.{p.stem}"
    for p in (ROOT / "rules").iterdir()
    if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()
}


def contract(name_starts: str) -> dict:
    (found,) = [c for c in CONTRACTS if c["name"].startswith(name_starts)]
    return found


def test_the_import_contracts_are_kept():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(CONTRACTS)} kept, 0 broken" in done.stdout
    for c in CONTRACTS:  # each contract ran, under its own name
        assert f"{c['name']} KEPT" in done.stdout, c["name"]


def test_the_contracts_the_issue_asks_for_are_declared():
    assert contract("server -> projections -> rules -> events")["layers"] == [
        "server",
        "projections",
        "rules",
        "events",
    ]
    nothing_imports_server = contract("nothing imports server")
    assert set(nothing_imports_server["source_modules"]) == {"events", "rules", "projections"}
    assert nothing_imports_server["forbidden_modules"] == ["server"]
    assert set(contract("events imports nothing")["forbidden_modules"]) == {"rules", "projections", "server"}
    assert contract("projections never imports server")["forbidden_modules"] == ["server"]
    assert set(contract("the encounter service knows no HTTP")["forbidden_modules"]) >= {
        "server.http",
        "aiohttp",
    }
    assert contract("no import circles")["type"] == "acyclic_siblings"


def test_the_ruleset_contracts_find_rulesets_by_pattern_and_the_kernel_is_all_the_rest():
    """A new ruleset folder in rules/ is covered by rules.* with no edit; the kernel's list must be whole."""
    assert {"rules.tft", "rules.gurps", "rules.freeform"} <= RULESETS
    assert RULESETS <= RULES_CHILDREN  # each installed ruleset is a direct child of rules/, so rules.* has it
    apart = contract("no ruleset imports another")
    assert apart["type"] == "independence" and apart["modules"] == ["rules.*"]
    assert contract("nothing in rules imports projections or server")["source_modules"] == ["rules.*"]
    ignored = {i.partition(" -> ")[2].removesuffix(".**") for i in apart["ignore_imports"]}
    assert all(i.startswith("rules.** -> ") for i in apart["ignore_imports"])
    assert ignored == RULES_CHILDREN - RULESETS
