"""Issue 26 item 4: a ruleset is one folder and one entry point. A throwaway ruleset folder, written into a
copy of the sources with nothing but its `tussle.rulesets` entry point (a dist-info beside the copy), is
fought by the acting property test, counted a ruleset (not kernel) by the import-contract test, and held
by the import contracts (it may not import another ruleset), with no list in pyproject.toml or the tests
edited."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THROWAWAY = '''"""A throwaway ruleset: the common commands only."""

import msgspec

from rules.interface import Ruleset, geometry_hex


class ThrowawayOptions(msgspec.Struct, forbid_unknown_fields=True):
    """No options."""


class Throwaway(Ruleset):
    id = "throwaway"
    title = "Throwaway"
    Options = ThrowawayOptions
    geometry = geometry_hex(position_required=False)


ruleset = Throwaway()
'''


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    skip = shutil.ignore_patterns("__pycache__", "node_modules", "vendor", "*.db*", "golden", "data")
    for name in ("events", "rules", "projections", "server", "tests"):
        shutil.copytree(ROOT / name, root / name, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", root)
    (root / "rules" / "throwaway").mkdir()
    (root / "rules" / "throwaway" / "__init__.py").write_text(THROWAWAY)
    # The one entry point, as an installed distribution declares it: importlib.metadata finds it on sys.path.
    dist = root / "throwaway-0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: throwaway\nVersion: 0\n")
    (dist / "entry_points.txt").write_text("[tussle.rulesets]\nthrowaway = rules.throwaway:ruleset\n")
    return root


def test_a_throwaway_ruleset_folder_is_covered_without_editing_a_list(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    tests = [
        "tests/acting/test_acting_properties.py::test_acting_now_never_raises_and_agrees_with_legal_actions[throwaway]",
        "tests/test_import_contracts.py::"
        "test_the_ruleset_contracts_find_rulesets_by_pattern_and_the_kernel_is_all_the_rest",
    ]
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ran.returncode == 0 and "2 passed" in ran.stdout, ran.stdout[-3000:] + ran.stderr[-3000:]

    # The contracts hold the new folder too: importing another ruleset breaks them, naming both.
    (root / "rules" / "throwaway" / "borrowed.py").write_text("from rules.tft import ruleset as tft\n")
    lint_imports = Path(sys.executable).parent / "lint-imports"
    linted = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert linted.returncode != 0, linted.stdout
    assert "no ruleset imports another; the kernel imports none BROKEN" in linted.stdout, linted.stdout
    assert "rules.throwaway.borrowed -> rules.tft" in linted.stdout, linted.stdout
