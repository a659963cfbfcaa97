"""No silent line (issue 25): every honest line a player writes — the seed's own order words, and the
odd but honest ways a player names an area (its old province, its reading, `江戸`, `北海`, `東京府`,
a zero-width space a browser left, lots joined with `・` as the bot's reports print them, an anchor
before the order) — gets exactly one answer through the referee's reading of a post, and the right
one; chat gets none."""

from __future__ import annotations

import pytest

from engine.clock import periods
from engine.rules.nijiyabou import RULESET
from engine.ruleset import Order, Rejection
from parser.bbs_dice import is_quote
from parser.gm_words import is_word
from store.records import OrderRecord


def read(body: str) -> tuple[OrderRecord, ...]:
    reading = periods.read_post(
        RULESET,
        game_id="nijiyabou",
        thread_id="t",
        post=5,
        author="アリス◆ALICE",
        written_at=None,
        body=body,
        period=1,
        cancel_words=("取消",),
        ready_words=("準備完了",),
        is_word=is_word,
        is_quote=is_quote,
    )
    return tuple(order.row for order in reading.orders)


# (line as typed, the canonical order it is read as)
READ = [
    # §3's commands in the seed's words, and the designations
    ("東京：外交 同盟 大阪", "東京：外交 同盟 大阪"),
    ("東京：外交 共同攻撃 滋賀 京都 伏見ガク", "東京：外交 共同攻撃 滋賀 京都 伏見ガク"),
    ("東京：内政", "東京：内政"),
    ("東京：徴兵 足軽1000", "東京：徴兵 足軽1000"),
    ("東京：移動 埼玉 月ノ美兎 足軽2000 国力3", "東京：移動 埼玉 月ノ美兎 足軽2000 国力3"),
    ("東京：出陣 神奈川", "東京：出陣 神奈川"),
    ("東京：配信", "東京：配信"),
    ("東京：外交 降伏させる 大阪", "東京：外交 降伏させる 大阪"),
    ("大阪：外交 降伏する 東京", "大阪：外交 降伏する 東京"),
    ("東京：救援 月ノ美兎", "東京：救援 月ノ美兎"),
    ("参加 月ノ美兎", "参加 月ノ美兎"),
    ("寝返り 剣持刀也 月ノ美兎", "寝返り 剣持刀也 月ノ美兎"),
    # names of an area a player may write
    ("江戸：内政", "東京：内政"),
    ("とうきょう：内政", "東京：内政"),
    ("トウキョウ：内政", "東京：内政"),
    ("北海：内政", "北海道：内政"),
    ("東京府：内政", "東京：内政"),
    ("相模：徴兵 足軽1000", "神奈川：徴兵 足軽1000"),
    ("東京：出陣 相模国", "東京：出陣 神奈川"),
    ("東京：内政\u200b", "東京：内政"),
    ("\u200b東京：内政", "東京：内政"),
    (">>3 東京：内政", "東京：内政"),
    ("東京：内政。", "東京：内政"),
    ("東京：徴兵 足軽1000！", "東京：徴兵 足軽1000"),
    ("東京 内政", "東京：内政"),
    # another mark in place of the colon, or none (a careless hand; a phone's keyboard)
    ("東京、内政", "東京：内政"),
    ("東京;内政", "東京：内政"),
    ("東京；徴兵 足軽1000", "東京：徴兵 足軽1000"),
    ("【東京】内政", "東京：内政"),
    ("【東京】：内政", "東京：内政"),
    ("[東京] 出陣 神奈川", "東京：出陣 神奈川"),
    ("東京→内政", "東京：内政"),
    ("東京ー内政", "東京：内政"),
    ("東京－内政", "東京：内政"),
    ("東京＝内政", "東京：内政"),
    ("東京内政", "東京：内政"),
    ("東京都、徴兵 足軽1000", "東京：徴兵 足軽1000"),
    ("東京/内政", "東京：内政"),
    ("東京｜内政", "東京：内政"),
    ("東京…内政", "東京：内政"),
    ("東京は内政", "東京：内政"),
    ("東京で徴兵 足軽1000", "東京：徴兵 足軽1000"),
    ("東京＞内政", "東京：内政"),
    ("東京～内政", "東京：内政"),
    ("『東京』内政", "東京：内政"),
    # a list marker before the order, an act word glued to the name
    ("1. 東京：内政", "東京：内政"),
    ("２）東京：内政", "東京：内政"),
    ("①東京：内政", "東京：内政"),
    ("・参加 月ノ美兎", "参加 月ノ美兎"),
    ("- 東京：徴兵 足軽1000", "東京：徴兵 足軽1000"),
    ("参加月ノ美兎", "参加 月ノ美兎"),
    ("参加東京", "参加 東京"),
    # numbers as people write them
    ("東京：徴兵 足軽1,000", "東京：徴兵 足軽1000"),
    ("東京：徴兵 足軽1000人 鉄砲500", "東京：徴兵 足軽1000 鉄砲500"),
    ("東京：出陣 神奈川 月ノ美兎(足軽 3,000)", "東京：出陣 神奈川 月ノ美兎(足軽3000)"),
    # lots joined as the reports print them
    ("東京：徴兵 足軽1000・騎兵500", "東京：徴兵 足軽1000 騎兵500"),
    ("東京：移動 沖縄 月ノ美兎・足軽3000・国力2", "東京：移動 沖縄 月ノ美兎 足軽3000 国力2"),
    ("東京：出陣 神奈川 月ノ美兎(騎兵)・剣持刀也(足軽)", "東京：出陣 神奈川 月ノ美兎(騎兵) 剣持刀也(足軽)"),
    ("栃木：編成 ラトナ・プティ(足軽)", "栃木：編成 ラトナ・プティ(足軽)"),
]

