"""The state as served: the projection plus what is computed for readers (legal actions)."""

from __future__ import annotations

from typing import Any


def state_view(state: dict[str, Any], ruleset: Any) -> dict[str, Any]:
    """The state with `legal_actions` per combatant; pure."""
    legal = {}
    if ruleset is not None and not state["closed"]:
        for cid in state["combatants"]:
            try:
                legal[cid] = ruleset.legal_actions(state, cid)
            except Exception:  # noqa: BLE001 - a ruleset bug must not hide the state
                legal[cid] = []
    dropped = [{"item": it["id"], "owner": cid, "at": it.get("at")}
               for cid, c in state["combatants"].items() for it in c.get("items", []) if it.get("state") == "dropped"]
    return {**state, "legal_actions": legal, "dropped_items": dropped}
