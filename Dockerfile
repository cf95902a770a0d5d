# Tussle: `tussle serve` on a SQLite database kept on a volume.
#
#   docker build -t tussle .
#   docker run -d -p 8080:8080 -v tussle-data:/data -e TUSSLE_ADMIN_TOKEN="$(openssl rand -hex 32)" tussle
#
# The admin token is required: with it the server listens on every address of the container (without
# one it would bind 127.0.0.1 only, unreachable through -p). One container per volume: the database
# file is locked by the server that uses it.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY events ./events
COPY projections ./projections
COPY rules ./rules
COPY server ./server
# GET /docs/{name}.md and /verifying serve them (the pages and every export link there); the sources'
# docs/ is not installed otherwise (server/http/web.py SERVED_DOCS).
COPY docs/notifications.md docs/discord.md docs/websocket.md docs/verifying.md ./server/static/docs/
RUN pip install . \
    && groupadd --system --gid 10001 tussle \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data tussle \
    && mkdir -p /data \
    && chown 10001:10001 /data

# Numeric, so that the host and an orchestrator's runAsNonRoot can check it is not root (hadolint DL3066).
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8080

HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import urllib.request, sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=4).status == 200 else 1)"]

# `exec` so that tussle is PID 1 and gets the stop signal; the check fails fast without a token.
ENTRYPOINT ["/bin/sh", "-c", ": \"${TUSSLE_ADMIN_TOKEN:?set TUSSLE_ADMIN_TOKEN to run tussle in a container}\"; exec tussle serve --db /data/tussle.db --host 0.0.0.0 --port 8080 \"$@\"", "tussle"]
