"""The 都道府県バトロワ's two bot rulesets: automatic periods (battles per period, dice from the period's
streams, the opening, the end, the dice guard), assisted template posts (parsing, the right die rolled
from the post's stream, wrong tables explained with the state left alone), GM settings, status, the dict
form, and the mastermind's secrets kept out of every public report."""

from __future__ import annotations

import hashlib
import json

import pytest

from engine.report import Report
from engine.rng import RecordedDice, RecordedSource, SeededDice, SeededSource
from engine.rules import battle_royale as br
from engine.rules.battle_royale import ruleset
from engine.rules.battle_royale.grammar import DieTemplate, find_die_templates
from engine.rules.battle_royale.ruleset import (
    ASSISTED,
    AUTOMATIC,
    BOT_ROLLS,
    NEXT_TEMPLATE,
    OTHER_TABLE,
)
from engine.rules.battle_royale.tables import SEED_TABLES, canonical_name
from engine.ruleset import AssumesOrders, Order, OrderText, Rejection
from poster.markup import render_body
from tests.conftest import shared_path
from tests.engine.rules.battle_royale.helpers import prepared, roster

SIX = ["北海道", "青森", "岩手", "宮城", "秋田", "山形"]
SECRET_WORDS = (
    "（GM）",
    "黒幕は『",
    "協力者に",
    "黒幕決定ダイス",
    "黒幕陣営人数ダイス",
    "協力者決定ダイス",
    "残機",
)


def scenario(names: list[str] = SIX, **sections: object) -> dict[str, object]:
    return {"prefectures": roster(names), **sections}


def source(label: str) -> SeededSource:
    return SeededSource(hashlib.sha256(label.encode()).digest())


def order(template: OrderText, post: int = 10) -> Order:
    return Order(post, 0, "名無し", "名無し", template.command, template.canonical)


def post(text: str) -> OrderText:
    parsed = ASSISTED.parse_post(text)
    assert isinstance(parsed, OrderText), parsed
    return parsed


def no_dice() -> RecordedSource:
    """A source that fails the test if anything is rolled."""
    return RecordedSource(default=RecordedDice([]))


def text(answer: Report) -> str:
    assert "secret" not in answer.meta
    return render_body(answer)


def due_template(answer: Report) -> str:
    """What a player copies from an answer: the lines after 次に貼るテンプレ↓, without the reason."""
    lines = text(answer).split("\n")
    start = lines.index(NEXT_TEMPLATE) + 1
    return "\n".join(line for line in lines[start:] if not line.startswith("理由："))


# --- the shape ----------------------------------------------------------------------------------------


def test_both_rulesets_have_the_shape_the_bot_loads() -> None:
    assert (AUTOMATIC.ID, AUTOMATIC.immediate) == ("battle-royale", False)
    assert (ASSISTED.ID, ASSISTED.immediate) == ("battle-royale-assist", True)
    for rules in (AUTOMATIC, ASSISTED):
        assert rules.NAME == "都道府県バトロワ" and "【都道府県選択ダイス】" in rules.HELP
        assert [s.path for s in rules.settings] == [
            "teams.<番号>.name",
            "newcomer",
            "options.battles_per_period",
            "options.summary_every",
        ]
        state = rules.initial_state(scenario())
        assert rules.players(state) is None and not isinstance(rules, AssumesOrders)
        for line in ("dice1d5=", "＜予想＞3", "北海道の勝ち", "【速報】北海道の勝ち"):
            assert rules.parse_line(line) is None
    assert ASSISTED.parse_line("【通常戦闘ダイス】") is None  # read whole by parse_post
    assert "battles_per_period" in AUTOMATIC.HELP and "進行" in AUTOMATIC.HELP
    assert "次に貼るテンプレ" not in AUTOMATIC.HELP and "テンプレ" in ASSISTED.HELP


@pytest.mark.parametrize("line", ["【通常戦闘ダイス】", "【戦闘方針】", "【＜団体戦用＞戦闘ダイス】dice1d6="])
def test_a_template_pasted_in_the_automatic_thread_is_answered_that_the_bot_rolls(line: str) -> None:
    """Seed 000 has the ダイス民 roll each die; in the automatic thread the bot is that ダイス民, so a
    player's template does not move the game — and the player is told so rather than left to think it
    counted."""
    refused = AUTOMATIC.parse_line(line)
    assert isinstance(refused, Rejection) and refused.reason == BOT_ROLLS
    assert "出目は進行に使いません" in BOT_ROLLS


