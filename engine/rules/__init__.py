"""One module per game ruleset (the BCDice one-file-per-system layout)."""
