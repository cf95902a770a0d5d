"""The client behind a reverse proxy: `X-Forwarded-For` and `X-Forwarded-Proto` are believed only
when the connection comes from an address given to `--trusted-proxy` (docs/deploy.md).

Anyone can send the headers, so a server that read them from every peer would let a client choose
the address its rate limits count. Walking the list from the right, each hop added by a trusted
proxy is skipped; the first address no trusted proxy vouches for is the client.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from aiohttp import web

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(specs: Iterable[str]) -> tuple[Network, ...]:
    """Parse `--trusted-proxy` values (an address or a CIDR block each); ValueError names a bad one."""
    networks = []
    for spec in specs:
        try:
            networks.append(ipaddress.ip_network(spec.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--trusted-proxy {spec!r} is not an IP address or a CIDR block") from None
    return tuple(networks)


def _trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def client_address(peer: str | None, forwarded_for: list[str], networks: tuple[Network, ...]) -> str | None:
    """The client's address: the peer itself unless a trusted proxy forwarded the request for another."""
    if peer is None or not _trusted(peer, networks):
        return peer
    hops = [hop.strip() for header in forwarded_for for hop in header.split(",") if hop.strip()]
    client = peer
    for hop in reversed(hops):
        client = hop
        if not _trusted(hop, networks):
            break
    return client


def forwarded(request: web.Request, networks: tuple[Network, ...]) -> web.Request:
    """The request as every later step (rate limits, request log, metrics) should see it: from the real
    client, when it came through a trusted proxy."""
    peer = request.remote
    if peer is None or not _trusted(peer, networks):
        return request
    client = client_address(peer, request.headers.getall("X-Forwarded-For", []), networks) or peer
    proto = request.headers.get("X-Forwarded-Proto", "").split(",")[0].strip().lower()
    scheme = proto if proto in ("http", "https") else request.scheme
    return request.clone(remote=client, scheme=scheme)
