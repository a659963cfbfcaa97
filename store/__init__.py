"""The SQLite store (through sqlite-utils): the schema and every read and write of it."""
