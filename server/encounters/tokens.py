"""Bearer tokens: random (256 bits), stored only as SHA-256 hashes, never logged."""

from __future__ import annotations

import hashlib
import hmac
import secrets

import msgspec


def new_token() -> str:
    """A fresh bearer token."""
    return secrets.token_urlsafe(32)


def _bytes(text: str) -> bytes:
    """A presented token's bytes. Any text is hashed, so a token no one was given is simply unknown (a 401):
    a header's bytes that are not UTF-8 reach us as surrogates (aiohttp decodes with surrogateescape), a
    JSON auth frame may carry lone surrogates, and a strict encode of either would raise (a 500)."""
    return text.encode("utf-8", "surrogatepass")


def token_hash(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(_bytes(token)).hexdigest()


def same_secret(a: str, b: str) -> bool:
    """Constant-time comparison."""
    return hmac.compare_digest(_bytes(a), _bytes(b))


class Principal(msgspec.Struct, frozen=True):
    """Who a request acts as: admin, gm, player (with a seat), observer, or anonymous."""

    role: str
    stream: str | None = None
    seat: str | None = None
    token_id: str | None = None
    token_hash: str | None = None  # of the bearer token, checked again inside the append's transaction

    @property
    def actor(self) -> str:
        return f"seat:{self.seat}" if self.role == "player" else self.role
