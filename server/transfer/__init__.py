"""Moving encounters in and out: `tussle export` (JSON lines, forum posts) and `tussle import`."""
