"""The face to the bot: the template plays as written, the state folds, 設定, HELP names everything."""

from __future__ import annotations

import pytest

from engine.rules import REGISTRY
from engine.rules.dystopia import RULESET
from engine.rules.dystopia.grammar import BP_USES, GM_WORDS, PLAYER_WORDS
from engine.ruleset import Rejection, RulesetError
from tests.engine.rules.dystopia.helpers import AKIRA, GM, d6, play, scenario, start


def test_registered_and_the_template_loads_and_plays() -> None:
    assert REGISTRY.get("dystopia") is RULESET
    text = RULESET.template()
    assert text is not None
    state = RULESET.initial_state(RULESET.read_scenario(text))
    assert set(state.sheets) == {"アキラ", "ユイ", "クロウ"} and set(state.handouts) == {"アキラ", "ユイ"}
    faces = [(256, 7)] * 64
    # The template as written refuses strangers: its PCs have no owner until a player's sheet claims one.
    state, answer = play(state, "アキラ: 〈反射〉+2 目標12", "誰か", faces)
    assert "アキラにはまだ持ち主がいません" in answer.plain
    state, answer = play(state, "【キャラシート】\n名前: アキラ\nHP: 99", AKIRA)
    assert "キャラシートを更新しました：アキラ（◆AKIRA）" in answer.plain
    assert "変更しなかった項目：HP" in answer.plain and state.sheets["アキラ"].hp == 30
    _, answer = play(state, "アキラ: 肉体判定", "誰か")
    assert "アキラはあなたのキャラクターではありません" in answer.plain
    state, answer = play(state, "〈反射〉+2 目標12", AKIRA, d6(3, 4, 4))
    assert "(3D6+9>=12) ＞ 11[3,4,4]+9 ＞ 20 ＞ 成功" in answer.plain
    assert state.sheets["アキラ"].overrides == {"回避": {"F": 4}}


def test_state_round_trips() -> None:
    state, _ = play(start(), "対決 ユイ 反射", AKIRA, d6(1, 2, 3, 4, 5, 6))
    state, _ = play(state, "ダメージ ユイ 30", GM)
    data = RULESET.state_to_dict(state)
    assert RULESET.state_to_dict(RULESET.state_from_dict(data)) == data


def test_several_commands_in_one_post_each_answered_and_errors_do_not_stop_the_rest() -> None:
    state, answer = play(start(), "肉体判定\n飛行判定\nMP消費 2", AKIRA, d6(1, 2, 3))
    assert "「肉体判定」" in answer.plain and "「MP消費 2」" in answer.plain
    assert state.sheets["アキラ"].mp == 8
    assert isinstance(RULESET.parse_post("対決 だれか"), Rejection)
    assert RULESET.parse_post("こんばんは\n> 肉体判定") is None


def test_settings() -> None:
    state = RULESET.set_value(start(), "sheets.アキラ.hp", "12")
    state = RULESET.set_value(state, "sheets.アキラ.connections.ユイ.strength", "７")
    state = RULESET.set_value(state, "options.todome", "false")
    state = RULESET.set_value(state, "scene", "クライマックス")
    state = RULESET.set_value(state, "emotion_left.アキラ", "2")
    assert state.sheets["アキラ"].hp == 12 and state.sheets["アキラ"].connection("ユイ").strength == 7
    assert (
        not state.options.todome and state.scene == "クライマックス" and state.emotion_left == {"アキラ": 2}
    )
    for path, value in (
        ("sheets.アキラ.connections.ユイ.strength", "11"),
        ("options.nothing", "1"),
        ("foo", "1"),
    ):
        with pytest.raises(RulesetError):
            RULESET.set_value(start(), path, value)


