"""Boards kept on disk, laid out like a 2ch server's document root:

    DATA/NAME/SETTING.TXT        settings (CP932)
    DATA/NAME/subject.txt        thread list, most recently aged first (CP932)
    DATA/NAME/dat/KEY.dat        one file per thread (CP932), served as a static file
    DATA/NAME/board.json         what only the server knows: the ID secret, stopped threads

Every change to a board happens under its lock (a thread lock plus an flock on DATA/NAME/.lock, so
`threadgm board-admin` in another process is safe against a running server; the lock file stays open
while the board is); a dat only ever grows by whole lines appended in one write, except for a
deletion, which replaces the file atomically. subject.txt (`board.subject_index`) and each dat's line
count and first line (`board.dat_state`) are held in memory between posts, read again whenever
another process has changed the file.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import secrets
import threading
import weakref
from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager
from functools import lru_cache
from pathlib import Path

from board import settings as setting_file
from board.cp932 import ENCODING, dat_lines, decode, encode
from board.dat import DatPost, abone, parse_line
from board.dat_state import DatState, DatStates
from board.subject_index import THREAD_KEY, SubjectIndex, ThreadEntry

__all__ = [
    "ENCODING",
    "THREAD_KEY",
    "Board",
    "BoardNotFound",
    "BoardStore",
    "ThreadEntry",
    "dat_lines",
    "decode",
    "encode",
]

BOARD_NAME = re.compile(r"^[A-Za-z0-9_]{1,32}$")


class BoardNotFound(LookupError):
    pass


class Board:
    def __init__(self, root: Path) -> None:
        self.path = root
        self.name = root.name
        self._lock = threading.RLock()
        self._lock_depth = 0
        self._lock_fd: int | None = None
        # While a thread holds the lock nobody else writes the board, so a file checked against the
        # disk once in that hold (a dat, SETTING.TXT, board.json) needs no stat again until release.
        self._holder: int | None = None
        self._checked: set[str] = set()
        self._hold = _Hold(self)
        # Paths as strings: a post looks at several files, and a Path join costs more than the stat.
        self._settings_path = str(root / "SETTING.TXT")
        self._meta_path = str(root / "board.json")
        self._dat_dir = str(root / "dat")
        self._settings: tuple[int, setting_file.Settings] | None = None
        self._meta_cache: tuple[int, dict] | None = None
        self._subject = SubjectIndex(root / "subject.txt")
        self._dats = DatStates()

    def locked(self) -> AbstractContextManager[None]:
        """Hold the board (re-entrant within a thread, exclusive across threads and processes)."""
        return self._hold

    def _acquire(self) -> None:
        self._lock.acquire()
        try:
            if self._lock_depth == 0:
                fcntl.flock(self._lock_file(), fcntl.LOCK_EX)
                self._holder = threading.get_ident()
        except BaseException:
            self._lock.release()
            raise
        self._lock_depth += 1

    def _release(self) -> None:
        try:
            self._lock_depth -= 1
            if self._lock_depth == 0:
                self._holder = None
                self._checked.clear()
                fcntl.flock(self._lock_file(), fcntl.LOCK_UN)
        finally:
            self._lock.release()

    def _held(self, name: str) -> bool:
        """`name` was checked against the disk in the lock hold of the calling thread; from now on
        it is (returns False, and remembers it, when not yet)."""
        if self._holder != threading.get_ident():
            return False
        if name in self._checked:
            return True
        self._checked.add(name)
        return False

    def _lock_file(self) -> int:
        if self._lock_fd is None:
            fd = os.open(self.path / ".lock", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
            weakref.finalize(self, os.close, fd)
            self._lock_fd = fd
        return self._lock_fd

    # -- settings and server-side state ------------------------------------------------------

    @property
    def settings(self) -> setting_file.Settings:
        """SETTING.TXT, re-read whenever the file changes (an admin may edit it while serving)."""
        if self._held("SETTING.TXT") and self._settings is not None:
            return self._settings[1]
        mtime = os.stat(self._settings_path).st_mtime_ns
        if self._settings is None or self._settings[0] != mtime:
            self._settings = (mtime, setting_file.load(Path(self._settings_path)))
        return self._settings[1]

    def update_settings(self, changes: Mapping[str, str]) -> None:
        with self.locked():
            values = dict(self.settings.values)
            values.update(changes)
            setting_file.save(self.path / "SETTING.TXT", values)
            self._settings = None

    @property
    def secret(self) -> bytes:
        return bytes.fromhex(self._meta()["secret"])

    def is_stopped(self, key: str) -> bool:
        return key in self._meta()["stopped"]

    def stop(self, key: str) -> None:
        with self.locked():
            meta = self._meta()
            if key not in meta["stopped"]:
                meta["stopped"].append(key)
                _write_meta(self.path, meta)

    def _meta(self) -> dict:
        """board.json, re-read when another process (board-admin) has changed it."""
        if self._held("board.json") and self._meta_cache is not None:
            return self._meta_cache[1]
        mtime = os.stat(self._meta_path).st_mtime_ns
        if self._meta_cache is None or self._meta_cache[0] != mtime:
            with open(self._meta_path, encoding="utf-8") as meta:
                self._meta_cache = (mtime, json.load(meta))
        return self._meta_cache[1]

    # -- threads -----------------------------------------------------------------------------

    def dat_path(self, key: str) -> Path:
        if not THREAD_KEY.match(key):
            raise BoardNotFound(key)
        return self.path / "dat" / f"{key}.dat"

    def _dat_file(self, key: str) -> str:
        if not THREAD_KEY.match(key):
            raise BoardNotFound(key)
        return f"{self._dat_dir}/{key}.dat"

    def exists(self, key: str) -> bool:
        return THREAD_KEY.match(key) is not None and os.path.isfile(self._dat_file(key))

    def dat_state(self, key: str) -> DatState:
        """The thread's line count, size and first line (BoardNotFound: no such thread)."""
        path = self._dat_file(key)
        known = self._dats.known(key) if self._held(path) else None
        if known is not None:
            return known
        try:
            return self._dats.get(key, path)
        except FileNotFoundError:
            self._checked.discard(path)
            raise BoardNotFound(key) from None

    def posts(self, key: str) -> list[DatPost]:
        """Every line of a thread, numbered from 1 by position (deleted posts included)."""
        try:
            data = self.dat_path(key).read_bytes()
        except (FileNotFoundError, BoardNotFound):
            raise BoardNotFound(key) from None
        return [parse_line(line) for line in dat_lines(decode(data))]

    def first_post(self, key: str) -> DatPost:
        """Post 1 of a thread (its title, its starter's ID), read without the rest of the dat."""
        return _first_post(self.dat_state(key).first_line)

    def count(self, key: str) -> int:
        """The thread's lines (BoardNotFound: no such thread)."""
        return self.dat_state(key).count

    def threads(self) -> list[ThreadEntry]:
        """subject.txt as entries, most recently aged first."""
        return self._subject.entries()

    def append(self, key: str, post: DatPost, *, age: bool, extra: Iterable[DatPost] = ()) -> int:
        """Append a post (and any lines the server adds after it); return the post's number."""
        with self.locked():
            before = self.dat_state(key)
            data = encode(post.line()) + b"".join(encode(line.line()) for line in extra)
            after = self._dats.append(key, self._dat_file(key), data, before)
            number = before.count + 1
            self._touch_subject(key, after.first_line, after.count, age=age)
            return number

    def create_thread(self, first_key: int, post: DatPost) -> str:
        """Open a new thread under the first free key at or after `first_key` (a Unix time)."""
        with self.locked():
            key = first_key
            while self.dat_path(str(key)).exists():
                key += 1
            data = encode(post.line())
            self.dat_path(str(key)).write_bytes(data)
            self._touch_subject(str(key), data, data.count(b"\n"), age=True)
            return str(key)

    def delete_post(self, key: str, number: int) -> None:
        """あぼーん: the line stays (numbering is stable) but every field becomes the delete name."""
        with self.locked():
            *whole, rest = self.dat_path(key).read_bytes().split(b"\n")
            lines = [line + b"\n" for line in whole] + ([rest] if rest else [])
            if not 1 <= number <= len(lines):
                raise IndexError(f"{key} has no post {number}")
            lines[number - 1] = encode(abone(self.settings.get("BBS_DELETE_NAME", "あぼーん")).line())
            self._replace(self.dat_path(key), b"".join(lines))
            self._dats.forget(key)

    def _touch_subject(self, key: str, first_line: bytes, count: int, *, age: bool) -> None:
        """The thread's subject.txt line from its dat's first line (the title) and its line count."""
        self._subject.touch(
            ThreadEntry(key, _first_post(first_line.split(b"\n", 1)[0]).title, count), age=age
        )

    @staticmethod
    def _replace(path: Path, data: bytes) -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)


