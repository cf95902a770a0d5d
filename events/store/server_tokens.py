"""Server-level reader tokens (the firehose, docs/websocket.md "The firehose"): made and revoked by the
admin, outside any encounter's stream, and the GMs' grants that let one read a private encounter.

Both live in the `tokens` table, so a presented token is found, cached and dropped on revocation by
the same lookup as every other token:

- a reader token is a row of stream `SERVER_STREAM` (no encounter has an empty id), role `FIREHOSE`;
- a grant is a row of the granting encounter, role `FIREHOSE_GRANT`, whose `token_id` is the reader
  token's id. It is written by the append of the grant's event (`Append.tokens`) and revoked by the
  revoke's (`Append.revoke`), so it is deleted with its encounter. Its `token_hash` is a unique key and
  not a hash ("grant:" and random hex): no presented token hashes to it.
"""

from __future__ import annotations

SERVER_STREAM = ""  # the `stream` of a server-level token
FIREHOSE = "firehose"  # the role of a reader token
FIREHOSE_GRANT = "firehose_grant"  # the role of a grant row
GRANT_KEY_PREFIX = "grant:"


__all__ = ["FIREHOSE", "FIREHOSE_GRANT", "GRANT_KEY_PREFIX", "SERVER_STREAM"]