# (line, what the refusal says)
REFUSED = [
    ("武蔵：内政", "読めませんでした。もしかして: 東京：内政 ／ 埼玉：内政 ／ 神奈川：内政"),
    ("月ノ美兎：内政", "命令はエリアごとです。もしかして: 東京：内政"),
    ("東京：内政します", "もしかして: 東京：内政"),
    ("東京：出陳 神奈川", "もしかして: 東京：出陣 神奈川"),
    ("福山：内政", "もしかして: 福島：内政"),
    ("ワイ：内政", "「ワイ」というエリアはありません"),
    ("内政 東京", "もしかして: 東京：内政"),
    ("内政", "命令の前にエリア名を書いてください"),
    ("東京：今日は雨", "東京：のあとには命令"),
    ("東京：徴兵 足軽" + "9" * 4400, "大きすぎます（9桁まで）"),
    ("東京：移動 埼玉 足軽" + "9" * 40, "大きすぎます（9桁まで）"),
    ("東京：徴兵 足軽\u1369", "徴兵は兵種と数を書いてください"),
    ("東京、徴兵 足軽", "徴兵は兵種と数を書いてください"),
    ("月ノ美兎 参加", "もしかして: 参加 月ノ美兎"),
    ("引抜き 剣持刀也", "もしかして: 引き抜き 剣持刀也"),
    ("寝返 剣持刀也 月ノ美兎", "もしかして: 寝返り 剣持刀也 月ノ美兎"),
    ("下克 剣持刀也", "もしかして: 下克上 剣持刀也"),
    ("東京：同盟 大阪", "もしかして: 東京：外交 同盟 大阪"),
    ("東京：降伏 大阪", "もしかして: 東京：外交 降伏させる 大阪 ／ 東京：外交 降伏する 大阪"),
    ("東京：共同攻撃 滋賀 京都 伏見ガク", "もしかして: 東京：外交 共同攻撃 滋賀 京都 伏見ガク"),
    ("東京→出陣 大坂城", "出陣先のエリアを最初に書いてください"),
]

