"""Every kind of service error has its HTTP status in the one table of server/http/errors.py."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from server.encounters import service_errors
from server.http.errors import status_of


def test_every_service_error_kind_maps_to_a_client_status() -> None:
    kinds = [
        k
        for _, k in inspect.getmembers(service_errors, inspect.isclass)
        if issubclass(k, service_errors.ServiceError) and k is not service_errors.ServiceError
    ]
    assert kinds
    for kind in kinds:
        assert 400 <= status_of(kind("x")) < 500, kind


def test_a_rule_refusal_keeps_its_rulesets_code_and_is_422() -> None:
    exc = service_errors.RuleRefusal("not now", {"rule": "B12"}, code="out_of_reach")
    assert (status_of(exc), exc.code, exc.details) == (422, "out_of_reach", {"rule": "B12"})


def test_no_server_module_raises_the_removed_http_error() -> None:
    """ApiError (status, code, ...) is gone: a module still importing it fails only when that path runs."""
    server = Path(__file__).resolve().parent.parent / "server"
    stale = [
        str(p.relative_to(server)) for p in server.rglob("*.py") if re.search(r"\bApiError\b", p.read_text())
    ]  # a word of its own: DiscordApiError (server/discord/followups.py) is another class
    assert not stale, f"use server.encounters.service_errors in {', '.join(stale)}"
