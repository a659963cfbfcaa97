"""Reports become board text, and long answers split under the board's limits."""

from __future__ import annotations

from engine.report import Blank, anchor, heading, line, report, section, strong, table
from poster.markup import PostLimits, render_body, render_posts, stored_length


def dice_report(number: int, text: str = "dice2d47=12 35 (47)"):
    return report(section(line(text)), reply_to=(number,))


def test_a_report_reads_as_board_text() -> None:
    shown = report(
        heading("生き残り表"),
        line("勝者：", strong("東京"), " ", anchor(12), " ", anchor(3, 5)),
        table([("01", "北海道"), ("13", "東京")], header=("番号", "名前")),
        Blank(),
        line("以上"),
        reply_to=(12, 15),
    )
    assert render_body(shown) == "\n".join(
        [
            ">>12 >>15",
            "【生き残り表】",
            "勝者：東京 >>12 >>3-5",
            "番号　名前",
            "01　北海道",
            "13　東京",
            "",
            "以上",
        ]
    )


def test_answers_to_several_posts_share_a_post_with_a_blank_line_between() -> None:
    assert render_posts([dice_report(3), dice_report(5, "2D6 ＞ 7[3,4] ＞ 7")]) == [
        ">>3\ndice2d47=12 35 (47)\n\n>>5\n2D6 ＞ 7[3,4] ＞ 7"
    ]


def test_line_limit_splits_between_answers_not_inside_them() -> None:
    reports = [report(section(*(line(f"{n}行目") for n in range(5))), reply_to=(k,)) for k in range(1, 4)]
    posts = render_posts(reports, PostLimits(lines=13))
    assert [post.split("\n")[0] for post in posts] == [">>1", ">>3"]
    assert all(len(post.split("\n")) <= 13 for post in posts)
    assert ">>2" in posts[0] and posts[0].endswith("4行目")


def test_character_limit_counts_escaped_text_and_newlines() -> None:
    assert stored_length('>>1 <b> & "') == len("&gt;&gt;1 &lt;b&gt; &amp; &quot;")
    limits = PostLimits(lines=100, chars=60)
    posts = render_posts([dice_report(n, ">" * 4) for n in range(1, 5)], limits)
    for post in posts:
        lines = post.split("\n")
        assert sum(stored_length(x) for x in lines) + 4 * (len(lines) - 1) <= 60


def test_a_section_bigger_than_a_post_splits_between_lines_and_a_huge_line_is_wrapped() -> None:
    big = report(section(*(line("あ" * 30) for _ in range(10))), reply_to=(1,))
    posts = render_posts([big], PostLimits(lines=4, chars=2048, columns=256))
    assert all(len(post.split("\n")) <= 4 for post in posts)
    assert posts[0].startswith(">>1\n") and all(post.startswith(">>1（続き）\n") for post in posts[1:])
    assert sum(post.count("あ" * 30) for post in posts) == 10
    huge = report(section(line("い" * 600)), reply_to=(2,))
    wrapped = render_posts([huge], PostLimits(lines=24, chars=2048, columns=256))
    assert "".join(wrapped).replace("\n", "").replace(">>2（続き）", "").replace(">>2", "") == "い" * 600
    assert all(stored_length(x) <= 256 for post in wrapped for x in post.split("\n"))


def test_nothing_is_lost_in_splitting() -> None:
    reports = [dice_report(n, f"結果{n}" * (n % 7 + 1)) for n in range(1, 60)]
    posts = render_posts(reports, PostLimits(lines=10, chars=300))
    text = "\n".join(posts)
    for n in range(1, 60):
        assert f">>{n}\n結果{n}" in text


def test_an_answer_cut_by_a_post_boundary_says_what_it_continues() -> None:
    reports = [dice_report(1), report(section(*(line(f"出目{n}") for n in range(30))), reply_to=(2,))]
    posts = render_posts(reports, PostLimits(lines=24))
    assert len(posts) == 2
    assert posts[0].startswith(">>1\n") and "\n\n>>2\n出目0" in posts[0]
    assert posts[1].startswith(">>2（続き）\n") and posts[1].endswith("出目29")


def test_every_line_break_costs_four_characters_as_the_stored_br() -> None:
    # ex0ch stores each newline as `<br>`: two 8-character lines are 8 + 4 + 8 = 20 characters.
    limits = PostLimits(lines=10, chars=20, columns=100)
    fits = report(line("a" * 8), line("b" * 8))
    assert render_posts([fits], limits) == ["a" * 8 + "\n" + "b" * 8]
    over = report(line("a" * 8), line("b" * 9))  # 21 as stored: one more than the limit
    assert render_posts([over], limits) == ["a" * 8, "b" * 9]


def test_loose_lines_around_sections_stay_in_order_and_an_answer_to_nothing_is_its_anchors() -> None:
    shown = report(
        line("前置き"), section(line("本題")), line("後書き"), section(line("付録")), reply_to=(4,)
    )
    assert render_body(shown) == ">>4\n前置き\n本題\n後書き\n付録"
    assert render_body(report(reply_to=(4, 9))) == ">>4 >>9"
    assert render_body(report(table([("01", "北海道")]))) == "01　北海道"  # a table without a header


def test_every_post_of_an_answer_cut_in_parts_says_what_it_answers() -> None:
    parts = [section(*(line(f"{name}{n}") for n in range(3))) for name in ("一", "二", "三")]
    posts = render_posts([report(*parts, reply_to=(5, 6))], PostLimits(lines=4))
    assert posts == [
        ">>5 >>6\n一0\n一1\n一2",
        ">>5 >>6（続き）\n二0\n二1\n二2",
        ">>5 >>6（続き）\n三0\n三1\n三2",
    ]


def test_a_line_as_long_as_a_post_is_wide_stays_whole_and_a_longer_one_is_cut_at_the_width() -> None:
    limits = PostLimits(columns=10)
    assert render_posts([report(line("あ" * 10))], limits) == ["あ" * 10]
    assert render_posts([report(line("い" * 25))], limits) == ["い" * 10 + "\n" + "い" * 10 + "\n" + "い" * 5]


def test_no_post_starts_or_ends_with_a_blank_line_and_no_line_is_lost() -> None:
    long = report(section(line("一"), line("二"), line("三"), Blank(), line("五"), line("勝者: REX")))
    assert render_posts([long], PostLimits(lines=3)) == ["一\n二\n三", "五\n勝者: REX"]
    assert render_posts([report(line("以上"), Blank())]) == ["以上"]


def test_what_is_not_a_report_part_is_refused_by_name() -> None:
    import pytest

    from poster.markup import block_lines

    with pytest.raises(TypeError, match="not a block: 'text'"):
        block_lines("text")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not a span: 3"):
        block_lines(line(3))  # type: ignore[arg-type]
