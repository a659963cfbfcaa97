"""[web] in the configuration: the game page is off unless the table is there, on loopback unless
it says otherwise, and a table it cannot use is refused with where and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import ConfigError, WebConfig, load_config
from engine.rules import REGISTRY

GAME = """
[[game]]
id = "dice"
rules = "dice"
thread = "http://127.0.0.1:8380/test/read.cgi/test/1764590400/"
"""


def load(tmp_path: Path, text: str):
    path = tmp_path / "threadgm.toml"
    path.write_text(text + GAME, "utf-8")
    return load_config(path, REGISTRY, lambda url: None)[0]


def test_no_web_table_no_page_and_an_empty_one_serves_on_loopback(tmp_path: Path) -> None:
    assert load(tmp_path, "").web is None
    assert load(tmp_path, "[web]\n").web == WebConfig("127.0.0.1", 8381)
    assert load(tmp_path, '[web]\nhost = "0.0.0.0"\nport = 9000\n').web == WebConfig("0.0.0.0", 9000)
    assert load(tmp_path, "[web]\nenabled = false\nport = 9000\n").web is None


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("[web]\nadress = 1\n", r"\[web\] に知らない項目があります: adress"),
        ("[web]\nport = 70000\n", r"port は 0～65535 の整数です"),
        ('[web]\nport = "8381"\n', r"port は 0～65535 の整数です"),
        ("[web]\nport = true\n", r"port は 0～65535 の整数です"),
        ('[web]\nhost = ""\n', r"host はアドレスの文字列です"),
        ('[web]\nenabled = "yes"\n', r"enabled は true か false です"),
        ('web = "on"\n', r"\[web\] は表にしてください"),
        ("[bot]\nweb = {port = 1}\n", r"\[bot\] に知らない項目があります: web"),
    ],
)
def test_a_web_table_it_cannot_use_is_refused(tmp_path: Path, table: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load(tmp_path, table)


def test_run_says_so_when_the_pages_port_is_taken(tmp_path: Path) -> None:
    import socket

    from click.testing import CliRunner

    from scheduler import main

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        config = tmp_path / "bot.toml"
        config.write_text(
            f'[bot]\ndatabase = "{tmp_path / "b.sqlite"}"\n[web]\nport = {port}\n'
            '[[game]]\nid = "g"\nrules = "dice"\nthread = "http://127.0.0.1:9/test/read.cgi/test/1700000000/"\n'
            "open_table = true\n",
            "utf-8",
        )
        result = CliRunner().invoke(main, ["run", str(config)])
    finally:
        taken.close()
    assert result.exit_code == 1 and f"[web] のポート {port} を開けません" in result.output
