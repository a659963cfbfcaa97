"""The game's face to the bot: receipt checks with their reasons, players and who speaks for whom,
設定, 状態, the JSON round trip across seasons, finishing, and verify recomputing every die."""

from __future__ import annotations

import json

import pytest

from engine.rng import SeededSource
from engine.rules.nijiyabou import RULESET
from engine.rules.nijiyabou.grammar import parse_line
from engine.rules.nijiyabou.state import State
from engine.ruleset import Order, RulesetError


def order(text: str, author: str = "GM", post: int = 1) -> Order:
    parsed = parse_line(text)
    return Order(post, 0, author, author, parsed.command, parsed.canonical, gm=author == "GM")


def claimed() -> State:
    state = RULESET.initial_state({})
    state = RULESET.set_value(state, "players.月ノ美兎", "アリス◆ALICE")
    return RULESET.set_value(state, "players.神奈川", "ボブ◆BOB")


@pytest.mark.parametrize(
    ("text", "author", "reason"),
    [
        ("東京：内政", "ボブ◆BOB", "東京に命令できるのは月ノ美兎のプレイヤーだけです"),
        ("東京：出陣 大阪", "アリス◆ALICE", "大阪は東京の隣接エリアではありません"),
        ("東京：移動 神奈川 月ノ美兎", "アリス◆ALICE", "神奈川は自国のエリアではありません"),
        ("参加 月ノ美兎", "キャロル◆C", "月ノ美兎には既にプレイヤーがいます"),
        ("参加 剣持刀也", "アリス◆ALICE", "月ノ美兎" if False else "既にプレイヤーがいます"),
        ("参加 大阪", "アリス◆ALICE", "既にほかのライバーで参加しています"),
        ("参加 だれか", "キャロル◆C", "「だれか」というライバー・エリアはありません"),
        ("引き抜き 剣持刀也", "アリス◆ALICE", "引き抜けるのは他国の、プレイヤーのいる家臣だけです"),
        ("下克上 剣持刀也", "ボブ◆BOB", "下克上は家臣だけができます"),
        ("寝返り 月ノ美兎 剣持刀也", "ボブ◆BOB", "寝返りは月ノ美兎のプレイヤーだけができます"),
    ],
)
def test_the_receipt_refuses_with_the_reason(text: str, author: str, reason: str) -> None:
    problem = RULESET.check(claimed(), order(text, author))
    assert problem is not None and reason in problem, problem


def test_an_area_without_a_liver_can_only_move_and_diplomacy_only_where_the_lord_is() -> None:
    state = claimed()
    state.areas["千葉"].owner = "月ノ美兎"
    state.livers["社築"].area = "東京"
    assert (
        RULESET.check(state, order("千葉：内政", "アリス◆ALICE"))
        == "ライバー不在のエリアでは移動以外のコマンドはできません"
    )
    assert RULESET.check(state, order("千葉：移動 東京 足軽1000", "アリス◆ALICE")) is None
    state.livers["社築"].area = "千葉"
    assert "君主のいるエリアでのみ" in RULESET.check(state, order("千葉：外交 同盟 大阪", "アリス◆ALICE"))
    assert RULESET.check(state, order("東京：外交 同盟 大阪", "アリス改名◆ALICE")) is None


def test_players_are_the_lords_and_delegated_vassals_known_by_trip() -> None:
    state = claimed()
    assert RULESET.players(state) == ["アリス◆ALICE", "ボブ◆BOB"]
    assert RULESET.players_of(state, "改名◆ALICE") == ["アリス◆ALICE"]
    assert RULESET.players_of(state, "だれか◆X") == []
    assert RULESET.players(RULESET.initial_state({})) is None


