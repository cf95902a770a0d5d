"""Play from Discord (docs/discord.md): the interactions endpoint, its commands and buttons.

One idea per module: `signature` (Discord's Ed25519 signature of each request), `interactions` (the
endpoint and what each command does), `components` (offers as buttons and menus within Discord's
limits), `binding` (one-time codes, bound channels, linked seats), `followups` (the client of Discord's
API: follow-ups, 429s) and `register` (`tussle discord register`).
"""
