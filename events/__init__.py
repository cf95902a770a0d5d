"""Event types, the hash chain, the committed dice and the event stores."""
