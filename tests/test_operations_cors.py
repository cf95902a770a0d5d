"""--cors-origin: preflights answered for allowed origins, responses (errors too) marked readable."""

from __future__ import annotations

import aiohttp

from tests.support.client import RunningServer, TussleClient

VTT = "https://vtt.example"


async def test_allowed_origin_gets_preflight_and_headers_on_every_response(tmp_path):
    server = await RunningServer(str(tmp_path / "t.db"), cors_origins=[VTT]).start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(server.base_url, session, server.db_path)
            enc = await client.create("freeform")
            pre = await client.request(
                "OPTIONS",
                f"{enc.path}/commands",
                headers={
                    "Origin": VTT,
                    "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "authorization, content-type",
                },
            )
            assert pre.status == 204
            assert pre.headers["Access-Control-Allow-Origin"] == VTT
            assert "POST" in pre.headers["Access-Control-Allow-Methods"]
            assert "Authorization" in pre.headers["Access-Control-Allow-Headers"]
            ok = await client.request("GET", f"{enc.path}/state", token=enc.gm_token, headers={"Origin": VTT})
            assert ok.status == 200 and ok.headers["Access-Control-Allow-Origin"] == VTT
            assert "Retry-After" in ok.headers["Access-Control-Expose-Headers"]
            err = await client.request("GET", f"{enc.path}/state", headers={"Origin": VTT})
            assert err.status == 401 and err.headers["Access-Control-Allow-Origin"] == VTT
            other = await client.request(
                "GET", f"{enc.path}/state", token=enc.gm_token, headers={"Origin": "https://evil.example"}
            )
            assert other.status == 200 and "Access-Control-Allow-Origin" not in other.headers
            pre = await client.request(
                "OPTIONS",
                f"{enc.path}/commands",
                headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
            )
            assert pre.status == 405 and "Access-Control-Allow-Origin" not in pre.headers
    finally:
        await server.stop()


async def test_any_origin_with_a_star(tmp_path):
    server = await RunningServer(str(tmp_path / "t.db"), cors_origins=["*"]).start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(server.base_url, session, server.db_path)
            r = await client.request("GET", "/rulesets", headers={"Origin": "https://anywhere.example"})
            assert r.headers["Access-Control-Allow-Origin"] == "*"
    finally:
        await server.stop()


async def test_without_cors_origin_no_cors_headers_and_preflight_is_refused(tussle):
    enc = await tussle.create("freeform")
    r = await tussle.request("GET", f"{enc.path}/state", token=enc.gm_token, headers={"Origin": VTT})
    assert r.status == 200 and "Access-Control-Allow-Origin" not in r.headers
    pre = await tussle.request(
        "OPTIONS", f"{enc.path}/commands", headers={"Origin": VTT, "Access-Control-Request-Method": "POST"}
    )
    assert pre.status == 405 and pre.body["error"]["code"] == "method_not_allowed"
