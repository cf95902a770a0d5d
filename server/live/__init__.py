"""Live feeds: in-process fan-out, the websocket and its hubs, the PostgreSQL listener."""