def test_settings_assign_remove_and_change_and_refuse_with_why() -> None:
    state = claimed()
    state = RULESET.set_value(state, "players.月ノ美兎", "なし")
    assert state.livers["月ノ美兎"].player is None
    state = RULESET.set_value(state, "areas.東京.troops.騎兵", "１５００")
    state = RULESET.set_value(state, "livers.フレンEルスタリオ.統率", "90")
    state = RULESET.set_value(state, "adjacency.add", "千葉-神奈川")
    assert (
        state.areas["東京"].troops["騎兵"] == 1500 and state.livers["フレンEルスタリオ"].stats["統率"] == 90
    )
    assert "神奈川" in state.neighbours("千葉")
    state = RULESET.set_value(state, "adjacency.cut", "千葉-神奈川")
    assert "神奈川" not in state.neighbours("千葉")
    with pytest.raises(RulesetError, match="設定できません"):
        RULESET.set_value(state, "weather", "晴れ")
    with pytest.raises(RulesetError, match="1～100"):
        RULESET.set_value(state, "livers.月ノ美兎.統率", "101")
    with pytest.raises(RulesetError, match="大きすぎます"):  # issue 24: 4,400 digits are a refusal
        RULESET.set_value(state, "areas.東京.power", "9" * 4400)
    with pytest.raises(RulesetError, match="数字"):
        RULESET.set_value(state, "areas.東京.power", "\u1369")
    with pytest.raises(RulesetError, match="いません"):
        RULESET.set_value(state, "players.だれか", "x◆y")


def test_the_gm_assigns_a_player_by_trip_never_by_a_bare_name() -> None:
    """A bare name is anyone's: a country given to `アリス` would take the orders of whoever types アリス
    into the name field. The GM writes 名前◆トリップ (or ◆トリップ)."""
    state = RULESET.initial_state({})
    with pytest.raises(RulesetError, match="「名前◆トリップ」か「◆トリップ」で書いてください"):
        RULESET.set_value(state, "players.月ノ美兎", "アリス")
    state = RULESET.set_value(state, "players.月ノ美兎", "◆ALICE")
    assert RULESET.check(state, order("東京：内政", "アリス◆ALICE")) is None
    assert RULESET.check(state, order("東京：内政", "アリス")) is not None


def test_state_json_round_trips_across_seasons() -> None:
    state = claimed()
    orders = [order("神奈川：出陣 東京", "ボブ◆BOB"), order("千葉：配信"), order("埼玉：徴兵 鉄砲500")]
    for number in range(4):
        state, _ = RULESET.resolve(state, orders, SeededSource(bytes([number]) * 32))
        data = json.loads(json.dumps(RULESET.state_to_dict(state), ensure_ascii=False))
        assert RULESET.state_to_dict(RULESET.state_from_dict(data)) == data
    assert state.season == 4 and state.season_name() == "1616年春"


def test_status_shows_the_season_players_standings_and_map() -> None:
    text = RULESET.status(claimed()).plain
    assert text.startswith("【にじ野望 1615年春】")
    assert "プレイヤー（2人）: 月ノ美兎=アリス◆ALICE、剣持刀也=ボブ◆BOB" in text
    assert "【勢力】" in text and "関東: 茨城=勇気ちひろ" in text


def test_one_country_holding_everything_ends_the_game() -> None:
    state = RULESET.initial_state({})
    assert not RULESET.finished(state)
    for name in list(state.areas)[1:]:
        state.areas[name].owner = "不破湊"
    state.areas["東京"].troops["足軽"] = 0
    state.areas["神奈川"].troops["足軽"] = 20000
    state.areas["北海道"].owner = "不破湊"
    state, outcome = RULESET.resolve(state, [], SeededSource(b"k" * 32))
    assert state.winner == "不破湊" and RULESET.finished(state) and "天下統一：不破湊" in outcome.plain


def test_verify_recomputes_every_published_die_and_catches_a_change() -> None:
    key = b"v" * 32
    state = RULESET.initial_state({})
    orders = [order(f"{area}：配信") for area in ("北海道", "大阪", "沖縄")] + [order("神奈川：出陣 東京")]
    _, outcome = RULESET.resolve(state, orders, SeededSource(key))
    lines = outcome.plain.split("\n")
    result = RULESET.read_period(lines)
    assert set(result["rolls"]) == {
        "niji/haishin/北海道",
        "niji/haishin/大阪",
        "niji/haishin/沖縄",
        "niji/initiative/東京",
    }
    assert RULESET.verify_period(key, result) == []
    assert result["rolls"] == outcome.meta["result"]["rolls"]
    forged = [text.replace("niji/haishin/北海道 d6=", "niji/haishin/北海道 d6=9") for text in lines]
    assert any("一致しません" in p for p in RULESET.verify_period(key, RULESET.read_period(forged)))
    assert RULESET.read_period(["【海戦処理 第1ピリオド】"]) is None


