"""A property every game the suite plays must keep: no post the bot writes shows players the inside of
the program — a Python value (`None`, `True`, a dict or list repr, an object repr, a traceback), a key
of the configuration (`gm_trips`, `poll_seconds`…) or a file path (`../shared/data/x.tsv`,
`scenario.toml`). Watched as each post leaves, like tests/secrets_watch.py; `tests/conftest.py`
installs it for every test.

Not watched: the `設定` paths a GM types (`scores.アリス`), which HELP names on purpose, and whatever
a player wrote that a receipt quotes back (a post of the watch's own words is the player's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields

from engine.config import BotConfig, GameConfig
from tests.secrets_watch import watch_posts

_PYTHON = re.compile(
    r"(?<![A-Za-z_])(?:None|True|False)(?![A-Za-z_])"  # a Python constant printed
    r"|\{'|\{\"|\['|\[\"|\(\s*'"  # a dict, list or tuple repr
    r"|<[A-Za-z_.]+ object at 0x|Traceback \(most recent call last\)"
    r"|\b[A-Z][a-z]+(?:Error|Exception)\b"  # an exception's class name
)
_CONFIG_KEYS = sorted(
    {f.name for f in (*fields(BotConfig), *fields(GameConfig)) if "_" in f.name}, key=len, reverse=True
)
_CONFIG = re.compile(r"(?<![A-Za-z_.])(?:" + "|".join(map(re.escape, _CONFIG_KEYS)) + r")(?![A-Za-z_])")
_PATH = re.compile(
    r"\.\./|(?<![A-Za-z0-9_])(?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.-]+\.(?:py|toml|tsv|json|sqlite|csv|txt)\b"
    r"|(?<![A-Za-z0-9_./-])[A-Za-z0-9_-]+\.(?:py|toml|tsv|sqlite)\b"
)
_IDENTIFIER = re.compile(r"(?<![A-Za-z0-9_.])[a-z]+(?:_[a-z0-9]+)+(?![A-Za-z0-9_])")
WATCHED = {
    "a Python value": _PYTHON,
    "a configuration key": _CONFIG,
    "a file path": _PATH,
    "an identifier": _IDENTIFIER,
}


def leaks(body: str, written: str = "") -> list[str]:
    """What of the program `body` shows, each as `what: text`; what the players wrote (`written`,
    the thread's other posts) is theirs to have quoted back."""
    found = []
    for what, pattern in WATCHED.items():
        for match in pattern.finditer(body):
            if match[0] not in written:
                found.append(
                    f"{what}: {match[0]!r} in …{body[max(0, match.start() - 30) : match.end() + 30]}…"
                )
    return found


@dataclass
class LeaksWatch:
    told: list[str] = field(default_factory=list)

    def check(self, bot, body: str) -> None:
        written = "\n".join(post.body for post in bot.store.posts_after(bot.thread_id, 0) if not post.own)
        self.told += [f"{bot.setup.id}: {leak}" for leak in leaks(body, written)]

    def install(self, monkeypatch, bots: list) -> None:
        watch_posts(monkeypatch, bots, self.check)
