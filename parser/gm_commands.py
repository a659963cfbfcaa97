"""The GM commands as values: one frozen dataclass per command (`Pause`, `Extend`, `Void`, ...), each
with its `canonical` Japanese and `ascii` spellings, the `GmCommand` union, `GmError` for a line that is
a command but cannot be carried out, and `GmLine`, a result with the line it was found on. Reading them
from a post is `parser.gm`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from parser.gm_time import ClockTime, duration_ascii, duration_ja


@dataclass(frozen=True)
class Pause:
    """停止: stop the game clock (no deadline passes while paused)."""

    @property
    def canonical(self) -> str:
        return "停止"

    @property
    def ascii(self) -> str:
        return "!gm pause"


@dataclass(frozen=True)
class Resume:
    """再開: start the game clock again."""

    @property
    def canonical(self) -> str:
        return "再開"

    @property
    def ascii(self) -> str:
        return "!gm resume"


@dataclass(frozen=True)
class ResolveNow:
    """即時更新: resolve the current period now."""

    @property
    def canonical(self) -> str:
        return "即時更新"

    @property
    def ascii(self) -> str:
        return "!gm now"


@dataclass(frozen=True)
class Extend:
    """延長: move the deadline, by a `duration` or to a JST clock time `at` (exactly one is set)."""

    duration: timedelta | None = None
    at: ClockTime | None = None

    def __post_init__(self) -> None:
        if (self.duration is None) == (self.at is None):
            raise ValueError("Extend takes exactly one of duration and at")

    @property
    def canonical(self) -> str:
        if self.duration is not None:
            return f"延長 {duration_ja(self.duration)}"
        assert self.at is not None
        return f"延長 {self.at.canonical}"

    @property
    def ascii(self) -> str:
        if self.duration is not None:
            return f"!gm extend {duration_ascii(self.duration)}"
        assert self.at is not None
        return f"!gm extend {self.at.ascii}"


@dataclass(frozen=True)
class Void:
    """無効: the orders of these posts do not count (sorted, each once)."""

    posts: tuple[int, ...]

    def _ranges(self) -> list[str]:
        spans: list[list[int]] = []
        for post in self.posts:
            if spans and post == spans[-1][1] + 1:
                spans[-1][1] = post
            else:
                spans.append([post, post])
        return [f"{first}-{last}" if last > first else f"{first}" for first, last in spans]

    @property
    def canonical(self) -> str:
        return "無効 " + " ".join(f">>{span}" for span in self._ranges())

    @property
    def ascii(self) -> str:
        return "!gm void " + " ".join(self._ranges())


@dataclass(frozen=True)
class Rollback:
    """巻き戻し: undo the last period; `redo` resolves it again at once, else the game stays paused."""

    redo: bool = True

    @property
    def canonical(self) -> str:
        return "巻き戻し " + ("再処理" if self.redo else "保留")

    @property
    def ascii(self) -> str:
        return "!gm rollback " + ("redo" if self.redo else "hold")


@dataclass(frozen=True)
class SetValue:
    """設定: set a state path (`teams.A.name`) to a value, the raw text as written (trimmed)."""

    path: str
    value: str

    @property
    def canonical(self) -> str:
        return f"設定 {self.path}={self.value}"

    @property
    def ascii(self) -> str:
        return f"!gm set {self.path}={self.value}"


@dataclass(frozen=True)
class Reveal:
    """公開: reveal the secret roll of a post."""

    post: int

    @property
    def canonical(self) -> str:
        return f"公開 >>{self.post}"

    @property
    def ascii(self) -> str:
        return f"!gm reveal {self.post}"


@dataclass(frozen=True)
class NextThread:
    """次スレ: follow the next thread at this http(s) URL (as written; a 2ch-style `ttp://` gets its h)."""

    url: str

    @property
    def canonical(self) -> str:
        return f"次スレ {self.url}"

    @property
    def ascii(self) -> str:
        return f"!gm next {self.url}"


@dataclass(frozen=True)
class Status:
    """状態: post the game's status."""

    @property
    def canonical(self) -> str:
        return "状態"

    @property
    def ascii(self) -> str:
        return "!gm status"


GmCommand = Pause | Resume | ResolveNow | Extend | Void | Rollback | SetValue | Reveal | NextThread | Status


@dataclass(frozen=True)
class GmError:
    """A line that is a GM command but cannot be carried out; `reason` is Japanese, for the bot's answer."""

    text: str  # the line as written, trimmed
    command: str  # what it was taken for: the canonical keyword (`延長` for `締切延長` too), `!gm extend`,
    # or `!gm` for an unknown ASCII verb
    reason: str


@dataclass(frozen=True)
class GmLine:
    """A command (or a malformed one) found in a post; `line` is 0-based, `raw` the line as written."""

    line: int
    raw: str
    result: GmCommand | GmError
