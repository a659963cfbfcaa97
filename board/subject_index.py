"""subject.txt kept in memory: a post moves one entry instead of re-reading and re-parsing the list.

The file stays the truth and stays byte for byte what it was: the index is read from it on first use
and whenever the file on disk is not the one this index last read or wrote — told by its inode,
size and modification time (every writer replaces the file, so a change by another process such as
`threadgm board-admin` always brings a new inode). Writers hold the board's lock (`Board.locked`),
so between our stat and our replace nobody else writes; readers (the index page, the したらば
subject) take a snapshot that is swapped whole, never mutated, so a thread serving a page while
another posts sees the list before or after the post, never half of it.

Lines are kept encoded: CP932 with numeric references is encoded character by character, so the
join of the encoded lines is exactly the encoding of the joined text that was written before.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

from board.cp932 import dat_lines, decode, encode

THREAD_KEY = re.compile(r"^[0-9]{9,12}$")

Signature = tuple[int, int, int] | None  # (inode, size, mtime in ns) of subject.txt; None: no file


class ThreadEntry(NamedTuple):  # one a post: a NamedTuple costs a third of a frozen dataclass
    """One line of subject.txt."""

    key: str
    title: str  # as stored: HTML-escaped like every dat field
    count: int

    def line(self) -> str:
        return f"{self.key}.dat<>{self.title} ({self.count})\n"


class _Snapshot(NamedTuple):
    signature: Signature
    keys: tuple[str, ...]
    entries: tuple[ThreadEntry, ...]
    lines: tuple[bytes, ...]


def parse(data: bytes) -> list[ThreadEntry]:
    """The entries of subject.txt; a line that is not `KEY.dat<>TITLE (COUNT)` is skipped."""
    entries = []
    for line in dat_lines(decode(data)):
        head, sep, rest = line.partition(".dat<>")
        title, _, count = rest.rpartition(" (")
        count = count.rstrip(")")
        if sep and THREAD_KEY.match(head) and count.isdigit():
            entries.append(ThreadEntry(head, title, int(count)))
    return entries


class SubjectIndex:
    """The thread list of one board, most recently aged first, as subject.txt holds it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = str(path)  # a post stats, writes and replaces it: a Path's str() each time costs
        self._snapshot: _Snapshot | None = None

    def entries(self) -> list[ThreadEntry]:
        return list(self._current().entries)

    def touch(self, entry: ThreadEntry, *, age: bool) -> None:
        """Put `entry` in place of its thread's line (to the top when aged or new) and write the file.

        The caller holds the board's lock.
        """
        current = self._current()
        keys, entries, lines = list(current.keys), list(current.entries), list(current.lines)
        try:
            position: int | None = keys.index(entry.key)
        except ValueError:
            position = None
        if position is not None:
            del keys[position], entries[position], lines[position]
        at = 0 if age or position is None else position
        keys.insert(at, entry.key)
        entries.insert(at, entry)
        lines.insert(at, encode(entry.line()))
        tmp = f"{self._file}.tmp"
        data = memoryview(b"".join(lines))
        out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        try:
            while data:
                data = data[os.write(out, data) :]
            signature = _signature(os.fstat(out))  # a rename keeps inode, size and mtime
        finally:
            os.close(out)
        os.replace(tmp, self._file)
        self._snapshot = _Snapshot(signature, tuple(keys), tuple(entries), tuple(lines))

    def _current(self) -> _Snapshot:
        snapshot = self._snapshot
        try:
            signature = _signature(os.stat(self._file))
        except FileNotFoundError:
            signature = None
        if snapshot is not None and snapshot.signature == signature:
            return snapshot
        snapshot = self._load()
        self._snapshot = snapshot
        return snapshot

    def _load(self) -> _Snapshot:
        try:
            with self.path.open("rb") as file:
                # The signature of the very file read, should another process replace it meanwhile.
                signature = _signature(os.fstat(file.fileno()))
                data = file.read()
        except FileNotFoundError:
            return _Snapshot(None, (), (), ())
        entries = parse(data)
        return _Snapshot(
            signature,
            tuple(entry.key for entry in entries),
            tuple(entries),
            tuple(encode(entry.line()) for entry in entries),
        )


def _signature(stat: os.stat_result) -> Signature:
    return (stat.st_ino, stat.st_size, stat.st_mtime_ns)
