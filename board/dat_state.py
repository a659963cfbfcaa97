"""What a post needs to know of its thread's dat — how many lines it holds and its first line (the
title, the starter's ID) — kept between posts instead of reading the whole dat three times a post.

The file stays the truth: a state is used only while the dat on disk is the one it was taken from,
told by inode, size and modification time (as board.subject_index tells subject.txt). Every writer of
a dat appends (the size grows) or replaces the file (a new inode), so a change by another process —
`threadgm board-admin` deleting a post, a second server — is always seen and the dat read again.
Writers hold the board's lock; a state is immutable and swapped whole, so a reader without the lock
sees the dat before or after a post.
"""

from __future__ import annotations

import os
import stat
from typing import NamedTuple

Signature = tuple[int, int, int]  # inode, size, mtime in ns


class DatState(NamedTuple):  # one a post: a NamedTuple costs a third of a frozen dataclass
    signature: Signature
    count: int  # lines (`\n`), as the post numbers count them
    first_line: bytes  # without its `\n`

    @property
    def size(self) -> int:
        return self.signature[1]


def _signature(status: os.stat_result) -> Signature:
    return (status.st_ino, status.st_size, status.st_mtime_ns)


class DatStates:
    """The states of one board's dats, by thread key."""

    def __init__(self) -> None:
        self._states: dict[str, DatState] = {}

    def get(self, key: str, path: str) -> DatState:
        """The dat's state now; FileNotFoundError when there is no such regular file."""
        status = os.stat(path)
        if not stat.S_ISREG(status.st_mode):
            raise FileNotFoundError(path)
        known = self._states.get(key)
        if known is not None and known.signature == _signature(status):
            return known
        with open(path, "rb") as dat:
            # The signature of the very bytes read, should another process write meanwhile.
            signature = _signature(os.fstat(dat.fileno()))
            data = dat.read()
        state = DatState(signature, data.count(b"\n"), data.split(b"\n", 1)[0])
        self._states[key] = state
        return state

    def append(self, key: str, path: str, data: bytes, before: DatState | None = None) -> DatState:
        """Append `data` (whole lines) in one write and return the dat's state after it. The caller
        holds the board's lock, so nobody writes between the state read (or `before`, the state it
        checked under that lock) and the write."""
        if before is None:
            before = self.get(key, path)
        dat = os.open(path, os.O_WRONLY | os.O_APPEND)
        try:
            rest = memoryview(data)
            while rest:  # a full disk raises here, as a buffered write would
                rest = rest[os.write(dat, rest) :]
            signature = _signature(os.fstat(dat))
        finally:
            os.close(dat)
        if before.count == 0:  # the first line was empty or unfinished: read it from the file
            self._states.pop(key, None)
            return self.get(key, path)
        state = DatState(signature, before.count + data.count(b"\n"), before.first_line)
        self._states[key] = state
        return state

    def known(self, key: str) -> DatState | None:
        """The state last taken, unchecked (for a caller that knows nobody wrote since)."""
        return self._states.get(key)

    def forget(self, key: str) -> None:
        self._states.pop(key, None)
