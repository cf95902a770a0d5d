"""The real `tussle serve`: where it binds, its limit flags, and its JSON request log (no tokens, seeds
or query strings)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import aiohttp

from server.cli import build_parser, settings_from
from server.settings import Settings, WebhookSettings, WebsocketSettings
from tests.support.client import Encounter, TussleClient
from tests.support.serving import ServeProcess


class Served(ServeProcess):
    """`tussle serve --db DB *args` (without the caller's TUSSLE_ADMIN_TOKEN); `stop()` returns its stderr."""

    def __init__(self, db: str, *args: str, env: dict[str, str] | None = None):
        environment = {k: v for k, v in os.environ.items() if k != "TUSSLE_ADMIN_TOKEN"} | (env or {})
        super().__init__("--db", db, *args, env=environment)
        assert self.port is not None, f"tussle serve did not start: {self.stderr}"


def reachable(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=0.2).close()
        return True
    except OSError:
        return False


def test_the_serve_flags_default_to_api_md():
    args = build_parser().parse_args(["serve"])
    assert settings_from(args, {}) == Settings(
        max_body=256 * 1024,
        header_timeout_s=20.0,
        body_timeout_s=60.0,
        max_events=1000,
        cache_encounters=1000,
        max_dice=100,
        max_sides=1000,
        max_ws=100,
        rate_commands=20.0,
        rate_reads=100.0,
        rate_burst=2.0,
        webhooks=WebhookSettings(),
        ws=WebsocketSettings(queue_bytes=1024 * 1024, send_timeout_s=10.0),
    )


def test_the_settings_take_the_environment_once_and_flags_first():
    args = build_parser().parse_args(["serve", "--admin-token", "from-the-flag", "--cors-origin", "*"])
    env = {"TUSSLE_ADMIN_TOKEN": "from-the-env", "TUSSLE_LOOP_PROBE": "trace"}
    got = settings_from(args, env)
    assert (got.admin_token, got.loop_probe, got.cors_origins) == ("from-the-flag", "trace", ("*",))
    assert settings_from(build_parser().parse_args(["serve"]), env).admin_token == "from-the-env"


def test_without_an_admin_token_it_binds_loopback_only(tmp_path):
    served = Served(str(tmp_path / "a.db"))
    try:
        assert not reachable("127.0.0.2", served.port)  # another loopback address: not bound there
    finally:
        err = served.stop()
    assert f"on http://127.0.0.1:{served.port}" in err


def test_with_an_admin_token_it_binds_every_address_and_host_overrides(tmp_path):
    served = Served(str(tmp_path / "b.db"), env={"TUSSLE_ADMIN_TOKEN": "admin-" + "z" * 40})
    try:
        assert reachable("127.0.0.2", served.port)
    finally:
        err = served.stop()
    assert f"on http://0.0.0.0:{served.port}" in err
    served = Served(str(tmp_path / "c.db"), "--host", "127.0.0.2")
    try:
        assert not reachable("127.0.0.1", served.port)
    finally:
        err = served.stop()
    assert f"on http://127.0.0.2:{served.port}" in err


def test_port_0_takes_a_free_port_and_a_port_in_use_is_one_line(tmp_path):
    served = Served(str(tmp_path / "f.db"))  # --port 0: the startup line names the port bound
    try:
        environment = {k: v for k, v in os.environ.items() if k != "TUSSLE_ADMIN_TOKEN"}
        taken = subprocess.run(
            [
                sys.executable,
                "-m",
                "server",
                "serve",
                "--db",
                str(tmp_path / "g.db"),
                "--port",
                str(served.port),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env=environment,
        )
    finally:
        served.stop()
    assert served.port and f"on http://127.0.0.1:{served.port}" in served.stderr
    assert taken.returncode == 2, taken.stderr
    assert taken.stderr.startswith(f"tussle: cannot listen on 127.0.0.1:{served.port}: ")
    assert len(taken.stderr.strip().splitlines()) == 1


async def test_limit_flags_reach_the_server(tmp_path):
    served = Served(
        str(tmp_path / "d.db"),
        "--max-body",
        "4096",
        "--max-dice",
        "3",
        "--max-sides",
        "12",
        "--max-events",
        "1",
        "--rate-commands",
        "0.001",
        "--rate-burst",
        "6000",
        "--cors-origin",
        "https://vtt.example",
    )
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(served.url, session, "")
            enc = await client.create("freeform")  # 1 of 6 writes from this address
            assert (await enc.command("note", text="x" * 5000)).status == 413  # 2: never authenticated
            assert (await enc.command("roll", expression="4d6")).status == 400  # 3, and the GM token is good
            assert (await enc.command("roll", expression="1d20")).status == 400  # 1 of 6 for the GM token
            assert (await enc.command("roll", expression="1d6+1d4")).status == 422  # 2: two events > 1
            assert (await enc.command("roll", expression="3d12")).status == 201  # 3
            for i in (4, 5, 6):
                assert (await enc.command("note", text=str(i))).status == 201
            r = await enc.command("note", text="7")
            assert r.status == 429 and int(r.headers["Retry-After"]) >= 1
            r = await client.request("GET", "/healthz", headers={"Origin": "https://vtt.example"})
            assert r.headers["Access-Control-Allow-Origin"] == "https://vtt.example"
    finally:
        served.stop()


async def test_the_request_log_is_json_with_facts_and_without_secrets(tmp_path):
    served = Served(str(tmp_path / "e.db"))
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(served.url, session, "")
            enc: Encounter = await client.create("freeform")
            await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [0, 0]})
            seat_token = await enc.seat("Ann's player", ["ann"])
            rolled = await enc.command("roll", expression="2d6", command_id="the-roll", token=seat_token)
            assert rolled.status == 201
            # A token in a query string (as a websocket may send it) must not reach the log.
            await client.request("GET", f"{enc.path}/state?at=1&token={enc.gm_token}")
            closed = await enc.ok("close")
            seed = next(
                e["data"]["revealed_seed"] for e in closed["events"] if e["type"] == "DiceSeedRotated"
            )
    finally:
        err = served.stop()
    lines = [line for line in err.splitlines() if line.strip()]
    records = [json.loads(line) for line in lines if not line.startswith("tussle: ")]
    assert len(records) == len(lines) - 1  # everything but the startup sentence is a JSON line
    for secret in (enc.gm_token, seat_token, seed):
        assert secret not in err
    assert "?" not in err and "at=1" not in err
    requests = [r for r in records if r["event"] == "request"]
    assert all(
        {"method", "path", "route", "status", "latency_ms", "level", "timestamp"} <= set(r) for r in requests
    )
    roll = next(r for r in requests if r.get("command_type") == "roll")
    assert roll["encounter"] == enc.id and roll["role"] == "player" and roll["status"] == 201
    assert roll["seq"] == rolled.body["seq"] and roll["outcome"] == "appended"
    assert roll["route"] == "/encounters/{id}/commands" and roll["latency_ms"] >= 0
    state = next(r for r in requests if r["route"] == "/encounters/{id}/state")
    assert state["path"] == f"/encounters/{enc.id}/state" and state["status"] == 401
