"""The order grammar: every form HELP shows is read, full- and half-width alike, and its canonical
spelling reads back to the same command; lines that look like orders but are not say why; chat is
not an order."""

from __future__ import annotations

import pytest
import regex

from engine.rules.nijiyabou import RULESET
from engine.rules.nijiyabou.grammar import Act, AreaOrder, Unit, parse_line
from engine.rules.nijiyabou.help import HELP
from engine.ruleset import OrderText, Rejection

FORM = regex.compile(
    r"^((?:東京|大阪|千葉)：\S+(?: (?!　)\S+)*|(?:参加|引き抜き|寝返り|下克上) (?!→)\S+(?: \S+)?)"
)


def help_forms() -> list[str]:
    found = []
    for text in HELP.splitlines():
        for part in text.split("／"):
            match = FORM.match(part.strip())
            if match:
                found.append(match[1].split("　")[0])
    return found


def test_help_shows_every_command_and_designation() -> None:
    words = {form.split("：")[1].split()[0] if "：" in form else form.split()[0] for form in help_forms()}
    assert words == {
        "外交",
        "内政",
        "徴兵",
        "移動",
        "出陣",
        "配信",
        "編成",
        "救援",
        "委任",
        "参加",
        "引き抜き",
        "寝返り",
        "下克上",
    }


@pytest.mark.parametrize("form", help_forms())
def test_every_form_in_help_is_read_and_its_canonical_reads_back(form: str) -> None:
    parsed = parse_line(form)
    assert isinstance(parsed, OrderText), (form, parsed)
    again = parse_line(parsed.canonical)
    assert isinstance(again, OrderText) and again.command == parsed.command


def test_full_width_half_width_and_long_prefecture_names() -> None:
    full = parse_line("東京都：出陣　神奈川県　月ノ美兎（騎兵）　剣持刀也（足軽３０００）　共同　埼玉　静凛")
    half = parse_line("東京:出陣 神奈川 月ノ美兎(騎兵) 剣持刀也(足軽3000) 共同 埼玉 静凛")
    assert isinstance(full, OrderText) and isinstance(half, OrderText)
    assert (
        full.command
        == half.command
        == AreaOrder(
            "東京",
            "出陣",
            "神奈川",
            units=(Unit("月ノ美兎", "騎兵"), Unit("剣持刀也", "足軽", 3000)),
            joint=("埼玉", "静凛"),
        )
    )
    assert half.canonical == "東京：出陣 神奈川 月ノ美兎(騎兵) 剣持刀也(足軽3000) 共同 埼玉 静凛"


def test_amounts_may_be_apart_from_their_type_and_names_with_dots_keep_together() -> None:
    assert parse_line("東京：徴兵 足軽 2000、鉄砲 500").command.amounts == (("足軽", 2000), ("鉄砲", 500))
    move = parse_line("東京：移動 埼玉 月ノ美兎 国力 3 騎兵500").command
    assert move.livers == ("月ノ美兎",) and move.amounts == (("国力", 3), ("騎兵", 500))
    unit = parse_line("岩手：編成 フレン・ E・ルスタリオ(足軽)").command.units[0]
    assert unit.liver == "フレン・E・ルスタリオ"


def test_acts() -> None:
    assert parse_line("参加 月ノ美兎").command == Act("参加", "月ノ美兎")
    assert parse_line("寝返り 剣持刀也 月ノ美兎").command == Act("寝返り", "剣持刀也", "月ノ美兎")
    assert parse_line("下克上 剣持刀也").command == Act("下克上", "剣持刀也")


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("東京：出陣", "出陣先のエリアを最初に書いてください"),
        ("東京：出陣 神奈川 月ノ美兎(騎兵) 剣持刀也(騎兵)", "同じ兵種・同じライバーは1部隊だけ"),
        ("東京：出陣 神奈川 a(足軽) b(騎兵) c(弓兵) d(鉄砲) e(足軽)", "同じ兵種"),
        ("東京：出陣 神奈川 月ノ美兎", "ライバー名(兵種)"),
        ("東京：徴兵 足軽", "徴兵は兵種と数を書いてください"),
        ("東京：徴兵 国力3", "徴兵は兵種と数を書いてください"),
        ("東京：移動 どこか 月ノ美兎", "移動先のエリアを最初に書いてください"),
        ("東京：外交 宣戦 大阪", "同盟・共同攻撃・降伏させる・降伏する"),
        ("東京：外交 共同攻撃 滋賀", "攻撃先のエリア、部隊を出すエリア、率いるライバー"),
        ("東京：内政 たくさん", "内政には何も付けません"),
        ("東京：配信 月ノ美兎 体力", "配信は"),
        ("東京：救援", "救援はライバーをひとり"),
        ("寝返り 剣持刀也", "寝返り 剣持刀也 月ノ美兎"),
        ("参加", "参加 月ノ美兎"),
    ],
)
def test_lines_that_are_orders_but_cannot_be_read_say_why(line: str, reason: str) -> None:
    parsed = parse_line(line)
    assert isinstance(parsed, Rejection) and reason in parsed.reason, parsed
    assert parsed.text == line


@pytest.mark.parametrize(
    "line", ["東京に出陣したい", "参加者募集中", "ワイ：暇", "配信 見てました", "12:30に集合"]
)
def test_chat_is_not_an_order(line: str) -> None:
    assert parse_line(line) is None


def test_order_keys_one_command_and_one_of_each_designation_per_area_and_author() -> None:
    from engine.ruleset import Order

    def key(text: str, author: str = "アリス◆A") -> str:
        parsed = parse_line(text)
        return RULESET.order_key(Order(1, 0, author, author, parsed.command, parsed.canonical))

    assert key("東京：内政") == key("東京：出陣 神奈川") != key("東京：編成 月ノ美兎(足軽)")
    assert key("東京：救援 月ノ美兎") != key("東京：委任 剣持刀也") != key("神奈川：内政")
    assert key("東京：内政", "アリス◆A") == key("東京：内政", "改名◆A") != key("東京：内政", "ボブ◆B")
