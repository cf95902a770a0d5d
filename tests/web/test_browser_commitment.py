"""Issue 25 item 2 in the browser: the page binds each command to the commitment it saw, and when the
operator holds the request and rotates the seed before letting it through, the page says nothing was
rolled, never sends it again on its own, and keeps the refusal in its sent record."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.web.test_browser_play import open_action, send

pytestmark = pytest.mark.browser

MOVED = "the dice seed was rotated after you sent this; nothing was rolled"


def test_a_held_and_rotated_command_is_refused_and_the_page_says_nothing_was_rolled(
    served, api, open_page, tmp_path
):
    enc = api.ok("POST", "/encounters", {"name": "Held", "ruleset": "freeform"})
    watched = open_page(f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}")
    p = watched.page
    p.locator("#connection.live").wait_for()
    posted: list[dict] = []
    p.on(
        "request",
        lambda r: (
            posted.append(json.loads(r.post_data))
            if r.method == "POST" and r.url.endswith("/commands")
            else None
        ),
    )
    form = open_action(p, "gm:roll")
    form.locator("[name=expression]").fill("1d100")
    send(form)
    assert posted[-1]["expected_commitment"] == enc["commitment"]
    assert len(posted[-1]["entropy"]) >= 16 and posted[-1]["command_id"].startswith("web-")

    # The operator holds the next request, rotates the seed until the outcome would suit, lets it through.
    def hold_and_rotate(route):
        api.command(enc, "rotate_seed")
        route.continue_()

    p.route("**/commands", hold_and_rotate)
    head = api.ok("GET", f"/encounters/{enc['id']}", token=enc["gm_token"])["seq"]
    form = open_action(p, "gm:roll")
    form.locator("[name=expression]").fill("1d100")
    said = send(form, expect=MOVED)
    p.unroute("**/commands")
    assert (
        api.ok("GET", f"/encounters/{enc['id']}", token=enc["gm_token"])["seq"] == head + 1
    )  # the rotation only: nothing rolled
    refused = [b for b in posted if b.get("expression") == "1d100"]
    assert len(refused) == 2, posted  # the accepted one and the refused one: no re-send with fresh inputs
    record = p.evaluate(f"() => JSON.parse(localStorage.getItem('tussle-sent:{enc['id']}'))")
    assert [r.get("refused", {}).get("code") for r in record] == [None, "commitment_moved"], record
    assert record[1]["command_id"] == refused[1]["command_id"] and record[0]["seq"] and "hash" in record[0]
    assert MOVED in said
    # The record, saved from the page, is the player's file for tussle verify --sent: the rotation that
    # refused the held command is named at its seq.
    with p.expect_download() as saved:
        p.locator("#save-sent").click()
    sent_file = tmp_path / "sent.jsonl"
    saved.value.save_as(sent_file)
    assert [json.loads(line)["command_id"] for line in sent_file.read_text().splitlines()] == [
        r["command_id"] for r in record
    ]
    api.command(enc, "close")
    _, raw = api.call(
        "GET", f"/encounters/{enc['id']}/events", token=enc["gm_token"], accept="application/x-ndjson"
    )
    export = tmp_path / "export.jsonl"
    export.write_bytes(raw)
    out = subprocess.run(
        [sys.executable, "-m", "server.cli", "verify", str(export), "--sent", str(sent_file), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    report = json.loads(out.stdout)
    assert [(x["kind"], x["seq"]) for x in report["problems"]] == [("commitment_moved", head + 1)], report
    assert watched.script_errors(allow_status=(409,)) == []
