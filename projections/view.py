"""The state as served: the projection plus what is computed for readers (legal actions, who acts now)."""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from typing import Any

from rules.interface import Ruleset
from rules.offers import GM


def state_view(
    state: dict[str, Any],
    ruleset: Ruleset,
    deadlines: Mapping[str, str] | None = None,
    with_offers: bool = True,
) -> dict[str, Any]:
    """The state with `legal_actions` and `offers` per combatant (and the GM's under "gm") and
    `acting_now`; pure. `deadlines` maps a pending reaction's id to its deadline (the server knows it,
    the state does not)."""
    legal = {}
    if ruleset is not None and not state["closed"]:
        for cid in state["combatants"]:
            legal[cid] = ruleset.legal_actions(state, cid)
    dropped = [
        {"item": it["id"], "owner": cid, "at": it.get("at")}
        for cid, c in state["combatants"].items()
        for it in c.get("items", [])
        if it.get("state") == "dropped"
    ]
    view = {
        **state,
        "legal_actions": legal,
        "dropped_items": dropped,
        "acting_now": acting_now_view(state, ruleset, deadlines or {}),
    }
    holds = ruleset.holds(state) if ruleset is not None else []
    if holds:  # absent while none: the views of rulesets without holds, and of old streams, are unchanged
        view["holds"] = holds
    if with_offers:
        view["offers"] = offers_view(state, ruleset, [*state["combatants"], GM])
    return view


def offers_view(
    state: dict[str, Any], ruleset: Ruleset, keys: Iterable[str]
) -> dict[str, list[dict[str, Any]]]:
    """Each key's offers (a combatant id, or "gm" for the GM's steps); none once closed."""
    if ruleset is None or state["closed"]:
        return {}
    return {k: _offers(state, ruleset, k) for k in keys}


_OFFERS: OrderedDict[tuple[Any, ...], list[dict[str, Any]]] = OrderedDict()
_OFFERS_KEPT = 512


def _offers(state: dict[str, Any], ruleset: Ruleset, key: str) -> list[dict[str, Any]]:
    """`ruleset.offers`, remembered by the stream, seq, head hash and voids that fix the state: every offer is
    held to the rules by deciding it (rules/offer_checks.py), and the websocket frame, GET /state and each
    seat's GET /me ask for the same seq in turn."""
    voided = tuple(state.get("voided") or ())  # a void changes what the events before it fold to
    at = (state.get("stream"), state.get("seq"), state.get("hash"), voided, ruleset.id, ruleset.version, key)
    if not at[2]:
        return ruleset.offers(state, key)
    found = _OFFERS.get(at)
    if found is None:
        found = _OFFERS[at] = ruleset.offers(state, key)
        if len(_OFFERS) > _OFFERS_KEPT:
            _OFFERS.popitem(last=False)
    else:
        _OFFERS.move_to_end(at)
    return copy.deepcopy(found)


def acting_now_view(
    state: dict[str, Any], ruleset: Ruleset, deadlines: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The ruleset's `acting_now`, each pending reaction's `until` with its `deadline` (None: no timeout)."""
    if ruleset is None or state["closed"]:
        return []
    out = []
    for e in ruleset.acting_now(state):
        if e.get("reaction") is not None:
            e = {
                **e,
                "until": {
                    **(e.get("until") or {"kind": "reaction", "text": "until it is answered"}),
                    "deadline": deadlines.get(e["reaction"]),
                },
            }
        out.append(e)
    return out
