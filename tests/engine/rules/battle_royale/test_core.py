"""The 都道府県バトロワ ruleset's face: id, name, help, the step machine's contract, assisted play's table
check, tag team names, the state's dict form and bad input."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine.report import Heading, Line, Section
from engine.rng import SeededSource
from engine.rules import battle_royale as br
from engine.rules.battle_royale.common_steps import kill_together
from engine.rules.battle_royale.events import Died, Said
from engine.rules.battle_royale.grammar import find_die_templates
from engine.rules.battle_royale.state import Mastermind, is_alive
from engine.rules.battle_royale.tables import BOT_TABLE_NAMES
from tests.engine.rules.battle_royale.helpers import play_recorded, prepared

FIVE = ["北海道", "青森", "岩手", "宮城", "秋田"]


def test_ruleset_face() -> None:
    assert br.ID == "battle-royale" and br.NAME == "都道府県バトロワ"
    for words in (
        "【都道府県選択ダイス】",
        "【仲間割れ判定ダイス】",
        "＜二人組用＞敗北後ダイス",
        "黒幕",
        "残機",
        "正体のわからない何者か",
        "地区復活ダイス",
        "タッグマッチ",
        "renumber_after_dead_picks",
        "death_costs_life",
        "collaborators_add_wins",
        "collaborators_count_as_defeats",
        "final_alliance",
        "ally_inapplicable",
        "勝者側は最低一人",
        "振り直し",
        "生き残り表",
        "戦況まとめ",
    ):
        assert words in br.HELP or words.replace("勝者側", "勝った団体") in br.HELP, words


def test_next_die_describes_the_table_in_the_seed_style() -> None:
    state, _, _ = play_recorded(prepared(FIVE), [(5, 1), (5, 2)])
    request = br.next_die(state)
    assert request is not None
    assert (request.name, request.sides, request.count, request.base) == ("戦闘方針ダイス", 3, 1, "北海道")
    assert request.command == "dice1d3=" and request.table.lines == ("1.正面", "2.正面", "3.奇襲")
    assert request.purpose == "br/1/1" and "正面" in request.reason and not request.secret
    prompt = br.next_die_report(state)
    assert prompt.kind == "prompt"
    assert prompt.plain.splitlines()[:4] == ["【戦闘方針ダイス】", "基準『北海道』", "dice1d3=", "1.正面"]


def test_apply_roll_returns_a_new_state_and_leaves_the_old_one_alone() -> None:
    state = prepared(FIVE)
    before = br.state_to_dict(state)
    after, report = br.apply_roll(state, (1, 2))
    assert br.state_to_dict(state) == before
    assert after.battle is not None and after.battle.base == "北海道"
    section = report.blocks[0]
    assert isinstance(section, Section) and section.blocks[0] == Heading("都道府県選択ダイス")
    assert isinstance(section.blocks[1], Line) and section.blocks[1].plain == "dice2d5=1 2 (3)"
    after2, _ = br.apply_roll(after, 3)  # a single die may be given as an int
    assert br.next_die(after2).name == "奇襲判定ダイス"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ((1,), "dice2d5="),
        ((1, 2, 3), "出目2個が必要"),
        ((0, 2), "範囲外"),
        ((1, 6), "範囲外"),
        ((True, 2), "範囲外"),
    ],
)
def test_bad_faces_are_refused_in_japanese(faces: tuple[int, ...], message: str) -> None:
    with pytest.raises(br.BattleRoyaleError, match=message):
        br.apply_roll(prepared(FIVE), faces)


def test_a_finished_game_takes_no_more_dice() -> None:
    state, _, _ = play_recorded(prepared(["北海道", "青森"]), [(2, 1), (2, 2), (3, 1), (5, 1)])
    assert state.ending is not None and state.ending.winners == ["北海道"]
    assert br.next_die(state) is None
    with pytest.raises(br.BattleRoyaleError, match="既に終了"):
        br.apply_roll(state, 1)
    assert br.check_table(state, "通常戦闘ダイス", 5) == "このバトロワは既に決着がついています"


def test_state_round_trips_through_json_and_plays_on_identically() -> None:
    source_key = hashlib.sha256(b"roundtrip").digest()
    state = br.initial_state({"mastermind": {"enabled": True}, "options": {"summary_every": 3}})
    for _ in range(60):
        state, *_ = br.play_step(state, SeededSource(source_key))
    data = json.loads(json.dumps(br.state_to_dict(state), ensure_ascii=False))
    copy = br.state_from_dict(data)
    assert br.state_to_dict(copy) == br.state_to_dict(state)
    for _ in range(40):
        if br.next_die(state) is None:
            break
        state, request, _, report = br.play_step(state, SeededSource(source_key))
        copy, request2, _, report2 = br.play_step(copy, SeededSource(source_key))
        assert request == request2 and report.plain == report2.plain
    assert br.state_to_dict(copy) == br.state_to_dict(state)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"version": 99}, "版"),
        ({"version": 1}, "壊れています"),
        ({**{"version": 1}, "roster": 3}, "壊れています"),
    ],
)
def test_unreadable_state_dicts_are_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        br.state_from_dict(data)


# --- assisted play: the right table for the situation ----------------------------------------------------


def test_check_table_accepts_the_right_die_in_any_width() -> None:
    state = prepared(FIVE)
    assert br.check_table(state, "【都道府県選択ダイス】", 5, count=2) is None
    assert br.check_table(state, "都道府県選択ダイス", 47, count=2) == (
        "【都道府県選択ダイス】（dice2d5=）の振り方は dice2d5= です（dice2d47= ではありません）"
        "（都道府県表の番号が作り直されています）。理由：戦闘する二人を選出します（先に出た数字が基準）"
    )
    assert "dice2d5=" in (br.check_table(state, "都道府県選択ダイス", 5, count=1) or "")


def test_check_table_explains_policy_before_battle() -> None:
    state, _, _ = play_recorded(prepared(FIVE), [(5, 1), (5, 2)])
    message = br.check_table(state, "通常戦闘ダイス", 5, base="北海道")
    assert message == (
        "今振るのは【通常戦闘ダイス】ではなく【戦闘方針ダイス】（dice1d3=）です。"
        "理由：基準が正面から挑むか奇襲を行うかを決めます"
    )


def test_check_table_points_out_the_group_table_and_its_plus_one() -> None:
    state = prepared(FIVE, groups=[["北海道", "青森", "岩手"]])
    state, _, _ = play_recorded(state, [(5, 1), (5, 4), (3, 1)])
    wrong = br.check_table(state, "通常戦闘ダイス", 5, base="北海道")
    assert wrong is not None and "ではなく【＜団体戦用＞戦闘ダイス】（dice1d6=）" in wrong
    assert "団体1・3人" in wrong and "勝利＋1" in wrong
    assert (
        br.check_table(
            state, "＜団体戦用＞戦闘ダイス", 6, base="北海道", variant="基準側の人数が多い為、勝利+1"
        )
        is None
    )
    flipped = br.check_table(
        state, "<団体戦用>戦闘ダイス", 6, base="北海道", variant="基準側の人数が少ない為、敗北＋1"
    )
    assert flipped is not None and "「基準側の人数が多い為、勝利＋1」の方です" in flipped
    assert br.check_table(state, "戦闘ダイス", 6) is None  # the seed's generic name for any battle table


def test_check_table_follows_the_base_moving_after_a_failed_surprise() -> None:
    state, _, _ = play_recorded(prepared(FIVE), [(5, 1), (5, 2), (3, 3), (2, 2)])
    assert br.check_table(state, "被奇襲者有利ダイス", 8, base="青森") is None
    wrong = br.check_table(state, "奇襲者（被奇襲者）有利ダイス", 8, base="北海道")
    assert wrong is not None and "基準は『青森』です（『北海道』ではありません）" in wrong
    assert "奇襲失敗で基準が被奇襲者に移った" in wrong


def test_check_table_names_unknown_dice_and_secret_dice() -> None:
    state = prepared(FIVE)
    unknown = br.check_table(state, "必殺ダイス", 6)
    assert unknown is not None and unknown.startswith(
        "【必殺ダイス】というダイスはありません。今振るのは【都道府県選択ダイス】"
    )
    secret = br.initial_state({"prefectures": [{"name": n} for n in FIVE], "mastermind": {"enabled": True}})
    assert br.check_table(secret, "黒幕決定ダイス", 5) == "次のダイスは非公開です（ダイス民ボットが振ります）"
    assert "非公開" in br.next_die_report(secret).plain and "黒幕決定" not in br.next_die_report(secret).plain


@pytest.mark.parametrize("name", BOT_TABLE_NAMES)
def test_check_table_knows_the_dice_the_bot_names_itself(name: str) -> None:
    message = br.check_table(prepared(FIVE), name, 2)
    assert message is not None and message.startswith(f"今振るのは【{name}】ではなく【都道府県選択ダイス】")


def test_check_template_reads_a_players_post() -> None:
    state, _, _ = play_recorded(prepared(FIVE), [(5, 1), (5, 2), (3, 1)])
    post = "いくぞ\n【通常戦闘ダイス】\n基準『北海道』\nｄｉｃｅ１ｄ５＝\n1.勝利\n2.敗北"
    (template,) = find_die_templates(post)
    assert br.check_template(state, template) is None
    (bad,) = find_die_templates("【通常戦闘ダイス】\n基準『青森』\ndice1d5=")
    assert "基準は『北海道』です" in (br.check_template(state, bad) or "")
    (broken,) = find_die_templates("【通常戦闘ダイス】\ndice99d5=")
    assert "振れません" in (br.check_template(state, broken) or "")


# --- tag team names ------------------------------------------------------------------------------------


def tag_state() -> br.State:
    state = br.initial_state({"prefectures": [{"name": n} for n in FIVE], "tag_match": {"enabled": True}})
    state, _, _ = play_recorded(state, [(4, 1), (2, 1)])
    return state


def test_team_names_are_set_by_number_or_name() -> None:
    state = tag_state()
    named, report = br.set_team_name(state, "1", "北の大地")
    assert report.plain == "チーム名決定：チーム1 → 『北の大地』『北海道』『青森』"
    renamed, _ = br.set_team_name(named, "北の大地", "ｻｯﾎﾟﾛ")
    assert renamed.team_names["1"] == "サッポロ"  # NFKC
    assert state.team_names == {}  # the old state is untouched
    request = br.next_die(renamed)
    assert request is not None and request.table.outcome(1) == "サッポロ"


@pytest.mark.parametrize(
    ("team", "name", "message"),
    [
        ("9", "x", "見つかりません"),
        ("1", "", "1～20文字"),
        ("1", "『x』", "『』"),
        ("2", "チーム1", "既に1番"),
    ],
)
def test_bad_team_names_are_refused(team: str, name: str, message: str) -> None:
    with pytest.raises(br.BattleRoyaleError, match=message):
        br.set_team_name(tag_state(), team, name)


def test_team_names_need_a_tag_match_with_teams() -> None:
    with pytest.raises(br.BattleRoyaleError, match="タッグマッチではない"):
        br.set_team_name(prepared(FIVE), "1", "x")
    before = br.initial_state({"prefectures": [{"name": n} for n in FIVE], "tag_match": {"enabled": True}})
    with pytest.raises(br.BattleRoyaleError, match="まだ結成されていません"):
        br.set_team_name(before, "1", "x")


# --- reports around the game ----------------------------------------------------------------------------


def test_opening_report_shows_the_numbered_table_or_the_setup_to_come() -> None:
    opening = br.opening_report(prepared(FIVE)).plain
    assert opening.splitlines()[0] == "【都道府県バトロワ】"
    assert "1 北海道 単独" in opening and "参加5" in opening
    setup = br.initial_state({"tag_match": {"enabled": True}})
    assert (
        br.opening_report(setup).plain
        == "都道府県バトロワ：開始前の準備ダイス【タッグ結成ダイス】から始めます"
    )


def test_gm_report_keeps_the_mastermind_out_of_public_kinds() -> None:
    state = br.initial_state({"prefectures": [{"name": n} for n in FIVE], "mastermind": {"enabled": True}})
    assert br.gm_report(state).plain == "（GM）黒幕はまだ決まっていません"
    state, _, reports = play_recorded(state, [(5, 3), (5, 1)])
    gm = br.gm_report(state)
    assert gm.kind == "secret" and "黒幕『岩手』：残機10、表向き生存" in gm.plain
    assert "岩手" not in reports[0].plain
    assert all(
        "黒幕" not in line for report in reports for line in report.plain.splitlines() if "岩手" in line
    )
    assert br.gm_report(prepared(FIVE)).plain == "（GM）黒幕なし"


def test_summary_every_n_battles() -> None:
    state = prepared(FIVE, options={"summary_every": 2})
    state, _, reports = play_recorded(state, [(5, 1), (5, 2), (3, 1), (5, 3), (5, 3), (5, 4), (3, 1), (5, 1)])
    assert state.battles == 2
    text = reports[-1].plain
    assert "【戦況まとめ（第2戦終了時点）】" in text and "脱落順：『宮城』" in text and "逃走1回" in text
    assert not any("戦況まとめ" in r.plain for r in reports[:-1])


@pytest.mark.parametrize("order", [("秋田", "青森"), ("青森", "秋田")])
def test_a_mutual_kill_inside_a_pair_reads_in_order(order: tuple[str, str]) -> None:
    # Both fall at one stroke: the pair is not said to leave one of them alone just before it falls too.
    state = prepared(["秋田", "青森", "岩手"], groups=[["秋田", "青森"]])
    events: list[object] = []
    kill_together(state, list(order), "相打ち", events)
    said = [e.text if isinstance(e, Said) else f"{e.label}脱落" for e in events if isinstance(e, Said | Died)]
    assert said == [f"{order[0]}脱落", f"{order[1]}脱落", "団体1は全員脱落して消滅"]
    assert state.groups == {} and state.group_of == {}


@pytest.mark.parametrize("order", [("秋田", "青森"), ("青森", "秋田")])
def test_a_mastermind_faking_death_in_a_mutual_kill_is_never_left_in_the_group(
    order: tuple[str, str],
) -> None:
    # It stays alive underneath; were it the last one in the pair, the thread would read that it went on alone.
    state = prepared(["秋田", "青森", "岩手"], groups=[["秋田", "青森"]])
    state.mastermind = Mastermind(name="秋田")
    events: list[object] = []
    kill_together(state, list(order), "相打ち", events)
    public = "\n".join(e.text for e in events if isinstance(e, Said))
    assert public == "団体1は全員脱落して消滅"
    assert is_alive(state, "秋田") and state.mastermind.hidden and not is_alive(state, "青森")
