"""What threadgm computes away from the bot, on the very functions the bot runs: one period
adjudicated from a scenario and an orders file, and a thread verified from its posts alone.

| module | holds |
|---|---|
| `adjudicate.py` | one period of any game from a state, orders and the published random numbers |
| `verify.py` | every roll of a thread recomputed from the thread (`verify_thread`) |
| `steps.py` | an immediate game's steps replayed through the referee and compared |
"""
