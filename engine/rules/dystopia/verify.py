"""Checking a thread's back handouts from its text alone: every published handout (its text and key)
against the commitment the bot posted when the session opened. `threadgm verify` calls it through
the ruleset's `audit_posts` with the bot's posts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.rules.dystopia.handouts import COMMIT_LABEL, verify_handout

_COMMIT = re.compile(rf"^裏ハンドアウト (\S+) {re.escape(COMMIT_LABEL)}: ([0-9a-f]{{64}})$")
_HEADING = re.compile(r"^【(\S+?)の裏ハンドアウト公開】")
_KEY = re.compile(r"^鍵 裏ハンドアウト (\S+): ([0-9a-f]{64})$")


@dataclass
class HandoutAudit:
    checked: int = 0
    matched: int = 0
    problems: list[str] = field(default_factory=list)


@dataclass
class _Reading:
    owner: str
    lines: list[str] = field(default_factory=list)


def _publications(lines: Iterable[str]) -> list[tuple[str, str, str]]:
    """(owner, text, key) of every publication, in order."""
    found: list[tuple[str, str, str]] = []
    reading: _Reading | None = None
    for text in lines:
        heading = _HEADING.match(text)
        if heading:
            reading = _Reading(heading[1])
            continue
        key = _KEY.match(text)
        if reading is not None and key and key[1] == reading.owner:
            found.append((reading.owner, "\n".join(reading.lines), key[2]))
            reading = None
        elif reading is not None:
            reading.lines.append(text)
    return found


def audit_handouts(bot_bodies: Iterable[str]) -> HandoutAudit:
    """Check the bot's posts (bodies, in thread order): the first commitment of each handout is the
    one that counts; a second, different one is a problem (a handout committed twice)."""
    lines = [text.strip() for body in bot_bodies for text in body.split("\n")]
    result = HandoutAudit()
    committed: dict[str, str] = {}
    for text in lines:
        match = _COMMIT.match(text)
        if match is None:
            continue
        first = committed.setdefault(match[1], match[2])
        if first != match[2]:
            result.problems.append(f"{match[1]}の裏ハンドアウトのコミットメントが2つあります")
    for owner, text, key in _publications(lines):
        result.checked += 1
        if owner not in committed:
            result.problems.append(
                f"{owner}の裏ハンドアウトは公開されましたが、事前のコミットメントがありません"
            )
        elif verify_handout(owner, text, key, committed[owner]):
            result.matched += 1
        else:
            result.problems.append(f"{owner}の裏ハンドアウトの本文か鍵が、最初のコミットメントと一致しません")
    return result


def published_keys(bot_bodies: Iterable[str]) -> dict[str, bytes]:
    """The key of every handout the bot's posts have published, by owner (the first one shown)."""
    lines = [text.strip() for body in bot_bodies for text in body.split("\n")]
    found: dict[str, bytes] = {}
    for owner, _text, key in _publications(lines):
        found.setdefault(owner, bytes.fromhex(key))
    return found