CHAT = [
    "よろしくお願いします",
    "東京に出陣したい",
    "東京は強いね",
    "出陣したいなあ",
    "参加者募集中",
    "配信 見てました",
    "月ノ美兎さんかわいい",
    "12:30に集合",
    "http://example.com/test",
    "ワイ：暇",
    "江戸：いい町",
    "上野：パンダ見た",
    "今季は内政に専念します",
    ">引用 東京：内政",
    "東京内政やばい",
    "東京、内政が大事",
    "東京-大阪間の出陣",
    "【速報】東京 陥落",
    "東京は内政が大事",
    "1.5倍速で見た",
    "月ノ美兎 かわいい",
    "- 東京は強い",
    "参加者募集中です",
    "月ノ美兎 参加するかな",
]


@pytest.mark.parametrize(("line", "canonical"), READ)
def test_an_honest_order_is_read_as_the_area_meant(line: str, canonical: str) -> None:
    found = read(line)
    assert len(found) == 1, found
    assert (found[0].status, found[0].canonical) == ("accepted", canonical), found[0]


@pytest.mark.parametrize(("line", "reason"), REFUSED)
def test_an_order_that_cannot_be_read_gets_one_answer_with_the_form_meant(line: str, reason: str) -> None:
    found = read(line)
    assert len(found) == 1, found
    assert found[0].status == "rejected" and reason in found[0].reason, found[0]


@pytest.mark.parametrize("line", CHAT)
def test_chat_gets_no_answer(line: str) -> None:
    assert read(line) == ()


def test_a_post_of_orders_and_chat_answers_each_order_once() -> None:
    body = "\n".join([READ[0][0], CHAT[0], REFUSED[0][0], CHAT[1], READ[13][0]])
    found = read(body)
    assert [o.status for o in found] == ["accepted", "rejected", "accepted"]
    assert [o.line for o in found] == [0, 2, 4]


def test_a_line_headed_by_a_liver_is_answered_with_where_the_liver_stands_now() -> None:
    """The referee reads a post with the running period's state (`read_line`): a liver who moved to
    沖縄 is meant for 沖縄 there, whatever the seed's list says."""
    state = RULESET.initial_state({})
    state.livers["月ノ美兎"].area = "沖縄"
    parsed = RULESET.read_line(state, "月ノ美兎：内政")
    assert isinstance(parsed, Rejection) and "もしかして: 沖縄：内政" in parsed.reason
    assert RULESET.read_line(None, "月ノ美兎：内政").reason.endswith("もしかして: 東京：内政")
    assert RULESET.read_line(state, "東京：内政").canonical == "東京：内政"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("東京：配信 月の美兎", "「月の美兎」というライバーはいません（もしかして: 月ノ美兎）"),
        ("神奈川：救援 剣持", "「剣持」というライバーはいません（もしかして: 剣持刀也）"),
        ("岩手：出陣 秋田 フレン(足軽)", "（もしかして: フレン・ E・ルスタリオ）"),
        ("引き抜き 剣持", "（もしかして: 剣持刀也）"),
        ("東京：救援 もちさん", "「もちさん」というライバーはいません"),
    ],
)
def test_a_liver_written_another_way_is_refused_with_the_liver_meant(line: str, reason: str) -> None:
    """A nickname's beginning or a near spelling of a liver gets the name as the seed's list writes it."""
    state = RULESET.initial_state({})
    parsed = RULESET.parse_line(line)
    assert not isinstance(parsed, Rejection) and parsed is not None
    order = Order(1, 0, "GM", "GM", parsed.command, parsed.canonical, gm=True)
    assert reason in (RULESET.check(state, order) or "")


def test_a_huge_line_is_answered_short() -> None:
    """A reason quotes the player's text cut short: a 100,000-character line must not come back."""
    for line in ["あ" * 100_000 + "：内政", "東京：出陣 神奈川 " + "x" * 50_000 + "(歩兵)"]:
        found = read(line)
        assert len(found) == 1 and found[0].status == "rejected" and len(found[0].reason) < 200, found
    state = RULESET.initial_state({})
    parsed = RULESET.parse_line("東京：移動 東京 " + "だれか" * 10_000)
    problem = RULESET.check(state, Order(1, 0, "GM", "GM", parsed.command, parsed.canonical, gm=True))
    assert problem is not None and len(problem) < 200
    assert "1回だけ" in RULESET.parse_line("東京：移動 埼玉 足軽1000 足軽1000").reason
