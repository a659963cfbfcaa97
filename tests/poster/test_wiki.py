"""Reports become atwiki, PukiWiki and Markdown markup, and hostile text stays text in each."""

from __future__ import annotations

import pytest

from engine.report import Blank, Label, anchor, heading, line, report, section, strong, table
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


def test_a_line_break_inside_a_name_or_cell_becomes_a_space_on_every_wiki() -> None:
    from poster.wiki import escape, plain_line

    for dialect in ("atwiki", "pukiwiki", "markdown"):
        assert escape("東\r\n京\r都\n庁", dialect) == "東  京 都 庁", dialect
    assert plain_line("名前\n* 見出し", "pukiwiki") == "名前 * 見出し~"  # inside the line: no markup
    assert plain_line("-二行目", "markdown") == "&#45;二行目  "


def test_markup_at_the_start_of_a_cell_or_line_is_shown_as_itself_and_the_rest_kept() -> None:
    from poster.wiki import table_lines

    assert table_lines([["~見出し", "LEFT:左", ""]], None, "pukiwiki") == ["|&#126;見出し|&#76;EFT:左| |"]
    assert table_lines([["!強調"]], ("!名",), "atwiki") == ["|!&#33;名|", "|&#33;強調|"]
    assert render_wiki(report(line("*太字のつもり"), line(strong("本当の太字"), "です")), "atwiki") == (
        "&#42;太字のつもり\n''本当の太字''です\n"
    )
    assert render_wiki(report(line(strong(""), "空の太字")), "markdown") == "空の太字  \n"


def test_a_markdown_table_is_as_wide_as_its_widest_row() -> None:
    from poster.wiki import table_lines

    assert table_lines([["a", "b"], ["c"]], None, "markdown") == [
        "|   |   |",
        "|---|---|",
        "| a | b |",
        "| c |   |",
    ]
    assert table_lines([["x"]], ("名",), "markdown") == ["| 名 |", "|---|", "| x |"]


def test_headings_keep_their_level_down_to_the_wikis_third_and_markdowns_sixth() -> None:
    from poster.wiki import heading_line

    assert heading_line("戦況", 3, "atwiki") == "***戦況"
    assert heading_line("戦況", 4, "pukiwiki") == "''【戦況】''~"
    assert heading_line("戦況", 5, "markdown") == "###### 戦況"
    assert heading_line("戦況", 6, "markdown") == "###### 戦況"
    nested = report(section(heading("第一報"), section(heading("内訳"), line("x"))))
    assert render_wiki(nested, "atwiki") == "**第一報\n\n**内訳\nx\n"  # sections keep the report's level
    assert render_wiki(report(heading("見出し")), "atwiki", 1).startswith("*見出し")
    assert render_wiki(report(line(Label("注"), "以上"), reply_to=(3, 4)), "pukiwiki") == (
        "&#62;&#62;3 &#62;&#62;4~\n【注】以上~\n"
    )
    assert render_wiki(report(line(), line("a"), Blank(), Blank()), "markdown") == "a  \n"
    assert render_wiki(report(section(heading("深い"))), "atwiki", 3) == "***深い\n"


def test_a_block_on_its_own_is_a_part_of_the_page_under_its_top() -> None:
    from poster.wiki import block_lines

    assert block_lines(heading("戦況"), "atwiki") == ["", "**戦況"]
    with pytest.raises(TypeError, match="not a block: 'x'"):
        block_lines("x", "atwiki")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a span: 3"):
        block_lines(line(3), "atwiki")  # type: ignore[arg-type]
