"""Discord's signature of an interaction: Ed25519 by the application's key over the timestamp and the
raw body, in `X-Signature-Ed25519` (hex) beside `X-Signature-Timestamp` (unix seconds).

The endpoint refuses (401) a request whose signature does not verify, or whose timestamp is further
than `MAX_AGE_S` from now (a replayed old request); a verifier checks the signature of a request kept in
a declaration with no clock (`signed_request_problem`), since the signature alone says Discord sent it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

# How far from the server's clock a request's timestamp may be: Discord sends at once, so an older
# request is one replayed by someone who kept it.
MAX_AGE_S = 300


class BadPublicKey(ValueError):
    pass


def public_key(hex_key: str) -> Ed25519PublicKey:
    """The application's public key from its hex (64 digits, as the developer portal shows it)."""
    try:
        raw = bytes.fromhex(hex_key.strip())
        return Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise BadPublicKey(
            "a Discord public key is 64 hex digits (the application's General Information page)"
        ) from None


def valid(key: Ed25519PublicKey, signature_hex: str, timestamp: str, body: bytes) -> bool:
    """Whether `signature_hex` is the application's signature of timestamp + body."""
    try:
        key.verify(bytes.fromhex(signature_hex), timestamp.encode() + body)
    except (InvalidSignature, ValueError):
        return False
    return True


def fresh(timestamp: str, now: float, max_age: float = MAX_AGE_S) -> bool:
    try:
        return abs(now - int(timestamp)) <= max_age
    except ValueError:
        return False


def token_digest(token: str) -> str:
    """The entropy of a command sent from Discord: SHA-256 (hex) of the interaction's token, which
    Discord made for this interaction alone and which the server did not know before it."""
    return hashlib.sha256(token.encode()).hexdigest()


def kept(signature_hex: str, timestamp: str, body: bytes) -> dict[str, str]:
    """The request as a declaration keeps it (`signed_request`)."""
    return {"by": "discord", "signature": signature_hex, "timestamp": timestamp, "body": body.decode()}


def signed_request_problem(
    declared: dict[str, Any], command_id: str, keys: list[str], application_id: str | None = None
) -> str | None:
    """Why a declaration keyed by Discord does not prove Discord sent its command (None: it does): its
    kept request must verify under one of the application's public `keys`, be the interaction whose id
    keyed the dice (the command_id), and its token's digest must be the command's entropy."""
    signed = declared.get("signed_request")
    if not isinstance(signed, dict) or not all(
        isinstance(signed.get(k), str) for k in ("signature", "timestamp", "body")
    ):
        return "is keyed by Discord but keeps no signed request from Discord"
    if not keys:
        return None  # said by the caller: nothing to check the signature with
    body = signed["body"].encode()
    if not any(valid(public_key(k), signed["signature"], signed["timestamp"], body) for k in keys):
        return "keeps a request whose signature does not verify under the Discord application's public key"
    try:
        interaction = json.loads(body)
    except ValueError:
        return "keeps a signed request that is not JSON"
    if not isinstance(interaction, dict) or str(interaction.get("id")) != command_id:
        return f"keeps the signed interaction {interaction.get('id') if isinstance(interaction, dict) else None!r}, not its command_id {command_id!r}"
    if application_id is not None and str(interaction.get("application_id")) != application_id:
        return f"keeps an interaction of application {interaction.get('application_id')!r}, not {application_id!r}"
    entropy = (declared.get("command") or {}).get("entropy")
    if not isinstance(interaction.get("token"), str) or token_digest(interaction["token"]) != entropy:
        return "declares an entropy that is not the digest of its interaction's token"
    return None
