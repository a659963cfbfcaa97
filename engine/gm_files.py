"""The text files a GM saves (a scenario, orders, a state, the configuration) read as Windows editors
write them, and `ConfigError`, the error of a file that cannot be used as it is.

Apart from `engine.config` (which re-exports both) so that a command reading a scenario or an
ORDERS.txt does not load the configuration's checks and, with them, the clock and the scheduler
library: `threadgm adjudicate` spent a tenth of its 1 CPU-s importing them only to read its files.
"""

from __future__ import annotations

from pathlib import Path


class ConfigError(ValueError):
    """The configuration file cannot be used as it is (the message says where and why)."""


def read_text(path: Path) -> str:
    """A file the GM saved (a scenario, orders, a state): UTF-8 (with or without BOM) or Shift_JIS, as
    Windows editors write them; ConfigError when it is neither."""
    data = path.read_bytes()
    for encoding in ("utf-8-sig", "cp932"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ConfigError(f"{path} の文字コードが読めません（UTF-8 か Shift_JIS で保存してください）")