def test_help_names_every_command_rule_and_default() -> None:
    text = RULESET.HELP + RULESET.SUMMARY
    for word in (*BP_USES, *GM_WORDS, *(w for w in PLAYER_WORDS if w != "とどめを刺す")):
        assert word in text, word
    for rule in (
        "3D6＋能力値＋修正",
        "初期のC値は18、F値は5",
        "C値の下限値は最低値を、F値の上限値は最高値を採用",
        "固定された値には操作する効果は影響しない",
        "同値は受動側",
        "行動放棄（コスト：10）",
        "最後列",
        "リザルトフェイズ",
        "とどめを刺す",
        "《カバーリング》",
        "合計上限値21",
        "6枠",
        "既定6回",
        "1D10",
        "茶番判定の防止",
        "SL合計＝CL×5+15",
        "素手・一般服",
        "130ND",
        "40ND",
        "代償：なし",
        "まだ扱わないもの",
    ):
        assert rule in text, rule


def test_status_shows_the_party() -> None:
    state, _ = play(start(), "ダメージ ユイ 30", GM)
    text = RULESET.status(state).plain
    assert "ユイ 0/20 10/10 8/8 戦闘不能、最後列" in text
    assert "裏ハンドアウト アキラ：未公開" in text
    assert "ユイの感情：アキラ 信頼5、ケン 友情3" in text
    state, _ = play(start(), "BP消費 2 ケン", "ユイの中の人◆YUI")  # (ユイ down could not)
    assert "ケン 友情3（使用済み）" in RULESET.status(state).plain
    assert any("とどめ" in rule for rule in RULESET.rules_in_force(state))


def test_a_misspelt_scenario_key_is_an_error_not_ignored() -> None:
    from tests.engine.rules.dystopia.helpers import scenario

    with pytest.raises(RulesetError, match="シナリオに知らない項目「todomee」があります"):
        RULESET.initial_state(scenario(todomee=False))
    data = scenario()
    data["pcs"][0]["hpp"] = 3
    with pytest.raises(RulesetError, match="アキラに知らない項目「hpp」があります（「hp」のことですか？"):
        RULESET.initial_state(data)
    data = scenario()
    data["pcs"].append(dict(data["pcs"][0]))
    with pytest.raises(RulesetError, match="2人います"):
        RULESET.initial_state(data)


READING_OPTIONS = (
    "bonus_partial_warning",
    "fixed_cf_wins",
    "futou_refuse_above",
    "combat_effect_timing",
    "evade_todome",
)


def test_every_reading_option_is_in_help_the_template_the_settings_and_the_opening() -> None:
    from engine.rng import SeededSource

    template = RULESET.template() or ""
    settable = " ".join(setting.help for setting in RULESET.settings)
    for name in READING_OPTIONS:
        assert f"{name} = " in template and name in settable, name
    state = start()
    default = "／".join(RULESET.rules_in_force(state))
    for option, phrase in (
        ("bonus_partial_warning", "振り残し 注意だけ"),
        ("fixed_cf_wins", "最低C・最高Fに含める"),
        ("futou_refuse_above", "不撓不屈 受け付けない"),
        ("combat_effect_timing", "解除タイミングがあれば解除"),
        ("evade_todome", "とどめを無効にできる"),
    ):
        assert phrase not in default, option
        flipped = RULESET.set_value(state, f"options.{option}", str(not getattr(state.options, option)))
        _, opening = RULESET.opening(flipped, SeededSource(b"k" * 32))
        line = next(text for text in opening.plain.split("\n") if text.startswith("設定: "))
        assert phrase in line, option


def test_no_scenario_key_or_program_value_reaches_help_or_the_opening() -> None:
    """Issue 25: no config key, path or Python value in a post; ヘルプ, ヘルプ全文 and the opening are posts.
    Every option is named as players read it, and the template names it beside its key."""
    import dataclasses
    import re

    from engine.rng import SeededSource
    from engine.rules.dystopia.help import OPTION_NAMES
    from engine.rules.dystopia.state import Options

    _, opening = RULESET.opening(start(), SeededSource(b"k" * 32))
    keys = {f.name for f in dataclasses.fields(Options)} | {"gm_trips", "owner", "gm"}
    for text in (RULESET.HELP, "\n".join(RULESET.summary()), opening.plain):
        assert not re.search(
            r"[a-z]+_[a-z_]+|\b(?:true|false|None|True|False)\b|\[\[|\.toml|\.json|=\[", text
        )
        assert not [key for key in keys if re.search(rf"(?<![A-Za-z]){key}(?![A-Za-z])", text)]
    assert set(OPTION_NAMES) == {f.name for f in dataclasses.fields(Options)}
    template = RULESET.template() or ""
    for key, name in OPTION_NAMES.items():
        assert name in RULESET.HELP or key == "title" or key == "dice", key
        assert re.search(rf"^{key} = .*#.*{re.escape(name)}", template, re.M) or (
            key == "sheet_fields" and f"# {name}" in template
        ), key


