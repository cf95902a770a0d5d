"""The common commands every ruleset shares (API.md "Commands")."""
