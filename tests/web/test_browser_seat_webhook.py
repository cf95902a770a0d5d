"""What a player met adding a webhook for their own seat's notices at the page, on a phone (390x844):
once they had played a turn, the page's own check of what this browser sent turned red, "FAILED at seq 6:
command "srv-…" (WebhookCreated) is in the name of your seat "seat-1", but none of your sent records holds
it", blaming the server for a forgery the player had made themselves. The page now sends the webhook with a
command id of its own and keeps it in the sent record (before it goes), as it does every other command.
"""

from __future__ import annotations

import pytest

from tests.web.conftest import Api
from tests.web.test_browser_webhooks import DiscordLike, hooks_served, receivers  # noqa: F401 - fixtures

pytestmark = pytest.mark.browser

SIMETH = {
    "id": "simeth",
    "name": "Simeth",
    "side": "heroes",
    "position": [0, 0],
    "facing": 0,
    "stats": {"st": 12, "adj_dx": 12, "ma": 12},
}


def _alice_with_a_webhook(hooks_served, receivers, open_page):  # noqa: F811
    """Alice's page (390x844) in a TFT encounter, having added a webhook for her seat's notices there."""
    api = Api(hooks_served.url)
    bot = DiscordLike()
    receivers.append(bot)
    enc = api.ok("POST", "/encounters", {"name": "Bridge", "ruleset": "tft"})
    api.command(enc, "add_combatant", combatant=SIMETH)
    seat = api.ok(
        "POST", f"/encounters/{enc['id']}/seats", {"name": "Alice", "combatants": ["simeth"]}, enc["gm_token"]
    )
    a = open_page(
        f"{hooks_served.url}/encounters/{enc['id']}/view#token={seat['token']}", width=390, height=844
    ).page
    a.locator("#connection.live").wait_for()
    a.locator("#webhook-url").fill(bot.url)
    a.get_by_role("button", name="Add webhook").click()
    a.locator("#webhooks", has_text="Webhook to 127.0.0.1 added").wait_for()
    return api, enc, a


def _plays_on_and_her_check_holds(a) -> None:
    """A command of the player's own afterwards: the sent record now names the seat, so every command in
    its name is looked for in it, the webhook's operations included."""
    a.locator("summary", has_text="Write a note in the log").click()
    note = a.locator("form[data-type=note]")
    note.locator("input[name=text]").fill("Simeth watches the bridge.")
    note.locator("button[type=submit]").click()
    a.get_by_text("Simeth watches the bridge.").first.wait_for()
    chain = a.locator("#chain")
    chain.locator("[data-chain]").first.wait_for()
    a.wait_for_timeout(500)  # the chain's line is drawn again as the note's events arrive
    assert chain.locator('[data-chain="ok"]').count() == 1, chain.inner_text()
    assert "none of your sent records" not in chain.inner_text()


def test_a_players_own_webhook_is_not_called_forged_by_their_page(hooks_served, receivers, open_page):  # noqa: F811
    _, _, a = _alice_with_a_webhook(hooks_served, receivers, open_page)
    _plays_on_and_her_check_holds(a)


def test_a_players_new_secret_and_removal_are_not_called_forged_either(hooks_served, receivers, open_page):  # noqa: F811
    """The same for the webhook's other operations the stream records in the seat's name: its new secret
    (WebhookSecretRotated) and its removal (WebhookDeleted) went with ids the server made up, which the
    page could not keep; they now take the page's own command_id (a POST's body, a DELETE's query)."""
    api, enc, a = _alice_with_a_webhook(hooks_served, receivers, open_page)
    a.locator("#webhooks-list").get_by_role("button", name="New secret").click()
    a.locator("#webhooks", has_text="New secret made").wait_for()
    a.once("dialog", lambda d: d.accept())
    a.locator("#webhooks-list").get_by_role("button", name="Remove").click()
    a.locator("#webhooks", has_text="removed").wait_for()
    types = [
        e["type"] for e in api.ok("GET", f"/encounters/{enc['id']}/events", token=enc["gm_token"])["events"]
    ]
    assert "WebhookSecretRotated" in types and "WebhookDeleted" in types, types
    _plays_on_and_her_check_holds(a)
