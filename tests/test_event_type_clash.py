"""Two rulesets registering the same event type stop the server at start with one line naming both
(issue 26 item 4): event type names stay unique and unprefixed, so a clash is a start-up error, never a
stream that folds under the wrong ruleset."""

from __future__ import annotations

import os

import pytest

from rules.registry import Registry, RegistryError
from tests.support.clashing_ruleset import ruleset as clashing
from tests.support.serving import ServeProcess


def test_the_registry_names_both_rulesets_of_a_clashing_event_type():
    with pytest.raises(RegistryError) as refused:
        Registry([*Registry.discover().rulesets.values(), clashing])
    assert str(refused.value) == "event type 'HthEntryResolved' of clashing is also defined by tft"


def test_tussle_serve_refuses_to_start_naming_both(tmp_path):
    env = {**os.environ, "TUSSLE_EXTRA_RULESETS": "tests.support.clashing_ruleset:ruleset"}
    server = ServeProcess("--db", str(tmp_path / "t.db"), env=env)
    try:
        assert server.port is None, "the server started with two rulesets defining HthEntryResolved"
        assert server.stderr.strip().splitlines()[-1] == (
            "tussle: the installed rulesets clash: event type 'HthEntryResolved' of clashing is also defined by tft"
        )
        assert "Traceback" not in server.stderr
    finally:
        server.stop()