def test_battles_per_period_is_a_checked_scenario_option() -> None:
    assert AUTOMATIC.initial_state(scenario()).options.battles_per_period == 1
    state = AUTOMATIC.initial_state(scenario(options={"battles_per_period": 3}))
    assert state.options.battles_per_period == 3
    with pytest.raises(br.ScenarioError, match="battles_per_period は1～100の整数"):
        AUTOMATIC.initial_state(scenario(options={"battles_per_period": 0}))


# --- automatic play ---------------------------------------------------------------------------------


def test_a_period_plays_the_set_number_of_battles_with_the_periods_dice() -> None:
    state = AUTOMATIC.initial_state(scenario(options={"battles_per_period": 2}))
    key = hashlib.sha256(b"period 1").digest()
    after, answer = AUTOMATIC.resolve(state, [], SeededSource(key))
    assert after.battles == 2 and state.battles == 0 and answer.kind == "resolution"
    body = text(answer)
    assert body.startswith("【都道府県バトロワ】\n") and "参加6" in body  # the opening table comes first
    assert "【第1戦】" in body and "【第2戦】" in body and "【第3戦】" not in body
    stream = SeededDice(key, "br/1/0")
    first, second = stream.roll(6), stream.roll(6)
    assert f"【都道府県選択ダイス】\ndice2d6={first} {second} ({first + second})\n" in body
    # the same dice, die by die, through the engine's own loop: nothing is rolled any other way
    replay, blocks = state, []
    dice = SeededSource(key)
    while replay.battles < 2:
        replay, _, _, step = br.play_step(replay, dice)
        blocks += step.blocks
    assert answer.blocks[len(br.opening_report(state).blocks) :] == tuple(blocks)
    assert br.state_to_dict(after) == br.state_to_dict(replay)

    later, again = AUTOMATIC.resolve(after, [], source("period 2"))
    assert later.battles == 4 and "参加6" not in text(again)  # the opening only once
    assert "【第3戦】" in text(again) and "【第5戦】" not in text(again)


def test_the_end_of_the_game_stops_the_period_and_later_periods_only_say_so() -> None:
    state = AUTOMATIC.initial_state(scenario(["東京", "大阪"], options={"battles_per_period": 100}))
    final, answer = AUTOMATIC.resolve(state, [], source("short"))
    assert final.ending is not None and final.ending.kind == "winner"
    body = text(answer)
    assert body.count("【優勝】") == 1 and f"優勝は『{final.ending.winners[0]}』！" in body
    assert body.rstrip().endswith(f"（全{final.battles}戦）")
    same, after = AUTOMATIC.resolve(final, [], no_dice())
    assert same is final and text(after).startswith("このバトロワは決着しています\n【優勝】")


def test_the_dice_guard_stops_a_period_that_would_not_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ruleset, "MAX_DICE_PER_BATTLE", 1)
    state = AUTOMATIC.initial_state(scenario())
    stopped, answer = AUTOMATIC.resolve(state, [], source("guard"))
    assert stopped.battles == 0 and stopped.dice_total == 1 and br.next_die(stopped) is not None
    assert "ダイスの数が上限に達したため、この更新はここまでにします" in text(answer)
    resumed, _ = AUTOMATIC.resolve(stopped, [], source("guard 2"))
    assert resumed.dice_total == 2  # the next period goes on from the die it stopped before


def test_automatic_play_is_on_the_clock_and_has_no_post_by_post_step() -> None:
    assert not AUTOMATIC.immediate and not hasattr(AUTOMATIC, "apply")


# --- assisted play ----------------------------------------------------------------------------------


def test_parse_post_finds_one_template_and_refuses_several() -> None:
    assert ASSISTED.parse_post("がんばれ北海道\ndice1d6=") is None  # a plain die: the dice answer's job
    parsed = post("貼ります\n【通常戦闘ダイス】\n基準『ほっかいどう』\nｄｉｃｅ１ｄ５＝\n1.勝利")
    assert parsed.command == DieTemplate(
        "通常戦闘ダイス", "ほっかいどう", None, 1, 5, 1, options=((1, 1, "勝利"),)
    )
    assert parsed.canonical == "【通常戦闘ダイス】基準『ほっかいどう』 dice1d5="
    blank = post("【戦闘方針ダイス】\n基準『』\ndice1d3=")
    assert blank.command.base is None and blank.canonical == "【戦闘方針ダイス】 dice1d3="
    several = ASSISTED.parse_post("【戦闘方針ダイス】\ndice1d3=\n【通常戦闘ダイス】\ndice1d5=")
    assert isinstance(several, Rejection) and "1つだけ" in several.reason and "2つ" in several.reason


