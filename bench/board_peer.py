"""A board server in a process of its own, from any checkout of threadgm, and the bench's handle on
it: bench board's posts are measured against the board as it was when issue 30 was filed, in the
same run, each side in its own process with the same client.

    python bench/board_peer.py CHECKOUT DATA

imports `board` from CHECKOUT (nothing else of it: the board package imports only itself), serves
board `bench` of DATA (samba off, no 連投 limit) on a free loopback port and prints the port; then
answers one line on stdout for each line on stdin:

    thread   opens a new thread (through that checkout's own board-admin code); its key
    cpu      this process's CPU seconds so far (every thread of it: waitress's loop and workers)
    times    its user and system (kernel) CPU seconds so far

and stops at the end of stdin. Run from a file path, not `-m`, so nothing of the calling checkout is
on sys.path before CHECKOUT. Under valgrind (`callgrind=True`) the bench asks callgrind for a dump
before and after the posts it counts, so the instructions of exactly those posts are read.
"""

from __future__ import annotations

import io
import re
import resource
import subprocess
import sys
import tarfile
import time
from pathlib import Path

DEFAULTS = {"BBS_SAMBATIME": "0", "timeclose": ""}
ROOT = Path(__file__).resolve().parent.parent


def serve(checkout: str, data: str) -> None:
    sys.path[0] = checkout  # instead of this file's folder
    from board.admin import open_thread
    from board.server import BoardServer, make_app

    root = Path(data)
    with BoardServer(make_app(root, ["bench"], defaults=DEFAULTS)) as server:
        print(server.port, flush=True)
        for command in sys.stdin:
            if command.strip() == "thread":
                answer = open_thread(root, "bench", "書き込みベンチ", "ここに書く")
            elif command.strip() == "cpu":
                answer = repr(time.process_time())
            elif command.strip() == "times":
                used = resource.getrusage(resource.RUSAGE_SELF)  # microseconds, not clock ticks
                answer = f"{used.ru_utime!r} {used.ru_stime!r}"
            else:
                answer = f"unknown command {command.strip()!r}"
            print(answer, flush=True)


def board_at(commit: str, into: Path) -> Path:
    """board/ of `commit` (of this repository) written under `into`; the folder to import it from."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, "board"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


class PeerBoard:
    """One board server process (`checkout`'s board over `data`), driven through its pipe."""

    def __init__(self, checkout: Path, data: Path, *, callgrind: Path | None = None) -> None:
        data.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, __file__, str(checkout), str(data)]
        if callgrind is not None:
            command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={callgrind}", *command]
        self._process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self._callgrind = callgrind
        self.port = int(self._read())

    def _ask(self, command: str) -> str:
        self._process.stdin.write(command + "\n")
        self._process.stdin.flush()
        return self._read()

    def _read(self) -> str:
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"the board process ended (exit {self._process.wait()})")
        return line.strip()

    def new_thread(self) -> str:
        return self._ask("thread")

    def cpu(self) -> float:
        return float(self._ask("cpu"))

    def times(self) -> tuple[float, float]:
        """User and system CPU seconds so far."""
        user, system = self._ask("times").split()
        return float(user), float(system)

    def instructions_since_last_dump(self) -> int:
        """Callgrind's count of instructions since its last dump (or the start), dumped now."""
        assert self._callgrind is not None
        before = set(self._callgrind.parent.glob(self._callgrind.name + "*"))
        subprocess.run(
            ["callgrind_control", "--dump", str(self._process.pid)], capture_output=True, check=True
        )
        (dump,) = set(self._callgrind.parent.glob(self._callgrind.name + "*")) - before
        totals = re.search(rb"^(?:summary|totals): (\d+)", dump.read_bytes(), re.MULTILINE)
        assert totals is not None, dump
        return int(totals.group(1))

    def close(self) -> None:
        self._process.stdin.close()
        try:
            self._process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


if __name__ == "__main__":
    serve(*sys.argv[1:3])
