"""Behind a reverse proxy (docs/deploy.md): `X-Forwarded-For` counts only from `--trusted-proxy`
addresses, so rate limits see each client behind the proxy and nobody else can pick their address."""

from __future__ import annotations

import subprocess
import sys

import aiohttp
import pytest

from server.ops.forwarded import client_address, trusted_networks
from tests.support.client import RunningServer, TussleClient

PROXY = trusted_networks(["10.0.0.0/8", "127.0.0.1"])


@pytest.mark.parametrize(
    ("peer", "forwarded", "client"),
    [
        ("127.0.0.1", ["203.0.113.7"], "203.0.113.7"),  # one proxy
        ("127.0.0.1", ["203.0.113.7, 10.1.2.3"], "203.0.113.7"),  # two proxies, both trusted
        (
            "127.0.0.1",
            ["198.51.100.1, 203.0.113.7"],
            "203.0.113.7",
        ),  # a client's own forged hop is not believed
        ("127.0.0.1", ["203.0.113.7", "10.1.2.3"], "203.0.113.7"),  # the header sent twice
        ("192.0.2.9", ["203.0.113.7"], "192.0.2.9"),  # an untrusted peer's header is ignored
        ("127.0.0.1", [], "127.0.0.1"),  # the proxy's own request
        ("127.0.0.1", ["not-an-address"], "not-an-address"),  # what the proxy said, untrusted, ends the walk
    ],
)
def test_the_client_is_the_first_hop_no_trusted_proxy_vouches_for(peer, forwarded, client):
    assert client_address(peer, forwarded, PROXY) == client


async def _reads_allowed(trusted: list[str], tmp_path, name: str) -> list[int]:
    """Statuses of reads from two clients behind one proxy, at a read budget of two per address."""
    server = await RunningServer(
        str(tmp_path / name), rate_reads=0.001, rate_burst=2 / 0.001, trusted_proxies=trusted
    ).start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(server.base_url, session, server.db_path)
            statuses = []
            for who in ("203.0.113.7", "203.0.113.7", "203.0.113.7", "198.51.100.2"):
                r = await client.request("GET", "/rulesets", headers={"X-Forwarded-For": who})
                statuses.append(r.status)
            return statuses
    finally:
        await server.stop()


async def test_behind_a_trusted_proxy_each_client_has_its_own_rate_limit(tmp_path):
    assert await _reads_allowed(["127.0.0.1"], tmp_path, "trusted.db") == [200, 200, 429, 200]


async def test_without_a_trusted_proxy_the_header_buys_nothing(tmp_path):
    # Every request is the peer's: the fourth, "from" another client, is refused like the third.
    assert await _reads_allowed([], tmp_path, "untrusted.db") == [200, 200, 429, 429]


def test_serve_refuses_a_trusted_proxy_that_is_no_address(tmp_path):
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "server",
            "serve",
            "--db",
            str(tmp_path / "x.db"),
            "--trusted-proxy",
            "the-proxy",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "--trusted-proxy 'the-proxy' is not an IP address or a CIDR block" in run.stderr
