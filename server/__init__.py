"""The HTTP server, the command pipeline and the CLI."""
