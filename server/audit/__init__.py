"""Checking a stream: verify (chain, dice, hidden rolls), replay its decisions, whole-stream reports."""
