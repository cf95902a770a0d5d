"""Schemathesis against a live `tussle serve` (rate limits off): every check it has, a bounded few
hundred generated requests, and it must find nothing (issue 12 item 6 and "Done when").

The requests are the GM's, on an encounter with a combatant and a seat, so that they reach the code
behind auth. What a schema cannot say is told to the one check it concerns: `positive_data_acceptance`
also accepts 422 (the rules refuse a well-formed command or seat naming a combatant that is not there)
and, where the document cannot know the encounter, 400 — a command of another ruleset than the
encounter's, options of another ruleset at creation, `at`/`from` beyond the head. Every other check,
and that one everywhere else, is as schemathesis ships it.
"""

from __future__ import annotations

import http.server
import json
import re
import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis  # a test extra: missing, the suite fails rather than skips the fuzzing
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import CHECKS, load_all_checks

from tests.support.serving import ServeProcess

EXAMPLES_PER_OPERATION = 12  # about 35 operations: a few hundred requests, well under a minute
WELL_FORMED = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]
# Operations whose well-formed requests the encounter's ruleset or head may still refuse with a 400.
DEPENDS_ON_THE_ENCOUNTER = [
    "/encounters",
    "/encounters/{id}/commands",
    "/encounters/{id}/events",
    "/encounters/{id}/state",
    "/encounters/{id}/log",
]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    db = str(tmp_path_factory.mktemp("fuzz") / "tussle.db")
    # The webhook routes are fuzzed too, their URLs pointed at a loopback receiver that takes anything.
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Accepting)
    threading.Thread(target=receiver.serve_forever, name="fuzz-receiver", daemon=True).start()
    srv = ServeProcess("--db", db, "--rate-commands", "0", "--rate-reads", "0", "--webhook-allow-private")
    assert srv.port is not None, srv.stderr

    def post(path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        req = urllib.request.Request(
            srv.url + path, data=json.dumps(body).encode(), method="POST", headers=headers
        )
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.load(r)

    enc = post("/encounters", {"name": "Fuzzed", "ruleset": "freeform"})
    post(
        f"/encounters/{enc['id']}/commands",
        {
            "type": "add_combatant",
            "combatant": {"id": "ana", "name": "Ana", "side": "a", "position": [0, 0], "stats": {}},
        },
        enc["gm_token"],
    )
    post(f"/encounters/{enc['id']}/seats", {"name": "Ana's player", "combatants": ["ana"]}, enc["gm_token"])
    enc["receiver"] = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
    try:
        yield srv.url, enc
    finally:
        stderr = srv.stop()
        receiver.shutdown()
        assert "unhandled error" not in stderr, stderr


class _Accepting(http.server.BaseHTTPRequestHandler):
    """A webhook receiver that answers 204 to every delivery."""

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def _config() -> Any:
    accept = {"expected-statuses": WELL_FORMED}
    return schemathesis.config.SchemathesisConfig.from_dict(
        {
            "checks": {"positive_data_acceptance": accept},
            "operations": [
                {
                    "include-path": path,
                    "checks": {"positive_data_acceptance": {"expected-statuses": [*WELL_FORMED, "400"]}},
                }
                for path in DEPENDS_ON_THE_ENCOUNTER
            ],
        }
    )


def test_schemathesis_with_every_check_finds_nothing(live):
    url, enc = live
    schema = schemathesis.openapi.from_url(f"{url}/openapi.json", config=_config())
    load_all_checks()
    checks = CHECKS.get_all()
    auth = {"Authorization": f"Bearer {enc['gm_token']}"}
    found: dict[str, str] = {}
    ran = 0
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy())
        def check(case: Any) -> None:
            nonlocal ran
            ran += 1
            if "id" in (case.path_parameters or {}):
                case.path_parameters["id"] = enc["id"]  # the encounter the GM token is for
            if "webhooks" in case.path and isinstance(case.body, dict) and "url" in case.body:
                case.body["url"] = enc["receiver"]  # a real receiver, so deliveries run too
            case.call_and_validate(headers=auth, checks=checks)

        try:
            check()
        except BaseException as exc:  # noqa: BLE001 - schemathesis raises a FailureGroup; list them all
            if isinstance(exc, KeyboardInterrupt):
                raise
            found[operation.label] = str(exc)[:2000]
    assert ran >= 200, ran
    assert not found, "\n\n".join(f"{label}:\n{text}" for label, text in found.items())


def test_the_document_is_as_strict_as_the_server(live):
    """The places schemathesis found the document looser than the server, said in the document."""
    url, _ = live
    with urllib.request.urlopen(f"{url}/openapi.json", timeout=30) as r:
        doc = json.load(r)
    params = {
        (path, p["name"]): p["schema"]
        for path, ops in doc["paths"].items()
        for op in ops.values()
        for p in op.get("parameters", [])
    }
    assert params[("/encounters/{id}/events", "from")]["minimum"] == 1
    assert params[("/encounters/{id}/events", "limit")] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 10_000,
    }
    assert params[("/encounters/{id}/state", "at")]["minimum"] == 1
    assert params[("/encounters/{id}/log", "at")]["minimum"] == 1
    assert params[("/encounters/{id}/log", "format")]["enum"] == ["json", "markdown", "bbcode"]
    assert params[("/encounters/{id}/seats/{seat}", "seat")]["pattern"] == "^[A-Za-z0-9_.:-]{1,64}$"
    schemas = doc["components"]["schemas"]
    name = schemas["CreateEncounter"]["properties"]["name"]
    assert not re.search(name["pattern"], "") and not re.search(name["pattern"], "   ")
    assert re.search(name["pattern"], "A fight")
    # A command's `type` is its tag (an enum of one); an event envelope's is a const, and carries an actor.
    commands = [s for s in schemas.values() if "enum" in s.get("properties", {}).get("type", {})]
    assert commands and not [s["title"] for s in commands if "actor" in s["properties"]]
