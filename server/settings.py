"""The server's one configuration: `Settings`, built once by the CLI from its flags and the environment
(server/cli.py `settings_from`) and handed to `make_app`, which passes each part explicitly to what uses
it. No module reads the environment or a settings dict for itself.

The defaults are make_app's (a test's server): API.md's limits, but no request rates; `tussle serve`'s
flags give API.md's rates too.

Not settings: the keys (TUSSLE_SEED_KEY, TUSSLE_RECEIPT_KEYS), secrets a store reads beside its
database when it opens (events/store/seed_key.py, receipt_key.py), so they never sit in an object that
is passed around, compared or printed; and TUSSLE_EXTRA_RULESETS, which ruleset discovery reads
(rules/registry.py).
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.dice_expressions import MAX_DICE, MAX_SIDES, RollLimits
from server.encounters.encounter_cache import DEFAULT_CAPACITY
from server.encounters.snapshots import SNAPSHOT_EVERY


class WebhookSettings(msgspec.Struct, frozen=True):
    """The webhook dispatcher's knobs (server/webhooks/dispatcher.py; tests shorten the schedule)."""

    allow_private: bool = False  # let webhooks reach loopback, private and link-local addresses
    retry_base_s: float = 5.0  # the first retry comes after about this long, then twice as long each time
    retry_cap_s: float = 3600.0  # never longer between tries
    give_up_s: float = 86400.0  # an endpoint failing this long is disabled
    connect_timeout_s: float = 5.0
    read_timeout_s: float = 10.0
    lease_s: float = 60.0  # longer than one try can take (the timeouts above)
    poll_s: float = 1.0  # how often the outbox is looked at when nothing woke the dispatcher
    concurrency: int = 50  # endpoints sent to at once
    batch: int = 20  # deliveries read per endpoint at a time


class WebsocketSettings(msgspec.Struct, frozen=True):
    """The websockets' limits and timers (server/live/websocket.py)."""

    queue_frames: int = 4096
    # Per connection: what waits for its socket (live frames, or held during catch-up); a catch-up
    # page is a quarter of it. A lone frame larger than this (a big snapshot) still goes out.
    queue_bytes: int = 1024 * 1024
    send_timeout_s: float = 10.0  # a socket that takes none of a frame for this long is lagging
    ping_s: float = 25.0
    auth_timeout_s: float = 5.0
    close_timeout_s: float = 10.0
    max_message: int = 64 * 1024


class DiscordSettings(msgspec.Struct, frozen=True):
    """Discord's interactions endpoint (server/discord/, docs/discord.md): off without a public key."""

    public_key: str | None = None  # the application's, hex: every interaction's signature is checked with it
    application_id: str | None = None
    api_base: str = "https://discord.com/api/v10"  # where follow-ups go (tests: a local receiver)
    defer_after_s: float = 2.0  # work not done by then is deferred (Discord waits 3 s for an answer)


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the app is configured with (API.md "Limits" for the limits)."""

    admin_token: str | None = None  # --admin-token or TUSSLE_ADMIN_TOKEN: only the admin creates
    max_body: int = 256 * 1024
    # A connection must send a request's headers this soon after it opens or after its previous
    # answer (it is closed otherwise: slowloris), and a request's body must arrive whole this soon
    # after its headers (else 408 and the connection closed). docs/deploy.md "Slow clients".
    header_timeout_s: float = 20.0
    body_timeout_s: float = 60.0
    max_events: int = 1000  # most events one command may append
    max_dice: int = MAX_DICE  # most dice in one roll command
    max_sides: int = MAX_SIDES  # largest die of a roll command
    max_ws: int = 100  # open websockets per token (per IP when anonymous); 0: no cap
    cache_encounters: int = DEFAULT_CAPACITY
    snapshot_every: int = SNAPSHOT_EVERY
    rate_commands: float | None = None  # per second per token; None or 0: unlimited
    rate_reads: float | None = None
    rate_burst: float = 2.0
    cors_origins: tuple[str, ...] = ()
    trusted_proxies: tuple[str, ...] = ()
    public_url: str | None = None  # the server's address as people reach it, for links in notices
    timeout_poll_s: float = 1.0  # how often overdue reactions are looked for
    loop_probe: str | None = None  # TUSSLE_LOOP_PROBE: "1" measures the loop's slices, "trace" also debugs
    webhooks: WebhookSettings = WebhookSettings()
    ws: WebsocketSettings = WebsocketSettings()
    discord: DiscordSettings = DiscordSettings()

    @property
    def roll_limits(self) -> RollLimits:
        return RollLimits(self.max_dice, self.max_sides)

    def with_changes(self, **changes: Any) -> Settings:
        """These settings with some changed, by field name; `ws_<field>` and `webhook_allow_private`
        name a websocket field, `discord_<field>` a Discord one, and the webhooks' `allow_private` (the spelling of the serve flags).
        An unknown name is a TypeError."""
        ws = {k[3:]: changes.pop(k) for k in [k for k in changes if k.startswith("ws_")]}
        discord = {k[8:]: changes.pop(k) for k in [k for k in changes if k.startswith("discord_")]}
        webhooks = self.webhooks if "webhooks" not in changes else changes.pop("webhooks")
        if changes.pop("webhook_allow_private", False):
            webhooks = msgspec.structs.replace(webhooks, allow_private=True)
        for name in ("cors_origins", "trusted_proxies"):
            if name in changes:
                changes[name] = tuple(changes[name] or ())
        return msgspec.structs.replace(
            self,
            webhooks=webhooks,
            ws=msgspec.structs.replace(self.ws, **ws),
            discord=msgspec.structs.replace(self.discord, **discord),
            **changes,
        )
