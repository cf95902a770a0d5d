"""/metrics: Prometheus text with requests, commands, append latency, events, websockets, cache size."""

from __future__ import annotations

import re

SAMPLE = re.compile(r'^[a-z_]+(\{([a-z_]+="([^"\\]|\\.)*",?)*\})? [0-9.e+-]+$')


def parse(text: str) -> dict[str, float]:
    """Every sample line, checked against the exposition format, as {name{labels}: value}."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("#"):
            assert re.match(r"^# (HELP|TYPE) tussle_[a-z_]+ .+$", line), line
            continue
        assert SAMPLE.match(line), line
        name, value = line.rsplit(" ", 1)
        out[name] = float(value)
    return out


async def test_metrics_count_requests_commands_events_and_latency(tussle):
    enc = await tussle.create("freeform")
    await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [0, 0]})
    await enc.ok("roll", expression="2d6", command_id="r1")
    await enc.ok("roll", expression="2d6", command_id="r1")  # a resend: duplicate
    await enc.ok("roll", expression="1d6+1d4")  # two events
    assert (await enc.command("void", seq=999, reason="none such")).status == 422
    assert (await enc.command("wiggle")).status == 400
    assert (await tussle.request("GET", "/no/such/place")).status == 404
    await enc.state()

    r = await tussle.request("GET", "/metrics")
    assert r.status == 200 and r.headers["Content-Type"].startswith("text/plain")
    m = parse(r.body)
    route = 'route="/encounters/{id}/commands"'
    assert m[f'tussle_http_requests_total{{{route},method="POST",status="201"}}'] == 3
    assert m[f'tussle_http_requests_total{{{route},method="POST",status="200"}}'] == 1
    assert m['tussle_http_requests_total{route="/encounters",method="POST",status="201"}'] == 1
    assert m['tussle_http_requests_total{route="unmatched",method="GET",status="404"}'] == 1
    assert m['tussle_commands_total{type="roll",outcome="appended"}'] == 2
    assert m['tussle_commands_total{type="roll",outcome="duplicate"}'] == 1
    assert m['tussle_commands_total{type="add_combatant",outcome="appended"}'] == 1
    assert m['tussle_commands_total{type="void",outcome="rule_violation"}'] == 1
    assert m['tussle_commands_total{type="unknown",outcome="bad_request"}'] == 1  # unknown types: one label
    assert m["tussle_append_seconds_count"] == 3
    assert m['tussle_append_seconds_bucket{le="+Inf"}'] == 3
    buckets = [v for k, v in m.items() if k.startswith("tussle_append_seconds_bucket")]
    assert buckets == sorted(buckets)  # cumulative
    events = await enc.events()
    assert m["tussle_events_appended_total"] == len(events) == 5  # created, joined, 3 rolls
    assert m["tussle_websocket_connections"] == 0
    assert m["tussle_state_cache_encounters"] == 1


async def test_websocket_connections_are_counted_while_open(tussle):
    enc = await tussle.create("freeform")
    url = tussle.base_url.replace("http", "ws") + f"{enc.path}/ws"
    ws = await tussle.session.ws_connect(url, headers={"Authorization": f"Bearer {enc.gm_token}"})
    m = parse((await tussle.request("GET", "/metrics")).body)
    assert m["tussle_websocket_connections"] == 1
    assert m["tussle_websocket_connections_opened_total"] == 1
    await ws.close()
