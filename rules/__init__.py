"""Rulesets: one package per ruleset, plugged in through the `tussle.rulesets` entry-point group."""
