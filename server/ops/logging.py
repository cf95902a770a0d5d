"""structlog as JSON lines on stderr; never a token, a seed or a query string.

The standard library's loggers (aiohttp's server errors, asyncio) are rendered as the same JSON lines,
so an operator's log shipper sees one format; aiohttp's access log is off (the server passes
`access_log=None`, and `server/ops/request_log.py` logs each request by its path only).
"""

from __future__ import annotations

import atexit
import datetime as dt
import logging
import queue
import sys
import threading
import time
from typing import Any, TextIO

import msgspec
import structlog

# How long the log writer lets lines gather after writing a batch (a busy server's lines arrive
# about once a millisecond).
LINGER_S = 0.02


class LineWriter:
    """Writes log lines to a file from a daemon thread, in batches, so that the event loop never
    waits for a write(2) per request (a tenth of a busy server's loop time went there). Lines still
    queued at exit are written by an atexit hook; a killed process may lose the last few."""

    def __init__(self, file: TextIO):
        self.file = file
        self.lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="tussle-log-writer", daemon=True)
        self.thread.start()
        atexit.register(self.close)

    def put(self, line: str) -> None:
        self.lines.put(line)

    def _run(self) -> None:
        while True:
            line = self.lines.get()
            batch = []
            while line is not None:
                batch.append(line)
                try:
                    line = self.lines.get_nowait()
                except queue.Empty:
                    break
            if batch:
                self.file.write("\n".join(batch) + "\n")
                self.file.flush()
            if line is None:
                return
            # Linger before waiting again: a put that finds no waiting thread is an append, while one
            # that wakes this thread makes it fight the event loop for the GIL, once per line.
            time.sleep(LINGER_S)

    def close(self) -> None:
        if self.thread.is_alive():
            self.lines.put(None)
            self.thread.join(timeout=5)


class QueuedLogger:
    """A structlog logger whose every level hands the rendered line to a `LineWriter`."""

    def __init__(self, writer: LineWriter):
        self.writer = writer

    def msg(self, message: str) -> None:
        self.writer.put(message)

    log = debug = info = warn = warning = msg
    fatal = failure = err = error = critical = exception = msg


_writer: LineWriter | None = None


def _queued_logger(*args: Any) -> QueuedLogger:
    global _writer
    if _writer is None:
        _writer = LineWriter(sys.stderr)
    return QueuedLogger(_writer)


def json_line(event_dict: Any, default: Any = None, **_: Any) -> str:
    """The serializer of structlog's JSONRenderer: msgspec rather than json.dumps (a few times quicker,
    and a line is rendered for every request); what msgspec cannot encode goes to `default`, structlog's
    fallback, as it would with json.dumps."""
    return msgspec.json.encode(event_dict, enc_hook=default).decode()


# The level configure_logging set, None before it: `line` then writes lines itself.
_level: int | None = None

_LEVELS = {"info": logging.INFO, "error": logging.ERROR}


def line(level: str, event: str, fields: dict[str, Any]) -> None:
    """Log one line exactly as structlog renders it once configure_logging ran (the fields, then event,
    level and timestamp), without running its processor chain: the request log writes a line per
    request, and the chain cost a fifteenth of a command's time. Elsewhere (tests, a library user who
    set up structlog) it goes through structlog."""
    if _level is None:
        getattr(structlog.get_logger("tussle.request"), level)(event, **fields)
        return
    if _LEVELS[level] < _level:
        return
    fields["event"] = event
    fields["level"] = level
    fields["timestamp"] = dt.datetime.now(tz=dt.UTC).isoformat().replace("+00:00", "Z")  # as TimeStamper
    (_writer or _queued_logger().writer).put(json_line(fields))


def configure_logging(level: int = logging.INFO) -> None:
    """JSON logs with ISO timestamps on stderr, for structlog and the standard library alike."""
    global _level
    _level = level
    shared: list[Any] = [
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    structlog.configure(
        processors=[
            *shared,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(serializer=json_line),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=_queued_logger,
        cache_logger_on_first_use=True,  # else every log call binds a new logger
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[*shared, structlog.stdlib.add_logger_name],
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                structlog.processors.JSONRenderer(serializer=json_line),
            ],
        )
    )
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(max(level, logging.WARNING))
    logging.getLogger("aiohttp.access").disabled = True