def test_the_right_template_is_rolled_from_the_posts_stream_and_the_next_one_is_named() -> None:
    state = ASSISTED.initial_state(scenario())
    dice = RecordedSource({"br/1/0": [(6, 3), (6, 5)]})  # the purpose the engine names; nothing else
    new, answer = ASSISTED.apply(state, order(post("【都道府県選択ダイス】\ndice2d6=")), dice)
    assert new.battle is not None and new.battle.base == "岩手" and new.dice_total == 1
    body = text(answer)
    assert body.startswith("【都道府県バトロワ】\n")  # the first die comes with the entrants table
    assert "dice2d6=3 5 (8)\n→ 3.岩手 ／ 5.秋田\n【第1戦】\n『岩手』 vs 『秋田』" in body
    assert body.endswith(
        f"{NEXT_TEMPLATE}\n【戦闘方針ダイス】\n基準『岩手』\ndice1d3=\n1.正面\n2.正面\n3.奇襲\n"
        "理由：基準が正面から挑むか奇襲を行うかを決めます"
    )
    third, answer = ASSISTED.apply(
        new,
        order(post("【戦闘方針ダイス】\n基準『岩手』\ndice1d3=")),
        RecordedSource(default=RecordedDice([(3, 1)])),
    )
    assert "参加6" not in text(answer) and "→ 正面" in text(answer) and "【通常戦闘ダイス】" in text(answer)
    assert br.next_die(third).name == "通常戦闘ダイス"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("posted", "explanation"),
    [
        (
            "【通常戦闘ダイス】\n基準『岩手』\ndice1d5=",
            "今振るのは【通常戦闘ダイス】ではなく【戦闘方針ダイス】（dice1d3=）です",
        ),
        ("【戦闘方針ダイス】\n基準『秋田』\ndice1d3=", "の基準は『岩手』です（『秋田』ではありません）"),
        ("【戦闘方針ダイス】\n基準『岩手』\ndice1d6=", "の振り方は dice1d3= です（dice1d6= ではありません）"),
        ("【最強ダイス】\ndice1d3=", "【最強ダイス】というダイスはありません"),
        ("【奇襲判定】\ndice1d2=", "今振るのは【奇襲判定】ではなく【戦闘方針ダイス】（dice1d3=）です"),
        ("【戦闘方針】\n基準『岩手』\ndice1d5=", "の振り方は dice1d3= です（dice1d5= ではありません）"),
        ("【戦闘方針ダイス】\ndice0d3=", "【戦闘方針ダイス】のダイスが振れません"),
    ],
)
def test_a_wrong_template_is_explained_and_changes_nothing(posted: str, explanation: str) -> None:
    state, _ = ASSISTED.apply(
        ASSISTED.initial_state(scenario()),
        order(post("【都道府県選択ダイス】\ndice2d6=")),
        RecordedSource(default=RecordedDice([(6, 3), (6, 5)])),
    )
    before = br.state_to_dict(state)
    template = post(posted)
    same, answer = ASSISTED.apply(state, order(template), no_dice())
    assert same is state and br.state_to_dict(state) == before
    body = text(answer)
    assert explanation in body and body.split("\n")[0] == br.check_template(state, template.command)
    assert body.endswith(
        f"{NEXT_TEMPLATE}\n【戦闘方針ダイス】\n基準『岩手』\ndice1d3=\n1.正面\n2.正面\n3.奇襲"
    )


@pytest.mark.parametrize(
    "posted",
    [
        "【戦闘方針】\n基準『岩手』\ndice1d3=",
        "【方針ダイス】\n基準『岩手』\ndice1d3=",
        "【戦闘方針ダイス】\n基準『岩手県』\ndice1d3=",
        "【戦闘方針ダイス】\n基準「岩手」\ndice1d3=",
    ],
)
def test_a_template_renamed_as_the_page_allows_is_rolled(posted: str) -> None:
    """Seed 000, 使用ダイス一覧: 「名称とかも、各々使いやすいように好きに改変してください」, and 『』 is
    「都道府県名記入用」: a shortened name, or 岩手県 for 岩手, is the die the rules need."""
    state, _ = ASSISTED.apply(
        ASSISTED.initial_state(scenario()),
        order(post("【都道府県選択ダイス】\ndice2d6=")),
        RecordedSource(default=RecordedDice([(6, 3), (6, 5)])),
    )
    new, answer = ASSISTED.apply(state, order(post(posted)), RecordedSource(default=RecordedDice([(3, 1)])))
    assert "【戦闘方針ダイス】\n基準『岩手』\ndice1d3=1 (1)" in text(answer) and "→ 正面" in text(answer)
    assert br.next_die(new).name == "通常戦闘ダイス"  # type: ignore[union-attr]


