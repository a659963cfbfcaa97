"""Crash tests: `threadgm run` killed with SIGKILL at the worst moments leaves exactly one answer,
with the same numbers, after it is started again.

The board sits behind a scripted server that holds the bot's POST — before the board sees it (the
answer is stored but not sent), or after the board wrote it but before the answer page goes back
(sent, not yet marked) — while the test kills the bot.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from werkzeug.wrappers import Response

from tests.bot_harness import BOT_TRIP, ROOT, LocalBoard, check_dice_line, write_config

# The time a post unconfirmed at a crash is given to land before it is judged lost, in these bots:
# the production 20 s (LANDING_TIME) made each test wait 20 s for nothing but the clock. The bots are the
# real `threadgm run`, with only this constant set before it starts.
LANDING = 3
BOT = (
    "import sys; from datetime import timedelta; import poster.outbox; "
    f"poster.outbox.LANDING_TIME = timedelta(seconds={LANDING}); "
    "from scheduler import main; main(sys.argv[1:], prog_name='threadgm')"
)


def start_bot(config: Path, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", BOT, "run", str(config)],
        cwd=ROOT,
        stdout=log.open("a"),
        stderr=subprocess.STDOUT,
    )


def finish(bot: subprocess.Popen) -> None:
    """Stop the bot as a service manager would — SIGTERM, then SIGKILL if it does not go: never leak it."""
    bot.send_signal(signal.SIGTERM)
    try:
        bot.wait(15)
    except subprocess.TimeoutExpired:
        bot.kill()
        bot.wait()


def form_of(request) -> dict[str, str]:
    return dict(parse_qsl(request.get_data().decode("ascii"), encoding="cp932"))


def from_bot(request) -> bool:
    return "#threadgm-test-bot" in form_of(request).get("FROM", "")


@pytest.mark.parametrize("moment", ["stored_not_sent", "sent_not_marked"])
def test_sigkill_leaves_exactly_one_answer_with_the_same_numbers(
    board: LocalBoard, tmp_path: Path, moment: str
) -> None:
    config = write_config(
        tmp_path / "bot.toml", tmp_path / "bot.sqlite", board.url(), poll_seconds=0.5, idle_seconds=0.5
    )
    log = tmp_path / "bot.log"
    bot = start_bot(config, log)
    try:
        board.wait_for(lambda: any(p.trip == BOT_TRIP for p in board.posts()), timeout=20)

        held = threading.Event()
        release = threading.Event()
        seen: list[str] = []

        def hold(request, forward) -> Response:
            seen.append(form_of(request)["MESSAGE"])
            answer = forward() if moment == "sent_not_marked" else Response(b"", status=503)
            held.set()
            release.wait(10)
            return answer

        # the answer's POST (and only it) is held; the confirmation page came and went with the first post
        board.script.script("POST", "/test/bbs.cgi", hold, when=from_bot)
        number = board.post("dice3d6=\n2D6")
        assert held.wait(15), log.read_text()
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait(10)
        release.set()
        landed = board.replies_to(number)
        assert len(landed) == (1 if moment == "sent_not_marked" else 0)

        bot = start_bot(config, log)
        # a post unconfirmed at the crash is judged lost only LANDING after it left
        board.wait_for(lambda: board.replies_to(number), timeout=LANDING + 25)
        board.wait_polls(3)  # several more polls: nothing is sent twice
    finally:
        finish(bot)

    replies = board.replies_to(number)
    assert len(replies) == 1, replies
    assert replies[0] == seen[0].replace("\r\n", "\n")  # the numbers of the first attempt
    check_dice_line(replies[0].split("\n")[1], 3, 6)
    assert bot.returncode == 0, log.read_text()
    text = log.read_text()
    if moment == "sent_not_marked":
        assert "had landed" in text and "not sent again" in text
    else:
        assert "did not land; it will be sent again" in text
