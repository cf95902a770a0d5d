"""What a ruleset says of itself: its guide (GET /rulesets/{id}), the guides' turns, and GET /rulesets."""
