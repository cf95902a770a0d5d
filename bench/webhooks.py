"""Webhook delivery latency: E encounters × W webhooks each, a note per encounter per round.

    python bench/webhooks.py                                  # 100 encounters × 5 webhooks, 3 rounds
    python bench/webhooks.py --encounters 100 --webhooks 5 --rounds 3

Starts `tussle serve --webhook-allow-private` on a temporary database and W local receivers (aiohttp, in
this process); every encounter gets one webhook (deliver: events) on each receiver, so there are E × W
endpoints. Reports the latency from each command's 201 (the append acknowledged) to the receiver's
arrival of its event, p50/p99 over every delivery, and deliveries/s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time

import aiohttp
from aiohttp import web

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.support.serving import ServeProcess  # noqa: E402 - after the path set-up above


async def main(args: argparse.Namespace) -> None:
    arrived: dict[str, float] = {}

    async def receive(request: web.Request) -> web.Response:
        arrived.setdefault(request.headers["webhook-id"], time.monotonic())
        await request.read()
        return web.Response(status=204)

    runners = []
    ports = []
    for _ in range(args.webhooks):
        app = web.Application()
        app.router.add_post("/hook", receive)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        runners.append(runner)
        ports.append(runner.addresses[-1][1])
    with tempfile.TemporaryDirectory() as tmp:
        server = await asyncio.to_thread(
            ServeProcess,
            "--db",
            os.path.join(tmp, "b.db"),
            "--webhook-allow-private",
            "--rate-commands",
            "0",
            "--rate-reads",
            "0",
        )
        try:
            async with aiohttp.ClientSession() as http:

                async def call(method: str, path: str, token: str | None, body: dict) -> dict:
                    headers = {"Authorization": f"Bearer {token}"} if token else {}
                    async with http.request(method, server.url + path, json=body, headers=headers) as r:
                        assert r.status in (200, 201), await r.text()
                        return await r.json()

                encounters = []
                for i in range(args.encounters):
                    enc = await call(
                        "POST", "/encounters", None, {"name": f"bench {i}", "ruleset": "freeform"}
                    )
                    hooks = [
                        (
                            await call(
                                "POST",
                                f"/encounters/{enc['id']}/webhooks",
                                enc["gm_token"],
                                {"url": f"http://127.0.0.1:{p}/hook", "deliver": ["events"]},
                            )
                        )["id"]
                        for p in ports
                    ]
                    encounters.append((enc, hooks))
                acknowledged: dict[str, float] = {}
                started = time.monotonic()
                for rnd in range(args.rounds):

                    async def note(enc: dict, hooks: list[str], rnd: int = rnd) -> None:
                        out = await call(
                            "POST",
                            f"/encounters/{enc['id']}/commands",
                            enc["gm_token"],
                            {"type": "note", "text": f"round {rnd}"},
                        )
                        at = time.monotonic()
                        for h in hooks:
                            acknowledged[f"{h}.{out['seq']}.0"] = at

                    await asyncio.gather(*(note(e, h) for e, h in encounters))
                deadline = time.monotonic() + 120
                while not all(k in arrived for k in acknowledged) and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
                took = time.monotonic() - started
        finally:
            await asyncio.to_thread(server.stop)
    for runner in runners:
        await runner.cleanup()
    lat = sorted(max(0.0, arrived[k] - t) for k, t in acknowledged.items() if k in arrived)
    missing = len(acknowledged) - len(lat)
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    print(
        f"{args.encounters} encounters x {args.webhooks} webhooks, {args.rounds} rounds: {len(lat)} deliveries "
        f"({missing} missing), p50 {p50:.0f} ms, p99 {p99:.0f} ms, {len(lat) / took:.0f} deliveries/s"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--encounters", type=int, default=100)
    parser.add_argument("--webhooks", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    asyncio.run(main(parser.parse_args()))
