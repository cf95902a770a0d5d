"""The limits of API.md, each on a real server: request rates (429 + Retry-After), body size (413),
events per command and roll caps, websockets per token."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest

from tests.support.client import RunningServer, TussleClient

ANN = {"id": "ann", "name": "Ann", "side": "red", "position": [0, 0]}


@pytest.fixture
def serving(tmp_path) -> Callable[..., Any]:
    """`async with serving(**settings) as client`: a real server with these make_app settings."""

    @asynccontextmanager
    async def start(**settings: Any) -> AsyncIterator[TussleClient]:
        server = await RunningServer(
            str(tmp_path / f"t{len(list(tmp_path.iterdir()))}.db"), **settings
        ).start()
        try:
            async with aiohttp.ClientSession() as session:
                yield TussleClient(server.base_url, session, server.db_path)
        finally:
            await server.stop()

    return start


def assert_rate_limited(r: Any) -> None:
    assert r.status == 429, r.body
    assert r.body["error"]["code"] == "rate_limited" and r.body["error"]["message"]
    assert int(r.headers["Retry-After"]) >= 1
    assert r.body["error"]["details"]["retry_after"] == int(r.headers["Retry-After"])


# Rates of 0.001/s never refill during a test: a burst of N / 0.001 is exactly N requests.


async def test_commands_are_limited_per_token_and_one_token_does_not_starve_another(serving):
    async with serving(rate_commands=0.001, rate_burst=4 / 0.001) as client:
        enc = await client.create("freeform")  # anonymous: this address's bucket (1 of 4)
        await enc.add(ANN)  # the GM token is not yet known to be good: the address again (2 of 4)
        seat = await enc.seat("Ann's player", ["ann"])  # now the GM token's own bucket (1 of 4)
        for i in range(3):
            assert (await enc.command("note", text=f"n{i}")).status == 201  # GM: 2, 3, 4 of 4
        limited = await enc.command("note", text="one too many")
        assert_rate_limited(limited)
        # The player's token has its own bucket (its first request still counts on the address: 3 of 4).
        assert (await enc.command("note", text="mine", token=seat)).status == 201
        assert (await enc.command("note", text="mine again", token=seat)).status == 201
        # Reads are counted apart from writes.
        assert (await enc.get("/state")).status == 200
        # Nothing of the refused command was appended.
        assert [e["data"].get("text") for e in await enc.events() if e["type"] == "NotePosted"] == [
            "n0",
            "n1",
            "n2",
            "mine",
            "mine again",
        ]


async def test_anonymous_reads_are_limited_per_address_and_made_up_tokens_buy_nothing(serving):
    async with serving(rate_reads=0.001, rate_burst=3 / 0.001) as client:
        enc = await client.create("freeform", public=True)
        for _ in range(3):
            assert (await client.request("GET", f"{enc.path}/state")).status == 200
        assert_rate_limited(await client.request("GET", f"{enc.path}/state"))
        # A token the server has never accepted is counted against the address, so it is refused too.
        assert_rate_limited(await client.request("GET", f"{enc.path}/state", token="made-up-" + "x" * 40))
        # The operator's probes are never limited.
        assert (await client.request("GET", "/healthz")).status == 200
        assert (await client.request("GET", "/metrics")).status == 200


async def test_make_app_without_rates_is_unlimited(serving):
    async with serving() as client:
        enc = await client.create("freeform")
        for i in range(60):  # more than the CLI's default burst of 40
            assert (await enc.command("note", text=str(i))).status == 201


async def test_a_body_over_max_body_is_a_413_in_the_error_shape(serving):
    async with serving(max_body=2048) as client:
        enc = await client.create("freeform")
        r = await enc.command("note", text="x" * 4096)
        assert r.status == 413 and r.body["error"]["code"] == "too_large" and r.body["error"]["message"]
        assert (await enc.command("note", text="x" * 1000)).status == 201
        r = await client.request("POST", "/encounters", {"name": "y" * 3000, "ruleset": "freeform"})
        assert r.status == 413 and r.body["error"]["code"] == "too_large"


async def test_the_default_body_limit_is_256_kib(tussle):
    enc = await tussle.create("freeform")
    assert (await enc.command("note", text="x" * (200 * 1024))).status == 201
    r = await enc.command("note", text="x" * (260 * 1024))
    assert r.status == 413 and r.body["error"]["code"] == "too_large"


async def test_a_command_over_max_events_appends_nothing(serving):
    async with serving(max_events=2) as client:
        enc = await client.create("freeform")
        head = (await enc.state())["seq"]
        r = await enc.command("roll", expression="1d6+1d8+1d10")  # one DieRolled per dice term: 3 events
        assert r.status == 422 and r.body["error"]["code"] == "rule_violation"
        assert "2 events" in r.body["error"]["message"]
        assert (await enc.state())["seq"] == head
        assert (await enc.command("roll", expression="1d6+1d8")).status == 201


async def test_roll_caps_default_to_100_dice_of_2_to_1000_sides(tussle):
    enc = await tussle.create("freeform")
    for ok in ("100d6", "1d1000", "1d2", "50d6+50d4"):
        assert (await enc.command("roll", expression=ok)).status == 201, ok
    for bad in ("101d6", "1d1001", "1d1", "60d6+41d4"):
        r = await enc.command("roll", expression=bad)
        assert r.status == 400 and r.body["error"]["code"] == "bad_request", bad
        assert r.body["error"]["details"] == {"field": "expression"}


async def test_roll_caps_follow_the_server_settings(serving):
    async with serving(max_dice=5, max_sides=20) as client:
        enc = await client.create("freeform")
        assert (await enc.command("roll", expression="5d20")).status == 201
        r = await enc.command("roll", expression="6d6")
        assert r.status == 400 and "at most 5 dice" in r.body["error"]["message"]
        r = await enc.command("roll", expression="1d21")
        assert r.status == 400 and "2-20 sides" in r.body["error"]["message"]


async def test_websockets_per_token_are_capped_and_a_closed_one_frees_its_place(serving):
    async with serving(max_ws=2) as client:
        enc = await client.create("freeform")
        observer = await client.request("POST", f"{enc.path}/read-tokens", token=enc.gm_token)
        url = client.base_url.replace("http", "ws") + f"{enc.path}/ws"
        gm = {"Authorization": f"Bearer {enc.gm_token}"}
        first = await client.session.ws_connect(url, headers=gm)
        second = await client.session.ws_connect(url, headers=gm)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await client.session.ws_connect(url, headers=gm)
        assert refused.value.status == 429
        # Another token has its own allowance.
        other = await client.session.ws_connect(
            url, headers={"Authorization": f"Bearer {observer.body['token']}"}
        )
        metrics = await client.request("GET", "/metrics")
        assert "tussle_websocket_connections 3" in metrics.body
        await first.close()
        third = await _connect_eventually(client, url, gm)
        for ws in (second, third, other):
            await ws.close()


async def _connect_eventually(client: TussleClient, url: str, headers: dict[str, str]) -> Any:
    """The server counts a socket closed once its handler has finished: retry until then (the bound only
    decides how long a broken build takes to fail)."""
    import asyncio
    import time

    deadline = time.monotonic() + 30
    while True:
        try:
            return await client.session.ws_connect(url, headers=headers)
        except aiohttp.WSServerHandshakeError as exc:
            assert exc.status == 429
            assert time.monotonic() < deadline, "the closed websocket never freed its place"
            await asyncio.sleep(0.02)
