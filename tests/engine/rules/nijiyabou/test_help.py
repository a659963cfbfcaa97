"""What players read (issue 25): ヘルプ gives the order forms with an example each (not the opening
paragraph of HELP), the opening shows them and the table played by, and no config key, file path or
Python value reaches any of it — the 設定 paths a GM types are the only dotted words."""

from __future__ import annotations

import regex

from engine.rules.nijiyabou import RULESET
from engine.rules.nijiyabou.grammar import WORDS, parse_line
from engine.rules.nijiyabou.help import HELP
from engine.rules.nijiyabou.ruleset import SETTINGS
from engine.ruleset import OrderText

EXAMPLE = regex.compile(
    r"(?:^|[（／：]\s*)((?:東京|大阪)：\S+(?: [^\s（）／]+)*|(?:参加|引き抜き|寝返り|下克上) [^\s（）／]+(?: [^\s（）／]+)?)"
)
LEAK = regex.compile(r"scenario|\.\./|\.tsv|\.toml|[a-z]+_[a-z_]+|\bNone\b|\bTrue\b|\bFalse\b|\{'")


def examples(lines: list[str]) -> list[str]:
    found = []
    for text in lines:
        found += [
            m.strip()
            for m in EXAMPLE.findall(text.replace("命令を使わない指定：", "／").replace("家臣と君主：", ""))
        ]
    return found


def test_help_gives_every_order_form_with_an_example_that_reads() -> None:
    summary = RULESET.summary()
    forms = examples(summary)
    assert all(isinstance(parse_line(form), OrderText) for form in forms), [
        (f, parse_line(f)) for f in forms if not isinstance(parse_line(f), OrderText)
    ]
    shown = {form.split("：")[1].split()[0] if "：" in form else form.split()[0] for form in forms}
    assert shown == {*WORDS, "参加", "引き抜き", "寝返り", "下克上"}
    assert summary[0] != HELP.strip().split("\n")[0]  # the forms, not HELP's opening paragraph


def test_no_config_key_path_or_python_value_in_help_summary_or_the_opening() -> None:
    opened = RULESET.rules_in_force(RULESET.initial_state({}))
    gm_paths = tuple(setting.path.split(".")[0] + "." for setting in SETTINGS)
    for text in [*HELP.split("\n"), *RULESET.summary(), *opened]:
        cleaned = regex.sub(rf"(?:{'|'.join(map(regex.escape, gm_paths))})\S+", "", text)
        assert not LEAK.search(cleaned), text
    assert "threadgm verify" in HELP  # the one tool named: how anyone recomputes the dice


def test_the_opening_names_the_table_played_by() -> None:
    opened = RULESET.rules_in_force(RULESET.initial_state({}))
    assert opened[0] == "1615年春から 春→夏→秋→冬"
    assert "出陣は隣接エリアへ" in opened and "移動してきた兵は出陣・救援しない" in opened
    assert "損害 兵数×0.2×倍率・最大5回戦" in opened