def test_a_template_pasted_with_other_table_lines_is_rolled_on_the_rules_table_and_says_so() -> None:
    """Seed 000's 使用ダイス一覧 「抜けてたり間違っている可能性もあるので要確認」: lines pasted under the
    die that are not its table do not decide; the answer shows the table it used and says so."""
    state, _ = ASSISTED.apply(
        ASSISTED.initial_state(scenario()),
        order(post("【都道府県選択ダイス】\ndice2d6=")),
        RecordedSource(default=RecordedDice([(6, 3), (6, 5)])),
    )
    pasted = "【戦闘方針ダイス】\n基準『岩手』\ndice1d3=\n1.奇襲\n2.奇襲\n3.奇襲"
    _, answer = ASSISTED.apply(state, order(post(pasted)), RecordedSource(default=RecordedDice([(3, 1)])))
    body = text(answer)
    assert "dice1d3=1 (1)\n1.正面\n2.正面\n3.奇襲\n→ 正面\n" + OTHER_TABLE in body
    right = "【戦闘方針ダイス】\n基準『岩手』\ndice1d3=\n1.正面\n2.正面\n3.奇襲"
    _, answer = ASSISTED.apply(state, order(post(right)), RecordedSource(default=RecordedDice([(3, 1)])))
    assert OTHER_TABLE not in text(answer)


def test_every_template_of_the_seeds_list_carries_its_own_table() -> None:
    """The seed's templates pasted as they are never get the note: their lines are the tables'."""
    seed = next(shared_path("seeds").glob("000_*")).read_text(encoding="utf-8")
    listed = find_die_templates(seed[seed.index("使用ダイス一覧\n\nバトロワ内") :])
    with_lines = [t for t in listed if t.options]
    assert len(with_lines) == 13
    for template in with_lines:
        tables = [
            t
            for t in SEED_TABLES
            if canonical_name(t.name) == canonical_name(template.table) and t.sides == template.sides
        ]
        assert any(t.spans == template.options for t in tables), template


def test_a_group_table_with_the_wrong_plus_one_is_pointed_out() -> None:
    state = prepared(SIX, groups=[["北海道", "青森"]])
    dice = RecordedDice([(6, 1), (6, 3), (3, 1)])  # 北海道 (a pair) picks 岩手, head-on
    state, _ = ASSISTED.apply(
        state, order(post("【都道府県選択ダイス】\ndice2d6=")), RecordedSource(default=dice)
    )
    state, _ = ASSISTED.apply(
        state, order(post("【戦闘方針ダイス】\ndice1d3=")), RecordedSource(default=dice)
    )
    wrong = post("【＜団体戦用＞戦闘ダイス】\n基準『北海道』\n基準側の人数が少ない為、敗北＋1\ndice1d6=")
    same, answer = ASSISTED.apply(state, order(wrong), no_dice())
    assert same is state and "は「基準側の人数が多い為、勝利＋1」の方です" in text(answer)
    right = post("【＜団体戦用＞戦闘ダイス】\n基準『北海道』\n基準側の人数が多い為、勝利＋1\ndice1d6=")
    new, answer = ASSISTED.apply(state, order(right), RecordedSource(default=RecordedDice([(6, 4)])))
    assert "→ 逃走\n『北海道』『青森』は団体で逃走を図る" in text(answer)
    assert f"{NEXT_TEMPLATE}\n【＜団体用＞逃走判定ダイス】" in text(answer) and new.battle is not None


def test_a_wrong_first_post_still_shows_the_entrants_and_the_template_to_start_with() -> None:
    state = ASSISTED.initial_state(scenario())
    same, answer = ASSISTED.apply(state, order(post("【戦闘方針ダイス】\ndice1d3=")), no_dice())
    body = text(answer)
    assert same is state and body.startswith("【都道府県バトロワ】\n") and "参加6" in body
    assert body.endswith(f"{NEXT_TEMPLATE}\n【都道府県選択ダイス】\ndice2d6=")


