"""Operations: metrics, logging, rate limits, CORS, the request log."""
