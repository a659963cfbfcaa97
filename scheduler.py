"""threadgm's entry point and composition root: the one module that names the registry of games
(`engine.rules.REGISTRY`) and hands it to the command line (`cli/`), which hands it to the bot, the
game page and the tools. The bot itself — one game on its thread, the poll loop, the process with its
game clocks — is in `bot/`; the rules of the games live in `engine/rules/`, the referee in
`engine/referee/`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli.main import build
from engine.rules import REGISTRY

if TYPE_CHECKING:
    from bot.runner import Runner
    from bot.thread_bot import ThreadBot, TickResult
    from engine.config import BotConfig, GameConfig

__all__ = ["REGISTRY", "BotConfig", "GameConfig", "Runner", "ThreadBot", "TickResult", "load_config", "main"]

main = build(REGISTRY)

# What this module hands out besides `main`, imported when first asked for: a command that does not
# run the bot does not load it.
_LAZY = {
    "Runner": "bot.runner",
    "ThreadBot": "bot.thread_bot",
    "TickResult": "bot.thread_bot",
    "BotConfig": "engine.config",
    "GameConfig": "engine.config",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_LAZY[name]), name)


def load_config(path: Path) -> tuple[BotConfig, list[GameConfig]]:
    """The configuration file, checked against the registered games (ConfigError says where and why)."""
    from cli import bot as bot_cli

    return bot_cli.load_config(path, REGISTRY)


if __name__ == "__main__":
    main()
