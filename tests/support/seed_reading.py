"""An unrevealed dice seed read straight from a SQLite database file, as its operator could: the operator
holds the seed key too (TUSSLE_SEED_KEY or the key file beside the database)."""

from __future__ import annotations

import sqlite3

from events.store.seed_key import for_sqlite


def stored_seed(db_path: str, stream: str, commitment: str) -> bytes:
    """The seed of (stream, commitment), as the operator reads it from the file and opens it."""
    con = sqlite3.connect(db_path)
    try:
        (seed,) = con.execute(
            "SELECT seed FROM dice_seeds WHERE stream = ? AND commitment = ?", (stream, commitment)
        ).fetchone()
    finally:
        con.close()
    return for_sqlite(db_path, create=False).open(stream, commitment, bytes(seed))
