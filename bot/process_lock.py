"""One bot process per database: `threadgm run` (and the demo) hold a lock file beside the database
for as long as they run.

Two processes on one database would poll the same threads and send the same outbox: each would post
what the other already posted, and pace the boards apart. The lock is an advisory `flock` on
`<database>.lock`, taken before the database is opened; the system drops it when the process ends,
however it ends, so a crash leaves nothing to clean up. The file holds the owner's pid, for the
message the second process gives. (The game page's port is guarded by the port itself: a second
listener cannot bind it, and `threadgm run` says so.)
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO


class AlreadyRunning(RuntimeError):
    """Another process runs the bot on this database (the message says which and what to do)."""


def hold(database: Path) -> IO[str]:
    """Take the database's lock for this process; keep the returned file open while running."""
    path = database.with_name(database.name + ".lock")
    handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 — held for the process's life
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        owner = handle.read().strip() or "?"
        handle.close()
        raise AlreadyRunning(
            f"{database} は別の threadgm（pid {owner}）が使っています。同じデータベースで二つ動かすと"
            "同じ答えを二度書き込むため、始めません（止めてから動かすか、[bot] database を別にしてください）"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle
