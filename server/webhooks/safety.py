"""Where a webhook may point: public http(s) addresses only, unless `--webhook-allow-private`.

A URL with user:pass@ is refused (a secret that would travel in every request and land in logs).
Names are resolved by `CheckingResolver`, the dispatcher's only resolver: it resolves once per
connection and hands aiohttp only addresses it checked, so a name that resolves to a public address
when checked and to a private one a moment later (DNS rebinding) still reaches only the checked one.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import DefaultResolver


class UnsafeUrl(Exception):
    """A URL Tussle will not deliver to; the message says why."""


def parse_url(url: Any) -> tuple[str, str, int]:
    """(scheme, host, port) of an acceptable webhook URL, or UnsafeUrl."""
    if not isinstance(url, str) or not url or len(url) > 2000:
        raise UnsafeUrl("url must be an http or https URL of at most 2,000 characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UnsafeUrl(f"url is not a valid URL: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsafeUrl("url must be an http or https URL with a host")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise UnsafeUrl(
            "url must not carry a user name or password (user:pass@): put a secret in the path instead"
        )
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80)


def forbidden_address(ip: str) -> str | None:
    """Why an address is not public (loopback, private, link-local, the cloud metadata address …), or None."""
    addr = ipaddress.ip_address(ip.split("%", 1)[0])
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    for why, bad in (
        ("loopback", addr.is_loopback),
        ("link-local or metadata", addr.is_link_local),
        ("private", addr.is_private),
        ("multicast", addr.is_multicast),
        ("unspecified", addr.is_unspecified),
        ("reserved", addr.is_reserved),
        ("not globally routable", not addr.is_global),
    ):
        if bad:
            return why
    return None


class ForbiddenAddress(OSError):
    """A name resolved only to addresses webhooks may not reach (an OSError: aiohttp's connect fails)."""


class CheckingResolver(AbstractResolver):
    """Resolves a host once and returns only addresses webhooks may reach (all, when `allow_private`)."""

    def __init__(self, allow_private: bool):
        self.allow_private = allow_private
        self._resolver = DefaultResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        found = await self._resolver.resolve(host, port, family)
        if self.allow_private:
            return found
        allowed = [r for r in found if forbidden_address(r["host"]) is None]
        if not allowed:
            why = forbidden_address(found[0]["host"]) if found else "no address"
            raise ForbiddenAddress(
                f"{host} resolves to a {why} address; webhooks reach public addresses only "
                "(tussle serve --webhook-allow-private lifts this)"
            )
        return allowed

    async def close(self) -> None:
        await self._resolver.close()


# Names that mean this machine whatever DNS says (RFC 6761 §6.3, and Debian's /etc/hosts names): refused
# by name, not only once they resolve (where they do not resolve, they were accepted at registration).
_LOCAL_NAMES = ("localhost", "ip6-localhost", "ip6-loopback", "localhost.localdomain")


def check_literal(host: str, allow_private: bool) -> None:
    """An address written in the URL itself (aiohttp connects to it without asking the resolver), or a
    host refused by its form: percent-encoded (`%31%32%37.0.0.1`), or a name for this machine."""
    if "%" in host and ":" not in host:  # an IPv6 literal's zone id (fe80::1%25eth0) is not encoding
        raise UnsafeUrl(f"url: the host {host!r} is percent-encoded; write the host plainly")
    name = host.lower().rstrip(".")
    if not allow_private and (name in _LOCAL_NAMES or name.endswith(".localhost")):
        raise UnsafeUrl(
            f"url: {host} names this machine (loopback); webhooks reach public addresses only "
            "(tussle serve --webhook-allow-private lifts this)"
        )
    try:
        ipaddress.ip_address(host.strip("[]").split("%", 1)[0])
    except ValueError:
        return  # a name: CheckingResolver checks what it resolves to
    why = None if allow_private else forbidden_address(host.strip("[]"))
    if why:
        raise UnsafeUrl(
            f"url: {host} is a {why} address; webhooks reach public addresses only "
            "(tussle serve --webhook-allow-private lifts this)"
        )


async def check_reachable(url: Any, allow_private: bool) -> str:
    """The URL's host, once its name resolves to addresses webhooks may reach; else UnsafeUrl."""
    _, host, port = parse_url(url)
    check_literal(host, allow_private)
    resolver = CheckingResolver(allow_private)
    try:
        await resolver.resolve(host, port, socket.AF_UNSPEC)
    except ForbiddenAddress as exc:
        raise UnsafeUrl(f"url: {exc}") from None
    except OSError:
        pass  # not resolvable now: deliveries will retry (and check again) on every connection
    finally:
        await resolver.close()
    return host
