"""Configuration is passed, never picked up (issue 26 item 5): the CLI builds one `Settings` from flags
and environment (server/settings.py) and hands it on; nothing carries settings by a context variable,
no server module but the CLI reads the environment, and the metrics observe the feed through its
hook instead of replacing its `publish`."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from events.envelope import Event
from server.app import make_app
from server.encounters.feed import LiveFeed
from server.settings import Settings, WebsocketSettings
from tests.support.memory_store import MemoryDatabase, MemoryStore

ROOT = Path(__file__).resolve().parent.parent


def sources(*packages: str) -> list[Path]:
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py"))


def test_no_context_variable_carries_settings():
    found = [
        str(p.relative_to(ROOT))
        for p in sources("events", "rules", "projections", "server")
        if "ContextVar" in p.read_text()
    ]
    assert found == []


def test_only_the_cli_reads_the_environment_in_server():
    reads = re.compile(r"os\.environ|getenv\(")
    found = [str(p.relative_to(ROOT)) for p in sources("server") if reads.search(p.read_text())]
    assert found == ["server/cli.py"]


def test_nothing_replaces_a_method_of_another_object():
    patched = re.compile(r"^\s*[a-z_.]+\.(publish|append|read)\s*=\s", re.M)
    found = [str(p.relative_to(ROOT)) for p in sources("server") if patched.search(p.read_text())]
    assert found == []


def test_the_feed_tells_its_observers_of_every_publish_listened_to_or_not():
    feed = LiveFeed()
    seen: list[tuple[str, int]] = []
    feed.observe(lambda stream, events: seen.append((stream, len(events))))
    heard: list[int] = []
    feed.subscribe("a", lambda events, states: heard.append(len(events)))
    event = Event("a", 1, "NotePosted", {}, "gm", "c", "2030-01-01T00:00:00.000000Z", "0" * 64, "0" * 64)
    feed.publish("a", [event])
    feed.publish("b", [event, event])  # nobody listens to b: still counted
    assert seen == [("a", 1), ("b", 2)] and heard == [1]


def test_the_app_holds_the_settings_it_was_given_and_refuses_unknown_ones():
    from server.http.context import SETTINGS

    given = Settings(admin_token="x" * 40, max_dice=7, ws=WebsocketSettings(ping_s=3.0))
    app = make_app(MemoryStore(MemoryDatabase()), settings=given)
    assert app[SETTINGS] == given
    changed = make_app(MemoryStore(MemoryDatabase()), ws_ping_s=0.5, webhook_allow_private=True)[SETTINGS]
    assert changed.ws.ping_s == 0.5 and changed.webhooks.allow_private
    with pytest.raises(TypeError):
        make_app(MemoryStore(MemoryDatabase()), max_dices=7)
    assert msgspec.json.decode(msgspec.json.encode(given), type=Settings) == given
