"""The encounter service and what it keeps: its cache, snapshots, reaction deadlines, tokens, ids, its
errors, the fan-out of committed events, and what is asked of a token now."""
