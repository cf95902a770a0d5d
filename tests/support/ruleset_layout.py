"""The modules every ruleset folder has (TEAM.md; docs/rulesets.md "The layout")."""

REQUIRED_MODULES = (
    "__init__.py",
    "commands.py",
    "events.py",
    "state.py",
    "options.py",
    "tables.py",
    "legal.py",
    "describe.py",
    "acting.py",
    "playing.py",
    "NOTES.md",
)
