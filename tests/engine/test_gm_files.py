"""A GM's saved files read as Windows editors write them, and the error when a file is neither."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import config
from engine.gm_files import ConfigError, read_text

TEXT = "1.ABC:＜攻撃＞ABC-DD-A-01、XYZ-DD-X-05\n"


@pytest.mark.parametrize(
    "encoded", [TEXT.encode("utf-8"), b"\xef\xbb\xbf" + TEXT.encode("utf-8"), TEXT.encode("cp932")]
)
def test_utf8_with_or_without_bom_and_shift_jis_read_alike(tmp_path: Path, encoded: bytes) -> None:
    path = tmp_path / "ORDERS.txt"
    path.write_bytes(encoded)
    assert read_text(path) == TEXT


def test_a_file_in_neither_encoding_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "ORDERS.txt"
    path.write_bytes(b"\x81\xff\xfe")
    with pytest.raises(ConfigError, match=r"ORDERS\.txt の文字コードが読めません"):
        read_text(path)
    assert config.ConfigError is ConfigError and config.read_text is read_text  # one error, one reader
