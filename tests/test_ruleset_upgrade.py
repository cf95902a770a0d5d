"""Issue 25 item 5: versions are announced in the stream. When a server with a newer version of a ruleset
first writes to an older encounter it appends `RulesetUpgraded`; a declaration may name only the version
the stream announced, and versions never go down."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
from aiohttp import web

from events.store.sqlite import SqliteStore
from rules.registry import Registry
from server.app import make_app
from tests.support.client import RunningServer, TussleClient
from tests.support.probe_ruleset import Probe
from tests.support.tampering import encode, parse, rewrite_chain
from tests.test_verify_cases import cli_first_bad
from tests.test_verify_tamper import export, tussle_cli


class Upgraded(RunningServer):
    """The same database served by an installation whose probe ruleset is one version newer."""

    def make_app(self) -> web.Application:
        registry = Registry.discover()
        newer = Probe()
        newer.version = str(int(newer.version) + 1)
        registry.rulesets["probe"] = newer
        return make_app(SqliteStore(self.db_path), registry, **self.settings)


async def test_a_newer_server_announces_its_version_and_a_declaration_may_name_no_other(tmp_path):
    db = str(tmp_path / "tussle.db")
    old = await RunningServer(db).start()
    async with aiohttp.ClientSession() as session:
        enc = await TussleClient(old.base_url, session, db).create("probe")
        await enc.add({"id": "ann", "name": "Ann", "side": "heroes"})
        await old.stop()
        new = await Upgraded(db).start()
        try:
            client = TussleClient(new.base_url, session, db)
            enc.client = client
            head = (await enc.state())["seq"]
            # The client pinned the head it saw; the announcement does not make its command a conflict.
            r = await enc.command("note", text="under the new rules", expected_seq=head)
            assert r.status == 201, r.body
            events = await enc.events()
            upgrade, note = events[head], events[head + 1]
            assert (upgrade["type"], upgrade["actor"]) == ("RulesetUpgraded", "system")
            assert upgrade["data"] == {"ruleset": "probe", "version": "1", "previous": "0"}
            assert note["data"]["declaration"]["version"] == "1"
            await enc.ok("note", text="once only")
            assert [e["type"] for e in await enc.events()].count("RulesetUpgraded") == 1
            assert (await enc.state())["ruleset_version"] == "1"
            assert (await enc.get("/verify?replay=1")).body["ok"]
            honest = await export(client, enc, tmp_path)
        finally:
            await new.stop()
    events, trailer = parse(Path(honest).read_bytes())
    assert await cli_first_bad(Path(honest)) is None
    # A declaration set to a version the stream never announced ("99", to dodge the replay) ...
    events[head + 1]["data"]["declaration"]["version"] = "99"
    rewrite_chain(events, trailer)
    forged = tmp_path / "v99.jsonl"
    forged.write_bytes(encode(events, trailer))
    assert await cli_first_bad(forged) == head + 2
    # ... and an announcement that goes down are problems at their seqs.
    events, trailer = parse(Path(honest).read_bytes())
    events[head]["data"].update(version="0", previous="1")
    rewrite_chain(events, trailer)
    forged.write_bytes(encode(events, trailer))
    assert await cli_first_bad(forged) == head + 1
    _, out = await tussle_cli("verify", str(forged), "--json")
    assert [p["kind"] for p in json.loads(out)["problems"]][:1] == ["version"]
