"""Writing to boards: `Report` to markup, write adapters, the exactly-once outbox, back-off."""