def test_the_gm_is_the_configurations_only_an_old_scenario_gm_names_nobody() -> None:
    """One place for the GM's trip (issue 25): a scenario's `gm` (older scenarios had one) gives no
    GM power — only the configuration's gm_trips does (the referee marks such a post `Order.gm`)."""
    state = RULESET.initial_state({**scenario(), "gm": ["◆AKIRA"]})
    state.committed = True  # the handouts' commitments are not what this test is about
    _, answer = play(state, "シーン ドラマ", AKIRA, gm_trips=())
    assert "シーンはGMだけが使えます" in answer.plain
    _, answer = play(state, "シーン ドラマ", GM)
    assert "シーン1：ドラマ" in answer.plain


def test_every_character_is_a_seat_and_only_its_owner_or_a_gm_acts_for_it() -> None:
    from engine.ruleset import Author

    state = start()
    assert set(RULESET.seats(state)) == {"アキラ", "ユイ", "ケン", "クロウ"}
    akira, stranger, gm = Author.of(AKIRA), Author.of("通りすがり"), Author.of(GM, gm=True)
    assert RULESET.may_act_for(state, akira, "アキラ") and not RULESET.may_act_for(state, akira, "ユイ")
    assert not RULESET.may_act_for(state, akira, "クロウ") and RULESET.may_act_for(state, gm, "クロウ")
    assert not any(RULESET.may_act_for(state, stranger, seat) for seat in RULESET.seats(state))


def test_sheet_fields_must_name_fields_of_the_sheet() -> None:
    with pytest.raises(RulesetError, match="シナリオの sheet_fields の 好物 はシートの項目ではありません"):
        RULESET.initial_state({"sheet_fields": ["種族", "好物"]})
    assert (
        RULESET.initial_state({"sheet_fields": ["種族", "能力値", "HP"]}).options.sheet_fields[1] == "能力値"
    )


def test_the_full_help_shows_players_no_program_text() -> None:
    """ヘルプ全文 is posted to strangers: it names the ココフォリア JSON in words, without a JSON repr the
    leaks watch takes for the program's."""
    from engine.rules.dystopia.help import HELP
    from tests.leaks_watch import leaks

    assert leaks(HELP) == []


def test_a_setting_names_options_as_the_thread_does_and_its_refusal_shows_no_program_names() -> None:
    """The GM may write an option by the name HELP and the opening give it, and a 設定 the game cannot
    take is refused in words the table reads (no `emotion_left`, no `tie_stat`)."""
    import pytest

    from engine.rules.dystopia.state import DystopiaError
    from engine.ruleset import RulesetError
    from tests.leaks_watch import leaks

    state = RULESET.set_value(start(), "options.とどめを刺す", "false")
    state = RULESET.set_value(state, "options.感情ロールの回数", "3")
    state = RULESET.set_value(state, "感情ロールの残り.アキラ", "2")
    assert (
        not state.options.todome and state.options.emotion_rolls == 3 and state.emotion_left == {"アキラ": 2}
    )
    for path in ("foo", "options.foo", "options.同じカウントで比べる能力値"):
        with pytest.raises((DystopiaError, RulesetError)) as refused:
            RULESET.set_value(state, path, "1")
        assert leaks(str(refused.value)) == [], refused.value


def test_a_particle_after_a_characters_name_still_names_it() -> None:
    """`ダメージ ユイに 8` is ユイ's damage; a name that is not there is still answered with the names."""
    import pytest

    from engine.rules.dystopia.state import DystopiaError

    state = start()
    assert state.sheet("ユイに") is state.sheets["ユイ"] and state.sheet("ユイへ") is state.sheets["ユイ"]
    with pytest.raises(DystopiaError, match="「ユイら」というキャラクターはいません"):
        state.sheet("ユイら")
