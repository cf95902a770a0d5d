"""The key that seals dice seeds and webhook secrets at rest, kept outside the database (DESIGN.md "Dice").

A copied database file or backup then shows no unrevealed seed: each seed row holds
`nonce (12 bytes) || AES-GCM(key, nonce, seed, aad)`, with the encounter and the seed's commitment as
associated data, so a sealed seed moved to another row (another encounter, another commitment) no
longer opens. The database records the key's fingerprint, so a server started with another key is
refused before it rolls a die.

A webhook's URL (a Discord webhook URL is itself a credential) and its signing secret are sealed the
same way (`seal_text`), as text columns holding `sealed:v1:` and the base64 of nonce and ciphertext,
with the column and the webhook's id as associated data: a copy shows neither, and a sealed value
moved to another webhook or column no longer opens.

SQLite reads the key from `TUSSLE_SEED_KEY` when set, else from `<db>.seed-key` beside the database,
which the first start creates (mode 0600). PostgreSQL reads `TUSSLE_SEED_KEY` only: every process must
share the key, so none makes one of its own. The key is 32 bytes written as 64 hex digits.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

ENV = "TUSSLE_SEED_KEY"
KEY_FILE_SUFFIX = ".seed-key"
_NONCE = 12
SEALED_TEXT = "sealed:v1:"  # how a sealed text column begins (a plain URL or whsec_ secret never does)
_FINGERPRINT_LABEL = b"tussle seed key fingerprint v1"
_HOW = "64 hex digits, e.g. from `python -c 'import secrets; print(secrets.token_hex(32))'`"


class SeedKeyError(Exception):
    """The seed key is missing, malformed, or not the one the database's seeds were sealed with."""


class SeedKey:
    """AES-256-GCM over the dice seeds, one key per database."""

    def __init__(self, key: bytes, source: str):
        if len(key) != 32:
            raise SeedKeyError(f"the seed key from {source} is {len(key)} bytes, not 32 ({_HOW})")
        self._aead = AESGCM(key)
        self.source = source  # where the key came from, for messages (never the key itself)
        self.fingerprint = hmac.new(key, _FINGERPRINT_LABEL, hashlib.sha256).hexdigest()

    @staticmethod
    def _aad(stream: str, commitment: str) -> bytes:
        return f"tussle dice seed\0{stream}\0{commitment}".encode()

    def seal(self, stream: str, commitment: str, seed: bytes) -> bytes:
        nonce = secrets.token_bytes(_NONCE)
        return nonce + self._aead.encrypt(nonce, seed, self._aad(stream, commitment))

    def open(self, stream: str, commitment: str, sealed: bytes) -> bytes:
        try:
            return self._aead.decrypt(sealed[:_NONCE], sealed[_NONCE:], self._aad(stream, commitment))
        except InvalidTag:
            raise SeedKeyError(
                f"the seed of encounter {stream!r} (commitment {commitment}) does not open under the seed key "
                f"from {self.source}: the row was altered or moved, or sealed under another key"
            ) from None

    @staticmethod
    def _text_aad(column: str, row: str) -> bytes:
        return f"tussle sealed text\0{column}\0{row}".encode()

    def seal_text(self, column: str, row: str, text: str) -> str:
        """`text` sealed for one column of one row (e.g. "webhooks.url", the webhook's id)."""
        nonce = secrets.token_bytes(_NONCE)
        sealed = nonce + self._aead.encrypt(nonce, text.encode(), self._text_aad(column, row))
        return SEALED_TEXT + base64.b64encode(sealed).decode("ascii")

    def open_text(self, column: str, row: str, stored: str) -> str:
        """What `seal_text` sealed; SeedKeyError for a value not sealed, altered, moved or under another key."""
        if not stored.startswith(SEALED_TEXT):
            raise SeedKeyError(f"{column} of {row!r} is stored plain, not sealed: the database was altered")
        sealed = base64.b64decode(stored[len(SEALED_TEXT) :])
        try:
            return self._aead.decrypt(sealed[:_NONCE], sealed[_NONCE:], self._text_aad(column, row)).decode()
        except InvalidTag:
            raise SeedKeyError(
                f"{column} of {row!r} does not open under the seed key from {self.source}: "
                "the row was altered or moved, or sealed under another key"
            ) from None

    def check(self, stored_fingerprint: str) -> None:
        """SeedKeyError unless the database's seeds were sealed under this key."""
        if not hmac.compare_digest(stored_fingerprint, self.fingerprint):
            raise SeedKeyError(
                f"seed key fingerprint mismatch: the database's seeds were sealed under the key with fingerprint "
                f"{stored_fingerprint[:16]}…, but the key from {self.source} has fingerprint {self.fingerprint[:16]}…. "
                f"Start the server with the database's own key (its {KEY_FILE_SUFFIX} file or {ENV}); "
                "without it the unrevealed seeds cannot be read"
            )


def _parse(text: str, source: str) -> SeedKey:
    try:
        key = bytes.fromhex(text.strip())
    except ValueError:
        raise SeedKeyError(f"the seed key from {source} is not hex ({_HOW})") from None
    return SeedKey(key, source)


def from_env() -> SeedKey | None:
    """The key `TUSSLE_SEED_KEY` holds, or None when it is unset or empty."""
    text = os.environ.get(ENV, "")
    return _parse(text, ENV) if text.strip() else None


def for_sqlite(db_path: str, *, create: bool = True) -> SeedKey:
    """`TUSSLE_SEED_KEY`, else the key file beside the database, created (0600) when `create` and absent."""
    key = from_env()
    if key is not None:
        return key
    path = db_path + KEY_FILE_SUFFIX
    if create:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32) + "\n")
                f.flush()
                os.fsync(f.fileno())
    try:
        with open(path, encoding="ascii") as f:
            mode = os.fstat(f.fileno()).st_mode & 0o777
            if mode & 0o077:
                # A key others can read protects nothing: refuse it as ssh refuses such a private key.
                raise SeedKeyError(
                    f"the seed key file {path} can be read by others (mode {mode:04o}): "
                    f"chmod 600 {path}, or give the key as {ENV}"
                )
            return _parse(f.read(), path)
    except FileNotFoundError:
        raise SeedKeyError(
            f"there is no seed key: neither {ENV} nor {path} (the key file beside the "
            "database, which the server that wrote it made)"
        ) from None


def for_postgres() -> SeedKey:
    """`TUSSLE_SEED_KEY`, never made here: every process sharing the database must use the same key."""
    key = from_env()
    if key is None:
        raise SeedKeyError(
            f"{ENV} is not set: a PostgreSQL server keeps its dice seeds sealed under a key every process "
            f"shares, given as {ENV} ({_HOW}); keep it apart from the database and its backups"
        )
    return key


__all__ = [
    "ENV",
    "KEY_FILE_SUFFIX",
    "SEALED_TEXT",
    "SeedKey",
    "SeedKeyError",
    "for_postgres",
    "for_sqlite",
    "from_env",
]
