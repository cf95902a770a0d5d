"""The server's own Ed25519 keys that sign receipts (docs/verifying.md "Signed receipts").

A receipt is the chain head a command's answer names (encounter, seq, hash, time), signed, so a receipt
posted anywhere proves what this server said and a forged one cannot be blamed on it. Like the seed key
(events/store/seed_key.py) the keys never enter the database.

`TUSSLE_RECEIPT_KEYS` when set: Ed25519 private keys as 64 hex digits each, separated by commas or
whitespace, oldest first; the last signs, the earlier ones are retired (still published, so old
receipts keep verifying). Else SQLite reads `<db>.receipt-keys` beside the database, one key a line,
which the first start creates (mode 0600) and `tussle keys rotate` appends to. PostgreSQL without the
variable derives one key from `TUSSLE_SEED_KEY`, which every process already shares.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from events.canonical import canonical
from events.store.seed_key import ENV as SEED_ENV

ENV = "TUSSLE_RECEIPT_KEYS"
KEY_FILE_SUFFIX = ".receipt-keys"
ALGORITHM = "Ed25519"
# Domain separation: these bytes can never be mistaken for an event's hashed bytes or another protocol's.
PREFIX = b"tussle receipt v1\n"
_DERIVE_INFO = b"tussle receipt key v1"


class ReceiptKeyError(Exception):
    """The receipt keys are missing or malformed."""


def signed_bytes(encounter: str, seq: int, hash_: str, time: str) -> bytes:
    """The exact bytes a receipt's signature covers: the prefix, then canonical JSON of the four fields."""
    return PREFIX + canonical({"encounter": encounter, "hash": hash_, "seq": seq, "time": time})


def _raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(public: bytes) -> str:
    """A key's id: the first 16 hex digits of SHA-256 over its 32 raw public-key bytes."""
    return hashlib.sha256(public).hexdigest()[:16]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class ReceiptKeys:
    """The signing keys, oldest first; the last one signs."""

    def __init__(self, seeds: list[bytes], source: str):
        if not seeds:
            raise ReceiptKeyError(f"{source} holds no receipt key")
        for s in seeds:
            if len(s) != 32:
                raise ReceiptKeyError(
                    f"a receipt key from {source} is {len(s)} bytes, not 32 (64 hex digits)"
                )
        self.source = source  # where the keys came from, for messages (never the keys themselves)
        self._keys = [Ed25519PrivateKey.from_private_bytes(s) for s in seeds]
        self._ids = [key_id(_raw_public(k.public_key())) for k in self._keys]

    @property
    def current_id(self) -> str:
        return self._ids[-1]

    def sign(self, encounter: str, seq: int, hash_: str, time: str) -> dict[str, Any]:
        """The receipt of head (seq, hash) of `encounter` at `time`."""
        sig = self._keys[-1].sign(signed_bytes(encounter, seq, hash_, time))
        return {
            "encounter": encounter,
            "seq": seq,
            "hash": hash_,
            "time": time,
            "key_id": self._ids[-1],
            "signature": _b64(sig),
        }

    def public(self) -> list[dict[str, Any]]:
        """Every public key, current and retired (GET /keys, and every export's trailer)."""
        return [
            {
                "key_id": kid,
                "algorithm": ALGORITHM,
                "public_key": _b64(_raw_public(k.public_key())),
                "current": n == len(self._keys) - 1,
            }
            for n, (kid, k) in enumerate(zip(self._ids, self._keys, strict=True))
        ]


def signature_problem(receipt: dict[str, Any], keys: list[dict[str, Any]]) -> str | None:
    """Why a signed receipt does not verify under the published `keys`, or None when it does."""
    kid = receipt.get("key_id")
    known = {k.get("key_id"): k for k in keys if k.get("algorithm", ALGORITHM) == ALGORITHM}
    if kid not in known:
        return f"it is signed with key {kid!r}, which is not among the server's published keys {sorted(str(k) for k in known)}"
    try:
        public = Ed25519PublicKey.from_public_bytes(_unb64(str(known[kid]["public_key"])))
        public.verify(
            _unb64(str(receipt.get("signature"))),
            signed_bytes(receipt["encounter"], receipt["seq"], receipt["hash"], receipt["time"]),
        )
    except (InvalidSignature, KeyError, ValueError, TypeError):
        return (
            f"its signature does not verify under key {kid}: the server never signed this encounter, seq, "
            "hash and time (the receipt was forged or altered)"
        )
    return None


def _parse(text: str, source: str) -> ReceiptKeys:
    try:
        seeds = [bytes.fromhex(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise ReceiptKeyError(f"the receipt keys from {source} are not hex") from None
    return ReceiptKeys(seeds, source)


def from_env() -> ReceiptKeys | None:
    text = os.environ.get(ENV, "")
    return _parse(text, ENV) if text.strip() else None


def new_key_line() -> str:
    return secrets.token_hex(32)


def for_sqlite(db_path: str) -> ReceiptKeys:
    """`TUSSLE_RECEIPT_KEYS`, else the key file beside the database (created, 0600, when absent)."""
    keys = from_env()
    if keys is not None:
        return keys
    path = db_path + KEY_FILE_SUFFIX
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as f:
            f.write(new_key_line() + "\n")
    with open(path, encoding="ascii") as f:
        mode = os.fstat(f.fileno()).st_mode & 0o777
        if mode & 0o077:
            raise ReceiptKeyError(
                f"the receipt key file {path} can be read by others (mode {mode:04o}): chmod 600 {path}"
            )
        return _parse(f.read(), path)


def derived_from_seed_key() -> str | None:
    """The receipt key PostgreSQL derives from `TUSSLE_SEED_KEY` (hex), or None when it is unset."""
    text = os.environ.get(SEED_ENV, "").strip()
    if not text:
        return None
    try:
        ikm = bytes.fromhex(text)
    except ValueError:
        return None
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_DERIVE_INFO).derive(ikm).hex()


def for_postgres() -> ReceiptKeys:
    """`TUSSLE_RECEIPT_KEYS`, else a key derived from the seed key every process shares."""
    keys = from_env()
    if keys is not None:
        return keys
    derived = derived_from_seed_key()
    if derived is None:
        raise ReceiptKeyError(f"neither {ENV} nor {SEED_ENV} is set: a PostgreSQL server has no receipt key")
    return _parse(derived, f"a key derived from {SEED_ENV}")


def ephemeral() -> ReceiptKeys:
    """A key for a store with no place beside it (an in-memory database): receipts verify while it runs."""
    return _parse(new_key_line(), "a key made for this process")


__all__ = [
    "ENV",
    "KEY_FILE_SUFFIX",
    "ReceiptKeyError",
    "ReceiptKeys",
    "derived_from_seed_key",
    "for_postgres",
    "for_sqlite",
    "key_id",
    "signature_problem",
    "signed_bytes",
]
