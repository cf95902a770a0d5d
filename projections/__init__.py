"""Reducers over the event stream: encounter state, narrative log, dice audit."""
