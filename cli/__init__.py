"""The command line, on top of everything else: click commands built over the registry, the
configuration loader and the concrete parts the composition root (`scheduler.py`) hands them. No
module below imports this package or click; a command turns the errors of the parts into click's.

| module | holds |
|---|---|
| `tools.py` | adjudicate, simulate, help, import-character, new, roll, verify |
| `web.py` | picture and export (the game page's picture, the history as wiki markup) |
| `bot.py` | run, reveal, demo, and the configuration checked against the registry |
"""
