"""Property: for random command sequences, replaying the stored stream gives the live state after every
command, any prefix replays without error, and nothing a client sends produces a 500."""

from __future__ import annotations

import asyncio
import tempfile

import aiohttp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.client import RunningServer, TussleClient
from tests.support.verifier import chain_ok

IDS = ["a", "b", "c"]

command = st.one_of(
    st.builds(
        lambda i, q, r: (
            "add_combatant",
            {"combatant": {"id": i, "name": i.upper(), "side": i, "position": [q, r]}},
        ),
        st.sampled_from(IDS),
        st.integers(-3, 3),
        st.integers(-3, 3),
    ),
    st.builds(lambda i: ("remove_combatant", {"combatant": i}), st.sampled_from(IDS)),
    st.builds(
        lambda i, q: ("move", {"combatant": i, "to": [q, 0]}), st.sampled_from(IDS), st.integers(-5, 5)
    ),
    st.builds(
        lambda e: ("roll", {"expression": e}), st.sampled_from(["3d6", "d100", "2d6+1", "4d6kh3", "d1"])
    ),
    st.builds(
        lambda a, t: ("probe.grab", {"combatant": a, "target": t}), st.sampled_from(IDS), st.sampled_from(IDS)
    ),
    st.builds(
        lambda c: ("respond", {"choice": c}), st.sampled_from(["resist", "yield", "default", "nonsense"])
    ),
    st.just(("start_turn", {})),
    st.builds(lambda t: ("note", {"text": t}), st.text(max_size=20)),
    st.builds(
        lambda i, p: ("ruling", {"text": "GM says", "overrides": {"combatants": {i: {"posture": p}}}}),
        st.sampled_from(IDS),
        st.sampled_from(["prone", "standing"]),
    ),
    st.builds(lambda s: ("void", {"seq": s, "reason": "retcon"}), st.integers(1, 30)),
    st.builds(
        lambda i, k: ("set_standing_orders", {"combatant": i, "reactions": {"probe_defence": k}}),
        st.sampled_from(IDS),
        st.sampled_from(["resist", "yield"]),
    ),
)


async def _scenario(commands, prefix_fraction: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = await RunningServer(f"{tmp}/p.db").start()
        try:
            async with aiohttp.ClientSession() as session:
                client = TussleClient(server.base_url, session, server.db_path)
                enc = await client.create("probe")
                for ctype, fields in commands:
                    if ctype == "respond":
                        pending = (await enc.state())["pending"]
                        fields = {**fields, "reaction": pending[0]["id"] if pending else "none/1"}
                    r = await enc.command(ctype, **fields)
                    assert r.status < 500, (ctype, fields, r.body)
                    live = await enc.state()
                    assert await enc.state(at=live["seq"]) == live
                events = await enc.events()
                assert chain_ok(events) is None
                cut = max(1, int(len(events) * prefix_fraction))
                prefix = await enc.state(at=cut)
                assert prefix["seq"] == cut
        finally:
            await server.stop()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(command, min_size=1, max_size=18), st.floats(0, 1))
def test_replay_equals_live_after_every_command(commands, prefix_fraction):
    asyncio.run(_scenario(commands, prefix_fraction))