def test_diplomacy_names_another_country() -> None:
    state = claimed()
    assert "他国のエリアか君主ではありません" in RULESET.check(
        state, order("東京：外交 同盟 だれか", "アリス◆ALICE")
    )
    assert "他国のエリアか君主ではありません" in RULESET.check(
        state, order("東京：外交 同盟 東京", "アリス◆ALICE")
    )
    assert RULESET.check(state, order("東京：外交 降伏させる 剣持刀也", "アリス◆ALICE")) is None


def test_names_of_livers_that_do_not_exist_are_refused_at_once() -> None:
    problem = RULESET.check(claimed(), order("東京：編成 月ノ美兎(足軽) みと(騎兵)", "アリス◆ALICE"))
    assert problem == "「みと」というライバーはいません"
    assert RULESET.check(claimed(), order("東京：救援 月ノ美兎", "アリス◆ALICE")) is None


def test_the_gm_sets_alliances_on_both_sides() -> None:
    state = RULESET.set_value(claimed(), "countries.月ノ美兎.allies", "樋口楓、葛葉")
    assert state.countries["月ノ美兎"].allies == ["樋口楓", "葛葉"] and state.countries["葛葉"].allies == [
        "月ノ美兎"
    ]
    state = RULESET.set_value(state, "countries.月ノ美兎.allies", "なし")
    assert state.countries["月ノ美兎"].allies == [] and state.countries["樋口楓"].allies == []
    with pytest.raises(RulesetError, match="他国の君主"):
        RULESET.set_value(state, "countries.月ノ美兎.allies", "月ノ美兎")


def test_nobody_but_a_gm_commands_a_country_nobody_has_joined() -> None:
    """Issue 24: a joined player (or anyone named GM without the GM's trip) commanding an unclaimed
    country could make it surrender to him; §4 needs 「両国の合意」."""
    state = claimed()
    parsed = parse_line("千葉：外交 降伏する 東京")
    alice = Order(3, 0, "アリス◆ALICE", "アリス◆ALICE", parsed.command, parsed.canonical)
    assert "プレイヤーがいないため命令できません" in RULESET.check(state, alice)
    named_gm = Order(3, 0, "GM", "GM", parsed.command, parsed.canonical)
    _, outcome = RULESET.resolve(state, [named_gm], SeededSource(b"k" * 32))
    assert "プレイヤーがいないため命令できません" in outcome.plain
    gm = Order(3, 0, "GM◆GMTRIP", "GM◆GMTRIP", parsed.command, parsed.canonical, gm=True)
    assert RULESET.check(state, gm) is None


def test_status_counts_the_players_whose_claims_were_taken_this_season() -> None:
    """Issue 25: 状態 before the first update said 「プレイヤー: まだいません」 though three lords joined."""
    state = RULESET.initial_state({})
    claims = [
        order("参加 月ノ美兎", "アリス◆ALICE", 3),
        order("参加 東京", "ボブ◆BOB", 4),
        order("参加 神奈川", "ボブ◆BOB", 5),
    ]
    claims.append(order("参加 静凛", "キャロル◆C", 6))
    text = RULESET.period_status(state, claims).plain
    assert (
        "プレイヤー（3人）: 月ノ美兎=アリス◆ALICE（参加受付済み）、剣持刀也=ボブ◆BOB（参加受付済み）、静凛=キャロル◆C（参加受付済み）"
        in text
    )
    assert "プレイヤー: まだいません" in RULESET.status(state).plain


def test_a_claim_written_twice_is_one_claim_and_the_receipt_says_it_joins() -> None:
    state = RULESET.initial_state({})
    first = order("参加 月ノ美兎", "アリス◆ALICE", 3)
    again = order("参加 月ノ美兎", "アリス◆ALICE", 4)
    assert RULESET.remark(state, again, [first]) == "東京の月ノ美兎として参加、季節の判定で確定"
    assert RULESET.void(state, again, [first]) is None
    other = order("参加 月ノ美兎", "ボブ◆BOB", 5)
    assert "月ノ美兎には先に>>4の参加があります" in RULESET.void(state, other, [first, again])


