"""threadgm's entry point and composition root: the one module that names the registry of games
(`engine.rules.REGISTRY`) and hands it to the command line (`cli/`), which hands it to the bot, the
game page and the tools. The bot itself — one game on its thread, the poll loop, the process with its
game clocks — is in `bot/`; the rules of the games live in `engine/rules/`, the referee in
`engine/referee/`.
"""

from __future__ import annotations

from pathlib import Path

from bot.runner import Runner
from bot.thread_bot import ThreadBot, TickResult
from cli import bot as bot_cli
from cli.main import build
from engine.config import BotConfig, GameConfig
from engine.rules import REGISTRY

__all__ = ["REGISTRY", "BotConfig", "GameConfig", "Runner", "ThreadBot", "TickResult", "load_config", "main"]

main = build(REGISTRY)


def load_config(path: Path) -> tuple[BotConfig, list[GameConfig]]:
    """The configuration file, checked against the registered games (ConfigError says where and why)."""
    return bot_cli.load_config(path, REGISTRY)


if __name__ == "__main__":
    main()