def test_posts_after_the_end_are_told_the_winner() -> None:
    state = ASSISTED.initial_state(scenario(["東京", "大阪"]))
    final = state
    for label in range(50):
        request = br.next_die(final)
        if request is None:
            break
        final, _ = ASSISTED.apply(
            final, order(post(f"【{request.name}】\n{request.command}")), source(str(label))
        )
    assert final.ending is not None
    same, answer = ASSISTED.apply(final, order(post("【都道府県選択ダイス】\ndice2d2=")), no_dice())
    assert same is final and "既に決着" in text(answer) and "【優勝】" in text(answer)


def test_resolve_replays_template_posts_in_order() -> None:
    state = ASSISTED.initial_state(scenario())
    orders = [
        order(post("【都道府県選択ダイス】\ndice2d6="), 5),
        order(post("【奇襲判定ダイス】\ndice1d2="), 6),
        order(post("【戦闘方針ダイス】\ndice1d3="), 7),
    ]
    new, answer = ASSISTED.resolve(
        state, orders, RecordedSource(default=RecordedDice([(6, 2), (6, 4), (3, 3)]))
    )
    body = text(answer)
    assert (
        body.startswith(">>5\n") and "\n>>6\n今振るのは【奇襲判定ダイス】ではなく【戦闘方針ダイス】" in body
    )
    assert "\n>>7\n【戦闘方針ダイス】" in body and br.next_die(new).name == "奇襲判定ダイス"  # type: ignore[union-attr]


# --- the mastermind stays secret ----------------------------------------------------------------------


def _mastermind_scenario() -> dict[str, object]:
    return scenario(SIX, mastermind={"enabled": True, "lives": 3})


def _public_until_reveal(answers: list[Report], name: str) -> None:
    for answer in answers:
        assert "secret" not in answer.meta
        body = render_body(answer)
        if "【黒幕判明】" in body:
            return
        for word in (*SECRET_WORDS, f"黒幕『{name}』"):
            assert word not in body, (word, body)
    raise AssertionError("the mastermind was never revealed")


def test_automatic_play_never_posts_the_mastermind_before_the_final() -> None:
    state = AUTOMATIC.initial_state(_mastermind_scenario())
    answers = []
    for period in range(1, 200):
        state, answer = AUTOMATIC.resolve(state, [], source(f"mm {period}"))
        answers.append(answer)
        if state.ending is not None:
            break
    assert state.mastermind is not None and state.mastermind.name and state.ending is not None
    assert "黒幕陣営は非公開のダイスで決定しました" in render_body(answers[0])
    _public_until_reveal(answers, state.mastermind.name)
    assert (
        f"（GM）黒幕『{state.mastermind.name}』" in br.gm_report(state).plain
    )  # kept for the GM, in the state


def test_assisted_play_rolls_the_secret_set_up_itself_and_keeps_it_out_of_answers() -> None:
    state = ASSISTED.initial_state(_mastermind_scenario())
    wrong, answer = ASSISTED.apply(state, order(post("【黒幕決定ダイス】\ndice1d6=")), source("first"))
    assert wrong is state and state.mastermind is not None and state.mastermind.name == ""
    assert "今振るのは【黒幕決定ダイス】ではなく【都道府県選択ダイス】" in text(answer)
    answers = [answer]
    for number in range(1, 400):
        if state.ending is not None:
            break
        state, answer = ASSISTED.apply(state, order(post(due_template(answer))), source(f"post {number}"))
        answers.append(answer)
    assert state.ending is not None and state.mastermind is not None and state.mastermind.name
    assert "黒幕陣営は非公開のダイスで決定しました" in render_body(answers[1])
    assert "（GM）" not in render_body(answers[0])  # the wrong post echoes only its own table name
    _public_until_reveal(answers[1:], state.mastermind.name)


def test_secret_dice_roll_on_their_own_streams() -> None:
    """The set-up dice use purposes under secret/, never the streams of the public dice."""
    state = AUTOMATIC.initial_state(_mastermind_scenario())
    recorded = RecordedSource(
        {
            "secret/br/setup/0": [(6, 2)],
            "secret/br/setup/1": [(5, 1)],
            "br/1/0": [(6, 1), (6, 4)],
            "br/1/1": [(3, 1)],
            "br/1/2": [(5, 3)],
        }
    )
    after, answer = AUTOMATIC.resolve(state, [], recorded)
    assert (
        after.mastermind is not None and after.mastermind.name == "青森" and after.mastermind.camp_size == 1
    )
    assert after.battles == 1 and "青森" in text(answer) and "黒幕『青森』" not in text(answer)


