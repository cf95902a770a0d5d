"""An unrevealed dice seed read straight from a SQLite database file, as its operator could."""

from __future__ import annotations

import sqlite3


def stored_seed(db_path: str, stream: str, commitment: str) -> bytes:
    """The seed row of (stream, commitment), as the operator reads it from the file."""
    con = sqlite3.connect(db_path)
    try:
        (seed,) = con.execute(
            "SELECT seed FROM dice_seeds WHERE stream = ? AND commitment = ?", (stream, commitment)
        ).fetchone()
    finally:
        con.close()
    return bytes(seed)
