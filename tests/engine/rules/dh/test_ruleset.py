"""DH's face to the bot and the tools: 設定, 状態, the end of the game, ORDERS.txt, HELP, verify and
`threadgm adjudicate` / `help`."""

from __future__ import annotations

import dataclasses
import importlib
import json
from pathlib import Path

import pytest
import regex
from click.testing import CliRunner

from engine.rng import SeededSource
from engine.rules import REGISTRY
from engine.rules.dh.help import HELP, OPTION_NAMES, SEED_NOTE
from engine.rules.dh.ruleset import RULESET
from engine.rules.dh.state import Options
from engine.ruleset import RulesetError, result_data
from poster.markup import render_body
from scheduler import main
from tests.engine.rules.dh.helpers import ARENA, EXAMPLE, arena

KEY = bytes(range(32))


def test_the_game_is_registered() -> None:
    assert REGISTRY.get("dh") is RULESET and REGISTRY.by_name("ダンゲロス・ハルマゲドン") is RULESET


def test_gm_settings() -> None:
    state = arena()
    assert RULESET.set_value(state, "late", "1分15秒").late == 75
    assert RULESET.set_value(state, "late", "90").late == 90
    assert RULESET.set_value(state, "dp.青", "3").dp["青"] == 3
    assert RULESET.set_value(state, "characters.アリス.hp", "2").characters["アリス"].hp == 2
    assert RULESET.set_value(state, "characters.アリス.square", "ｂ３").characters["アリス"].square == "B3"
    dead = RULESET.set_value(state, "characters.アリス.hp", "0").characters["アリス"]
    assert not dead.alive and dead.square is None
    conceded = RULESET.set_value(state, "winner", "青")
    assert conceded.winner == "青" and RULESET.finished(conceded) and not RULESET.finished(state)
    assert state.late is None and state.characters["アリス"].hp == 5  # the state itself is not changed


