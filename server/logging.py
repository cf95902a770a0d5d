"""structlog as JSON lines on stderr; never a token, a seed or a query string.

The standard library's loggers (aiohttp's server errors, asyncio) are rendered as the same JSON lines,
so an operator's log shipper sees one format; aiohttp's access log is off (the server passes
`access_log=None`, and `server/request_log.py` logs each request by its path only).
"""

from __future__ import annotations

import logging
import sys

import structlog


def configure_logging(level: int = logging.INFO) -> None:
    """JSON logs with ISO timestamps on stderr, for structlog and the standard library alike."""
    shared = [structlog.processors.add_log_level, structlog.processors.TimeStamper(fmt="iso", utc=True)]
    structlog.configure(
        processors=[*shared, structlog.processors.format_exc_info, structlog.processors.JSONRenderer()],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=[*shared, structlog.stdlib.add_logger_name],
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, structlog.processors.format_exc_info,
                    structlog.processors.JSONRenderer()]))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(max(level, logging.WARNING))
    logging.getLogger("aiohttp.access").disabled = True