@lru_cache(maxsize=256)  # a thread's first line never changes: asked at each of its posts, twice
def _first_post(line: bytes) -> DatPost:
    return parse_line(decode(line))


class _Hold:
    """`Board.locked()`: a class, not a generator, as every post takes the lock twice."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __enter__(self) -> None:
        self._board._acquire()

    def __exit__(self, *exc: object) -> None:
        self._board._release()


class BoardStore:
    """The boards under one data directory; a board is created with default settings on first use."""

    def __init__(self, root: Path, *, defaults: Mapping[str, str] | None = None) -> None:
        self.root = root
        self._defaults = dict(setting_file.DEFAULTS, **(defaults or {}))
        self._boards: dict[str, Board] = {}
        self._lock = threading.Lock()

    def open(self, name: str, *, create: bool = False) -> Board:
        if not BOARD_NAME.match(name):
            raise BoardNotFound(name)
        with self._lock:
            if name not in self._boards:
                path = self.root / name
                if not (path / "SETTING.TXT").exists():
                    if not create:
                        raise BoardNotFound(name)
                    self._create(path)
                self._boards[name] = Board(path)
            return self._boards[name]

    def names(self) -> list[str]:
        return sorted(self._boards)

    def _create(self, path: Path) -> None:
        (path / "dat").mkdir(parents=True, exist_ok=True)
        _write_meta(path, {"secret": secrets.token_hex(16), "stopped": []})
        (path / "subject.txt").write_bytes(b"")
        setting_file.save(path / "SETTING.TXT", self._defaults)


def _write_meta(path: Path, meta: dict) -> None:
    # board.json holds the secret behind every poster's ID: for the board's owner alone.
    tmp = path / "board.json.tmp"
    with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w", encoding="utf-8") as out:
        out.write(json.dumps(meta, ensure_ascii=False, indent=1))
    os.chmod(tmp, 0o600)  # a tmp file left by an older board keeps its mode through O_TRUNC
    tmp.replace(path / "board.json")
