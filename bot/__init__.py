"""The bot at work: one game on its thread (`ThreadBot`), the poll loop over every game (`PollLoop`),
and the process that runs them (`Runner`). Composed by `scheduler.py`; imports every layer but `board`."""
