"""Golden streams (issue 13 item 1): a script's commands store the same bytes on every run, and the
frozen streams of earlier versions still fold, verify and render as they did."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.golden.record import stream_bytes
from tests.golden.renders import read_stream, renders
from tests.golden.scripts import SCRIPTS, script_names

FROZEN = Path(__file__).parent / "frozen"


@pytest.mark.parametrize("name", script_names())
async def test_a_script_stores_the_recorded_bytes(tmp_path, name):
    recorded = (SCRIPTS / f"{name}.jsonl").read_bytes()
    assert await stream_bytes(str(tmp_path / "golden.db"), name) == recorded, (
        f"{name}: the stored stream changed; if on purpose, re-record with python -m tests.golden.record "
        "in a commit naming why (and bump the ruleset's version if what it decides or folds changed)"
    )


@pytest.mark.parametrize("path", sorted(FROZEN.glob("*.jsonl")), ids=lambda p: p.stem)
def test_a_frozen_stream_folds_verifies_and_renders_unchanged(path):
    events = read_stream(path)
    now = json.loads(json.dumps(renders(events)))
    assert now["verify"]["ok"] and now["verify"]["chain_ok"], now["verify"]["problems"]
    assert now == json.loads((FROZEN / f"{path.stem}.renders.json").read_text())
