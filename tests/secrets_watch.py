"""A property every game the suite plays must keep: no post the bot writes tells a secret before its
time. Watched at the moment each post leaves (the bot's own clock, the store as it stands then):

- the game's seed: never;
- the key of period n of a game on the clock: only once period n is resolved (its report carries it);
- the key of a day (plain dice, immediate games): only once that day is over (JST);
- the key of the ruleset's secret dice (a hidden mastermind): only once the game is over.

`tests/conftest.py` installs it for every test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engine.keys import day_end, day_of

_HEX = re.compile(r"[0-9a-f]{64}")


@dataclass
class SecretsWatch:
    told: list[str] = field(default_factory=list)  # what was told too early, one line each
    public: set[str] = field(default_factory=set)  # told in its time: telling it again tells nothing

    def check(self, bot, body: str) -> None:
        setup, now = bot.setup, bot.clock()
        secrets = {"the game's seed": setup.secret.hex()}
        if bot.store.game_status(setup.id) != "finished":
            secrets["the secret dice's key"] = setup.rules_secret.hex()
        if setup.clocked:
            last = bot.store.last_resolution(setup.id)
            resolved = last.period if last is not None else 0
            for period in range(resolved + 1, resolved + 4):
                secrets[f"period {period}'s key"] = setup.period_key(period).hex()
        else:
            today = day_of(now)
            for ahead in range(3):
                day = (datetime.fromisoformat(today) + timedelta(days=ahead)).date().isoformat()
                if now < day_end(day):
                    secrets[f"the key of {day}"] = setup.day_key(day).hex()
        text = body.lower()
        for what, value in secrets.items():
            if value in text and value not in self.public:
                self.told.append(f"{setup.id} at {now:%Y-%m-%d %H:%M:%S}: a post told {what}")
        self.public.update(word for word in _HEX.findall(text) if word not in secrets.values())

    def install(self, monkeypatch, bots: list) -> None:
        watch_posts(monkeypatch, bots, self.check)


def watch_posts(monkeypatch, bots: list, check) -> None:
    """`check(bot, body)` every post and new thread a bot of `bots` writes, before it leaves (on the
    class, so a test that patches BoardWriter itself still wraps the checked methods)."""
    from poster.writer import BoardWriter

    reply, new_thread = BoardWriter.reply, BoardWriter.new_thread

    def writer_of(writer):
        return next((bot for bot in bots if bot.writer is writer), None)

    def checked_reply(writer, ref, body):
        if (bot := writer_of(writer)) is not None:
            check(bot, body)
        return reply(writer, ref, body)

    def checked_new_thread(writer, ref, title, body):
        if (bot := writer_of(writer)) is not None:
            check(bot, f"{title}\n{body}")
        return new_thread(writer, ref, title, body)

    monkeypatch.setattr(BoardWriter, "reply", checked_reply)
    monkeypatch.setattr(BoardWriter, "new_thread", checked_new_thread)