def test_an_order_that_cannot_run_after_an_earlier_claim_is_refused_at_the_receipt() -> None:
    """A receipt is a promise: a claim an earlier claim takes, a second liver for one player, and an
    order for a country another writer's claim of the season takes can never run (unless the earlier
    claim is cancelled), so the receipt refuses them rather than taking them with a warning."""
    state = RULESET.initial_state({})
    alice = order("参加 月ノ美兎", "アリス◆ALICE", 3)
    second = order("参加 剣持刀也", "アリス◆ALICE", 4)
    assert "先の参加（>>3 月ノ美兎）が有効です" in RULESET.void(state, second, [alice])
    stranger = order("東京：内政", "ボブ◆BOB", 5)
    assert "東京の国（月ノ美兎）には>>3の参加があり" in RULESET.void(state, stranger, [alice])
    forged = order("東京：内政", "アリス◇ALICE", 6)  # a ◆ typed into the name is stored as ◇
    assert RULESET.void(state, forged, [alice]) is not None
    own = order("東京：内政", "アリス◆ALICE", 7)
    assert RULESET.void(state, own, [alice]) is None and RULESET.remark(state, own, [alice]) is None
    # before anybody's claim the order may still run: taken, with the receipt's word
    assert RULESET.void(state, stranger, []) is None
    assert "このままでは実行されません" in RULESET.remark(state, stranger, [])
    assert RULESET.void(state, order("東京：内政"), [alice]) is None  # the GM's


def test_a_designation_for_a_liver_an_earlier_move_takes_away_says_it_will_not_run() -> None:
    """§10: 移動 comes before the designations, so 救援 of a liver who leaves the area finds him gone."""
    state = claimed()
    move = order("東京：移動 神奈川 月ノ美兎", "アリス◆ALICE", 3)
    state.areas["神奈川"].owner = "月ノ美兎"
    relief = order("東京：救援 月ノ美兎", "アリス◆ALICE", 4)
    assert (
        RULESET.remark(state, relief, [move])
        == "月ノ美兎は>>3の移動で東京を離れるため、この救援は実行されません"
    )
    _, outcome = RULESET.resolve(state, [move, relief], SeededSource(b"k" * 32))
    assert "東京 救援：月ノ美兎は東京にいる自国のライバーではありません（実行されず）" in outcome.plain


def test_an_alliance_or_surrender_without_the_other_side_says_it_will_not_be_made_as_things_stand() -> None:
    """§4 「両国の合意によって降伏した国の…」「降伏には両国のコマンド提出が必要です」."""
    state = claimed()
    ally = order("東京：外交 同盟 神奈川", "アリス◆ALICE", 3)
    assert (
        RULESET.remark(state, ally, [])
        == "剣持刀也の国の「外交 同盟 東京」がまだないため、このままでは成立しません"
    )
    answer = order("神奈川：外交 同盟 東京", "ボブ◆BOB", 4)
    assert RULESET.remark(state, answer, [ally]) is None
    demand = order("東京：外交 降伏させる 剣持刀也", "アリス◆ALICE", 5)
    assert "「外交 降伏する 東京」がまだない" in RULESET.remark(state, demand, [])
    assert RULESET.remark(state, order("神奈川：外交 降伏する 東京", "ボブ◆BOB", 6), [demand]) is None


def test_the_receipt_says_which_sortie_unit_stays_home() -> None:
    """§11 「出陣の時に同時に兵力・部隊零の武将を出陣させること…はできません」: at intake the unit of
    兵力0 is refused and the rest go; a sortie of nothing but such units is refused whole."""
    state = claimed()
    state.livers["静凛"].area = "東京"
    state.livers["静凛"].country = "月ノ美兎"
    mixed = order("東京：出陣 神奈川 月ノ美兎(足軽) 静凛(騎兵)", "アリス◆ALICE", 3)
    assert RULESET.check(state, mixed) is None
    assert RULESET.remark(state, mixed, []) == "静凛の騎兵は兵力0のため出陣できません。ほかの部隊で出陣します"
    empty = order("東京：出陣 神奈川 静凛(騎兵)", "アリス◆ALICE", 4)
    assert RULESET.check(state, empty) == "静凛の騎兵は兵力0のため出陣できません"
