"""Reports become atwiki, PukiWiki and Markdown markup, and hostile text stays text in each."""

from __future__ import annotations

import pytest

from engine.report import Blank, anchor, heading, line, report, section, strong, table
from poster.wiki import DIALECTS, escape, plain_line, render_wiki

SHOWN = report(
    heading("生き残り表"),
    line("勝者：", strong("東京"), " ", anchor(12), " ", anchor(3, 5)),
    table([("01", "北海道"), ("13", "東京")], header=("番号", "名前")),
    Blank(),
    section(line("以上")),
    reply_to=(12,),
)


def test_a_report_in_atwiki_markup() -> None:
    assert render_wiki(SHOWN, "atwiki") == "\n".join(
        [
            "&#62;&#62;12",
            "",
            "**生き残り表",
            "勝者：''東京'' &#62;&#62;12 &#62;&#62;3-5",
            "",
            "|!番号|!名前|",
            "|01|北海道|",
            "|13|東京|",
            "",
            "以上",
            "",
        ]
    )


def test_a_report_in_pukiwiki_markup_keeps_each_line_a_line() -> None:
    assert render_wiki(SHOWN, "pukiwiki") == "\n".join(
        [
            "&#62;&#62;12~",
            "",
            "**生き残り表",
            "勝者：''東京'' &#62;&#62;12 &#62;&#62;3-5~",
            "",
            "|番号|名前|h",
            "|01|北海道|",
            "|13|東京|",
            "",
            "以上~",
            "",
        ]
    )


def test_a_report_in_markdown() -> None:
    assert render_wiki(SHOWN, "markdown", level=3) == "\n".join(
        [
            "&#62;&#62;12  ",
            "",
            "#### 生き残り表",
            "勝者：**東京** &#62;&#62;12 &#62;&#62;3-5  ",
            "",
            "| 番号 | 名前 |",
            "|---|---|",
            "| 01 | 北海道 |",
            "| 13 | 東京 |",
            "",
            "以上  ",
            "",
        ]
    )


def test_deep_headings_on_the_wikis_are_bold_lines_in_the_board_s_brackets() -> None:
    assert render_wiki(report(heading("乱数")), "atwiki", level=4) == "''【乱数】''\n"
    assert render_wiki(report(heading("乱数")), "pukiwiki", level=4) == "''【乱数】''~\n"


HOSTILE = [
    "''太字''",
    "[[リンク>http://example.com]]",
    "&bold(){x}",
    "&color(red){x};",
    "<script>alert(1)</script>",
    "|表|の|中|",
    "*見出し",
    "-リスト",
    "+番号",
    ">引用",
    "#plugin",
    " 整形済み",
    "1. 番号付き",
    "**強調** _斜体_ `コード`",
    "~行末~",
]


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_never_becomes_markup(dialect: str, text: str) -> None:
    written = plain_line(text, dialect)  # type: ignore[arg-type]
    assert "\n" not in written
    marks = (
        ("**", "`", "_", "[", "<", "|")
        if dialect == "markdown"
        else ("''", "[[", "&bold", "&color", "<", "|")
    )
    for mark in marks:
        assert mark not in written.replace("&#", "")
    assert written[0] not in ("#>-+*= 1" if dialect == "markdown" else "*-+>#: ~,")
    cell = render_wiki(report(table([(text, "x")])), dialect)  # type: ignore[arg-type]
    assert cell.count("|") == (6 if dialect == "markdown" else 3) + (3 if dialect == "markdown" else 0)


def test_escaping_is_reversible_by_a_reader_of_character_references() -> None:
    import html

    for text in HOSTILE:
        for dialect in DIALECTS:
            assert html.unescape(escape(text, dialect)) == text  # type: ignore[arg-type]