def test_status_shows_survivors_and_groups_without_the_hidden_mastermind() -> None:
    state = prepared(SIX, dead=["山形"], groups=[["北海道", "青森"]])
    body = AUTOMATIC.status(state).plain
    assert body.startswith("【都道府県バトロワ 状況（第0戦まで）】\n【生き残り表】")
    assert "1北海道[1] 2青森[1]" in body and "山形" not in body and "団体1：『北海道』『青森』" in body
    assert body.endswith("残り5\n次のダイス：【都道府県選択ダイス】")
    hidden = AUTOMATIC.initial_state(_mastermind_scenario())
    assert "開始前の準備ダイス" in ASSISTED.status(hidden).plain
    hidden, _ = AUTOMATIC.resolve(hidden, [], source("status"))
    assert not any(word in AUTOMATIC.status(hidden).plain for word in SECRET_WORDS)


# --- GM settings and the dict form --------------------------------------------------------------------


def test_gm_settings_change_a_copy_and_bad_ones_say_why() -> None:
    state = AUTOMATIC.initial_state(scenario())
    faster = AUTOMATIC.set_value(state, "options.battles_per_period", "３")
    assert faster.options.battles_per_period == 3 and state.options.battles_per_period == 1
    assert AUTOMATIC.set_value(state, "options.summary_every", "0").options.summary_every == 0
    for path, value, message in [
        ("options.battles_per_period", "0", "1～100の整数"),
        ("options.summary_every", "たくさん", "0～1000の整数"),
        ("options.title", "x", "設定できません"),
        ("teams.1.name", "赤組", "タッグマッチではない"),
        ("level", "9", "設定できるもの: teams.<番号>.name、newcomer、options.battles_per_period"),
    ]:
        with pytest.raises(ValueError, match=message):
            AUTOMATIC.set_value(state, path, value)


def test_tag_team_names_are_set_by_number_or_name() -> None:
    state = AUTOMATIC.initial_state(scenario(tag_match={"enabled": True}))
    with pytest.raises(ValueError, match="まだ結成されていません"):
        AUTOMATIC.set_value(state, "teams.1.name", "赤組")
    while not state.setup_done:
        state, _, _, _ = br.play_step(state, source(f"tag {state.dice_total}"))
    named = AUTOMATIC.set_value(state, "teams.1.name", "赤組")
    renamed = ASSISTED.set_value(named, "teams.赤組.name", "紅組")
    assert "紅組" in AUTOMATIC.status(renamed).plain and "チーム1" not in AUTOMATIC.status(renamed).plain
    with pytest.raises(ValueError, match="見つかりません"):
        AUTOMATIC.set_value(state, "teams.9.name", "青組")


def test_states_survive_the_json_round_trip_the_bot_stores() -> None:
    state = AUTOMATIC.initial_state(_mastermind_scenario())
    state, _ = AUTOMATIC.resolve(state, [], source("json"))
    data = json.loads(json.dumps(AUTOMATIC.state_to_dict(state), ensure_ascii=False))
    back = ASSISTED.state_from_dict(data)
    assert ASSISTED.state_to_dict(back) == AUTOMATIC.state_to_dict(state)
    with pytest.raises(ValueError, match="状態データ"):
        AUTOMATIC.state_from_dict({"version": 99})


def test_the_survivor_table_is_posted_once_a_period_naming_all_who_fell() -> None:
    import re

    state = AUTOMATIC.initial_state(
        scenario([f"県{n}" for n in range(1, 31)], options={"battles_per_period": 10})
    )
    state, _ = AUTOMATIC.resolve(state, [], source("period 1"))
    for period in range(2, 5):
        state, answer = AUTOMATIC.resolve(state, [], source(f"period {period}"))
        body = text(answer)
        fell = re.findall(r"^『(.+?)』脱落", body, flags=re.M)
        assert body.count("【生き残り表】") == (1 if fell else 0), body
        if fell:
            named = re.search(r"^今回の脱落：(.+)$", body, flags=re.M)[1]
            assert re.findall(r"『(.+?)』", named) == fell
            assert body.rindex("【生き残り表】") > body.rindex("』脱落")  # after the period's last fall