@pytest.mark.parametrize(
    ("path", "value", "reason"),
    [
        ("late", "すぐ", "秒数"),
        ("winner", "黄", "勝者は"),
        ("characters.幽霊.hp", "1", "いません"),
        ("characters.アリス.fs", "1", "設定できません"),
        ("characters.アリス.square", "C4", "壁"),
        ("colour", "red", "設定できるもの"),
        # Issue 24: ፩ (&#4969;), ٣ and 4,400 digits went to int(): a ValueError of Python's or a
        # huge integer in the state; now the reason names the field.
        ("characters.アリス.hp", "\u1369", "数字（0～9）で書いて"),  # ፩, as &#4969; in a browser's post
        ("characters.アリス.hp", "٣", "数字（0～9）で書いて"),
        ("characters.アリス.hp", "9" * 4400, "大きすぎます"),
        ("characters.アリス.hp", "-1", "数字（0～9）で書いて"),
        ("dp.赤", "1" * 50, "大きすぎます"),
        ("late", "٣秒", "秒数で書いて"),
        ("late", "9" * 4400, "大きすぎます"),
    ],
)
def test_settings_that_cannot_be_made(path: str, value: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        RULESET.set_value(arena(), path, value)


def test_a_setting_names_a_character_as_lines_do() -> None:
    """A scenario name NFKC changes is kept in NFKC; the GM types it as the scenario wrote it."""
    state = RULESET.initial_state(
        RULESET.read_scenario(ARENA.read_text("utf-8").replace('name = "アリス"', 'name = "ＡＬＩＣＥⅡ"'))
    )
    assert RULESET.set_value(state, "characters.ＡＬＩＣＥⅡ.hp", "３").characters["ALICEII"].hp == 3


def test_status_posts_the_board_and_the_table() -> None:
    text = render_body(RULESET.status(arena()))
    assert "【DH フェイズ1 第1ターン先手（赤）】" in text and "【MAP】" in text
    assert "C　アリス　□　□　■　□　□　カイ" in text
    assert "名前　陣営　位置　攻撃　防御　体力　精神　状態" in text and "ギン　青　控え" in text
    assert (
        "【能力】\n名前　性別　FS　能力名　スタイル　発動　成功\nアリス　女　0　火球　アクティブ　70　100"
        in text
    )
    assert "エマ　女　0　恫喝　アクティブ　80　精神" in text and "ギン　男　0　-　-　-　-" in text


def test_orders_file_lines_may_name_who_posted_them() -> None:
    state = arena()
    orders = RULESET.read_orders(state, "# comment\nアリス C3移動\n[◆AO00000000] カイ C5移動\n\n")
    assert [(o.author, o.gm, o.player, o.canonical) for o in orders] == [
        ("GM", True, "アリス", "アリス C3移動 待機"),  # the GM's file vouches for a line without a header
        ("◆AO00000000", False, "カイ", "カイ C5移動 待機"),  # checked: 青 does not submit in 赤's phase
    ]
    _, outcome = RULESET.resolve(state, orders, SeededSource(KEY))
    actions = outcome.meta["result"]["actions"]
    assert actions["アリス"]["to"] == "C3" and actions["カイ"]["cancelled"] == "操作権がないため無効（条件2）"
    with pytest.raises(RulesetError, match="2行目"):
        RULESET.read_orders(state, "アリス C3移動\nアリス 移動")


def test_help_names_the_rules_of_the_seed_and_every_default() -> None:
    seed_names = (
        "行動提出",
        "行動の前提条件",
        "移動",
        "動作",
        "スタメン",
        "戦線離脱",
        "ZoC",
        "通常攻撃",
        "対象決定",
        "命中判定",
        "ダメージ処理",
        "特殊能力の使用",
        "発動判定",
        "成功判定",
        "空撃ち",
        "アクティブ",
        "パッシブ",
        "カウンター",
        "カウンター待受状態",
        "フィールド",
        "効果の適用",
        "制約の支払い・能力休み",
        "能力休み",
        "再行動",
        "発動処理",
        "待機",
        "DP",
        "精神",
    )
    assert [name for name in seed_names if name not in HELP] == []
    # Every option by the name players read (a scenario key is the GM's, in the template's comment).
    options = {f.name for f in dataclasses.fields(Options)}
    assert set(OPTION_NAMES) == options
    template = EXAMPLE.read_text("utf-8")
    for key, name in OPTION_NAMES.items():
        assert name in HELP, key
        assert regex.search(rf"^{key} = .*#.*{name}", template, regex.M), key


def test_no_scenario_key_or_program_value_reaches_help() -> None:
    """Issue 25: no config key, path or Python value in a post; ヘルプ and ヘルプ全文 are posts."""
    for text in (HELP, "\n".join(RULESET.summary())):
        assert not regex.search(r"[a-z]+_[a-z_]+|\b(?:true|false|None|True|False)\b|\[\[|\.toml|=\[", text)
        keys = {f.name for f in dataclasses.fields(Options)} | {
            "trips",
            "targets",
            "rest",
            "wait",
            "include_own",
        }
        assert not [key for key in keys if regex.search(rf"(?<![A-Za-z]){key}(?![A-Za-z])", text)]


def test_help_states_the_lines_and_corrections() -> None:
    assert "名前: D3で能力使用 対象は相手" in HELP and "Ｃ４＝C4" in HELP
    assert ">>12 名前 D1移動" in HELP and "2行目（違う行動）は無効" in HELP
    assert "状態 で盤面と一覧を表示します" in HELP and "このままなら待機" in HELP
    assert "Left out" in SEED_NOTE


def _phase(text: str, seed: bytes = KEY):
    state = arena()
    state.characters["カイ"].square = "C3"
    return RULESET.resolve(state, RULESET.read_orders(state, text), SeededSource(seed))


def test_verify_recomputes_every_die_from_the_result_and_from_the_posted_report() -> None:
    _, outcome = _phase("アリス 能力 対象はカイ\nボブ A2移動")
    result = result_data(outcome)
    assert any(check["face"] is not None for check in result["checks"].values())
    assert RULESET.verify_period(KEY, result) == []
    posted = RULESET.read_period(render_body(outcome).split("\n"))
    assert posted["checks"] and RULESET.verify_period(KEY, posted) == []
    assert RULESET.verify_period(bytes(32), posted)  # another key gives other faces


def test_verify_catches_a_changed_face_and_a_changed_verdict() -> None:
    _, outcome = _phase("アリス 能力 対象はカイ")
    purpose, check = next((p, c) for p, c in result_data(outcome)["checks"].items() if c["face"])
    forged = {"checks": {purpose: {**check, "face": check["face"] % 100 + 1}}}
    assert "出目が再計算と一致しません" in RULESET.verify_period(KEY, forged)[0]
    flipped = {"checks": {purpose: {**check, "ok": not check["ok"]}}}
    assert "成否が" in RULESET.verify_period(KEY, flipped)[0]
    unreadable = RULESET.read_period(["【判定】", "dh/1/アリス/1 d100=ほげ", "鍵 ピリオド1: 00"])
    assert RULESET.verify_period(KEY, unreadable) == ["判定の行「dh/1/アリス/1 d100=ほげ」が読めません"]


def test_adjudicate_and_help_from_the_cli(tmp_path: Path) -> None:
    orders = tmp_path / "ORDERS.txt"
    orders.write_text("会長 C3移動\n書記: B3で能力使用 対象はB3\n", "utf-8")
    saved = tmp_path / "state.json"
    args = ["adjudicate", "dh", "--scenario", str(EXAMPLE), "--orders", str(orders), "--seed", "4"]
    result = CliRunner().invoke(main, [*args, "--save-state", str(saved), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["actions"]["会長"]["to"] == "C3" and data["state"]["phase"] == 2
    randoms = tmp_path / "RANDOMS.txt"
    randoms.write_text("100:12\n", "utf-8")
    replay = CliRunner().invoke(
        main,
        ["adjudicate", "dh", "--scenario", str(EXAMPLE), "--orders", str(orders), "--randoms", str(randoms)],
    )
    assert replay.exit_code == 0 and "発動判定 12/80 成功" in replay.output, replay.output
    assert CliRunner().invoke(main, ["help", "dh"]).output.startswith("【ダンゲロス・ハルマゲドン")
    assert ARENA.is_file()


def test_the_seed_note_names_functions_that_exist() -> None:
    named = [
        pair for pair in regex.findall(r"\b([a-z]+)\.([a-z_]+)\b", SEED_NOTE) if pair[1] not in ("py", "md")
    ]
    assert len(named) >= 15
    for module, function in named:
        assert hasattr(importlib.import_module(f"engine.rules.dh.{module}"), function), (module, function)


def test_the_opening_names_the_options_in_force_and_the_order_forms() -> None:
    state = arena()
    state.options.first_penalty = True
    phrases = RULESET.rules_in_force(state)
    assert phrases[:3] == ["先手 赤・後手 青", "最終ターン 8", "先手ペナルティ"]
    assert "増援 青 第2ターン 1人" in phrases and "遅刻 最初1人＋1分ごと1人" in phrases
    assert "名前: C3 攻撃 相手" in RULESET.SUMMARY


def test_the_opening_names_the_reading_of_a_second_line() -> None:
    """Issue 28: the option is listed in the opening's 設定 line, as HELP names it."""
    state = arena()
    assert (
        "同じキャラクターの2行目（違う行動）は無効・直すときは >>番号 を付けて書く"
        in RULESET.rules_in_force(state)
    )
    state.options.second_line = "last"
    assert "同じキャラクターは最後の行が有効" in RULESET.rules_in_force(state)
    with pytest.raises(RulesetError, match="second_line は void・last"):
        RULESET.read_scenario(ARENA.read_text("utf-8") + '\n[options]\nsecond_line = "first"\n')


def test_the_opening_names_every_option_the_scenario_changed() -> None:
    state = arena()
    state.options.move, state.options.zoc_cancels, state.options.failed_activation_pays = 3, True, True
    state.options.mental_rates, state.options.stat_budget = [100, 40], 30
    phrases = RULESET.rules_in_force(state)
    for phrase in (
        "移動力 3",
        "ZoCで行動キャンセル",
        "発動失敗でも制約・能力休み",
        "精神攻撃の成功率 精神0→100%・精神1→40%",
        "ステータス上限 30",
    ):
        assert phrase in phrases
    assert not any("移動力" in phrase or "ZoC" in phrase for phrase in RULESET.rules_in_force(arena()))
