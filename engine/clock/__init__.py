"""The game clock: period schedules and their words, numbered periods with the GM's adjustments, the
order lifecycle of games on the clock, and what a GM command does to the clock. Pure: no clock is read.

| module | holds |
|---|---|
| `schedule.py` | the public entry point of the time arithmetic (what the rest of threadgm imports) |
| `words.py` | durations, clock times, moments and weekdays, read and written (NFKC) |
| `grid.py` | a schedule's regular boundaries and options (`parse_schedule`) |
| `period_clock.py` | numbered periods, deadlines and the GM's adjustments folded over them |
| `periods.py` | the orders of a period: parsed, receipted, carried to the deadline |
| `gm_actions.py` | what a GM command decides: the echo, the log entries, the changes |
"""
