"""The local board: a 2ch-compatible and したらば-compatible board server kept in plain files.

It is the embedded default board for `make demo` and LAN play, and the faithful double of real
boards in every end-to-end test. It imports nothing else of threadgm.
"""
