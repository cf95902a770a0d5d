"""Idle websocket subscribers: the server's resident memory per connection, against a bare aiohttp
websocket server measured in the same run (issue 32 item 3: idle subscriber memory <= 18 kB).

    python bench/idle_subscribers.py                 # 1,000 subscribers to one encounter's state
    python bench/idle_subscribers.py --subscribers 2000 --projection events

Starts `tussle serve` on a temporary database and the bare server (BARE below: accept,
then read until the close), opens N websockets to each in turn (to Tussle: subscribed, caught up, then
idle), and prints the growth of each server's RSS (from /proc) divided by N, and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile

import aiohttp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from bench.append import free_port, serve_command, wait_until_up  # noqa: E402

BARE = """
import sys
from aiohttp import web

async def ws(request):
    sock = web.WebSocketResponse(heartbeat=None)
    await sock.prepare(request)
    async for _ in sock:
        pass
    return sock

app = web.Application()
app.router.add_get("/ws", ws)
app.router.add_get("/healthz", lambda r: web.Response(text="ok"))
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), access_log=None, print=None)
"""


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit(f"no VmRSS for {pid}")


async def settle(pid: int) -> int:
    """RSS once it stops moving (the allocator's pages settle a moment after the last connection)."""
    last = -1
    for _ in range(20):
        await asyncio.sleep(0.25)
        now = rss_kb(pid)
        if now == last:
            return now
        last = now
    return last


async def tussle_sockets(session: aiohttp.ClientSession, base: str, n: int, projection: str) -> list:
    async with session.post(f"{base}/encounters", json={"name": "Idle", "ruleset": "freeform"}) as r:
        enc = await r.json()
    headers = {"Authorization": f"Bearer {enc['gm_token']}"}
    out = []
    for _ in range(n):
        ws = await session.ws_connect(f"{base}/encounters/{enc['id']}/ws", headers=headers, autoping=True)
        await ws.send_json({"op": "subscribe", "projection": projection, "after": 0})
        while True:
            msg = await ws.receive(timeout=30)
            if msg.type == aiohttp.WSMsgType.TEXT and '"caught_up"' in msg.data:
                break
        out.append(ws)
    return out


async def bare_sockets(session: aiohttp.ClientSession, base: str, n: int) -> list:
    return [await session.ws_connect(f"{base}/ws", autoping=True) for _ in range(n)]


async def measure(pid: int, opened) -> float:  # noqa: ANN001 - a coroutine making the sockets
    before = await settle(pid)
    sockets = await opened
    after = await settle(pid)
    for ws in sockets:
        await ws.close()
    return (after - before) / len(sockets)


async def run(
    args: argparse.Namespace, tussle_port: int, tussle_pid: int, bare_port: int, bare_pid: int
) -> None:
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        base = f"http://127.0.0.1:{tussle_port}"
        await measure(tussle_pid, tussle_sockets(session, base, 50, args.projection))  # warm-up
        ours = await measure(tussle_pid, tussle_sockets(session, base, args.subscribers, args.projection))
        bare_base = f"http://127.0.0.1:{bare_port}"
        await measure(bare_pid, bare_sockets(session, bare_base, 50))
        bare = await measure(bare_pid, bare_sockets(session, bare_base, args.subscribers))
    print(f"{args.subscribers} idle subscribers ({args.projection}), server RSS growth per connection:")
    print(f"  tussle         {ours:6.1f} kB   (target <= 18 kB)")
    print(f"  bare aiohttp   {bare:6.1f} kB   (a websocket that reads until the close)")
    print(f"  ratio          {ours / bare:6.2f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--subscribers", type=int, default=1000)
    p.add_argument("--projection", choices=["state", "log", "events"], default="state")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        port, bare_port = free_port(), free_port()
        tussle = subprocess.Popen(
            [*serve_command(port, "--db", os.path.join(workdir, "idle.db")), "--max-ws", "100000"],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        bare = subprocess.Popen(
            [sys.executable, "-c", BARE, str(bare_port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            wait_until_up(port, tussle)
            wait_until_up(bare_port, bare)
            asyncio.run(run(args, port, tussle.pid, bare_port, bare.pid))
        finally:
            for proc in (tussle, bare):
                proc.terminate()
                proc.wait(timeout=10)


if __name__ == "__main__":
    main()
