"""Scenarios of the 都道府県バトロワ: the shipped 47 prefectures, a GM's own TOML, and clear messages for
every mistake."""

from __future__ import annotations

import pytest

from engine.rules import battle_royale as br
from engine.rules.battle_royale.scenario import (
    ScenarioError,
    build_scenario,
    default_scenario,
    parse_scenario_toml,
)
from tests.conftest import FIXTURES

SCENARIOS = FIXTURES / "battle_royale" / "scenarios"

JIS = [
    "北海道",
    "青森",
    "岩手",
    "宮城",
    "秋田",
    "山形",
    "福島",
    "茨城",
    "栃木",
    "群馬",
    "埼玉",
    "千葉",
    "東京",
    "神奈川",
    "新潟",
    "富山",
    "石川",
    "福井",
    "山梨",
    "長野",
    "岐阜",
    "静岡",
    "愛知",
    "三重",
    "滋賀",
    "京都",
    "大阪",
    "兵庫",
    "奈良",
    "和歌山",
    "鳥取",
    "島根",
    "岡山",
    "広島",
    "山口",
    "徳島",
    "香川",
    "愛媛",
    "高知",
    "福岡",
    "佐賀",
    "長崎",
    "熊本",
    "大分",
    "宮崎",
    "鹿児島",
    "沖縄",
]


def test_default_scenario_is_the_47_prefectures_in_jis_order() -> None:
    state = br.initial_state({})
    assert [p.name for p in state.roster] == JIS
    assert [p.code for p in state.roster] == [f"{n:02d}" for n in range(1, 48)]
    regions = {p.name: p.region for p in state.roster}
    assert regions["北海道"] == "北海道" and regions["東京"] == "関東" and regions["沖縄"] == "九州・沖縄"
    assert regions["新潟"] == "中部" and regions["三重"] == "近畿" and regions["山口"] == "中国"
    assert len(set(regions.values())) == 8
    assert state.table == JIS and state.setup_done
    request = br.next_die(state)
    assert request is not None and request.command == "dice2d47="


def test_default_scenario_options_are_the_documented_defaults() -> None:
    options = build_scenario(default_scenario()).options
    assert options.renumber_after_dead_picks == 3 and options.summary_every == 10
    assert not (options.mastermind or options.revival or options.tag_match)
    assert options.mastermind_lives == 10 and options.mastermind_camp_die == 5
    assert default_scenario() is not default_scenario()  # a fresh dict each time: callers may change it


def test_a_gm_scenario_regroups_regions_and_sets_options() -> None:
    data = parse_scenario_toml((SCENARIOS / "tohoku_revival.toml").read_text(encoding="utf-8"))
    built = build_scenario(data)
    assert built.options.title == "東日本バトロワ" and built.options.revival_representatives == 1
    assert {p.name: p.region for p in built.roster}["秋田"] == "北"
    state = br.initial_state(data)
    request = br.next_die(state)
    assert request is not None and request.name == "地区代表選出ダイス" and request.sides == 3


def test_options_merge_over_the_default_roster() -> None:
    state = br.initial_state({"mastermind": {"enabled": True, "lives": 5}})
    assert len(state.roster) == 47 and state.mastermind is not None and state.mastermind.lives == 5
    request = br.next_die(state)
    assert request is not None and request.secret and request.name == "黒幕決定ダイス" and request.sides == 47


def test_every_mistake_is_listed_at_once_in_japanese() -> None:
    data = parse_scenario_toml((SCENARIOS / "broken.toml").read_text(encoding="utf-8"))
    with pytest.raises(ScenarioError) as caught:
        br.initial_state(data)
    problems = caught.value.problems
    text = str(caught.value)
    assert text.startswith("シナリオに誤りがあります")
    expected = [
        "知らない項目「titel」",
        "[options] summary_every は0～1000の整数",
        "[mastermind] enabled は true か false",
        "[mastermind] lives は1～99の整数",
        "都道府県名「東京」が二度あります",
        "code「13」が二度あります",
        "3番目の [[prefectures]] に name（都道府県名）がありません",
        "[regions] 関東 の「千葉」は参加都道府県にありません",
    ]
    for part in expected:
        assert any(part in problem for problem in problems), (part, problems)


@pytest.mark.parametrize(
    ("scenario", "message"),
    [
        (
            {"tag_match": {"enabled": True}, "mastermind": {"enabled": True}},
            "タッグマッチは黒幕・地区復活と同時には使えません",
        ),
        ({"prefectures": [{"name": "東京"}]}, "2名以上必要"),
        ({"prefectures": [{"name": "東京"}, {"name": "千葉"}], "mastermind": {"enabled": True}}, "3名以上"),
        ({"prefectures": [{"name": "東京"}, {"name": "千葉"}], "tag_match": {"enabled": True}}, "3名以上"),
        (
            {"prefectures": [{"name": "東京"}, {"name": "千葉"}], "revival": {"enabled": True}},
            "地区（region）が必要",
        ),
        (
            {
                "prefectures": [{"name": "東京", "region": "関東"}, {"name": "千葉", "region": "関東"}],
                "revival": {"enabled": True, "representatives": 1},
            },
            "2名以上必要です（今は1名）",
        ),
        ({"prefectures": []}, "1件以上"),
        ({"prefectures": [{"name": "『東京』"}, {"name": "千葉"}]}, "『』や改行を含まない"),
        ({"prefectures": [{"name": "東京", "color": "red"}, {"name": "千葉"}]}, "知らない項目「color」"),
        ({"regions": {"関東": ["東京"], "首都圏": ["東京"]}}, "両方にあります"),
        ({"regions": ["関東"]}, "[regions] は"),
        ({"options": {"renumber_after_dead_picks": True}}, "0～1000の整数"),
        ({"mastermind": {"final_alliance": "party"}}, "reconcile か reroll"),
        ({"tag_match": {"ally_inapplicable": 3}}, "escape か reroll"),
        ({"revival": []}, "[revival] は表にしてください"),
        ({"title": ""}, "title は空でない文字列"),
    ],
)
def test_bad_scenarios_get_clear_messages(scenario: dict[str, object], message: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        build_scenario(scenario)
    assert message in str(caught.value)


def test_toml_syntax_errors_are_reported_in_japanese() -> None:
    with pytest.raises(ScenarioError, match="TOMLとして読めません"):
        parse_scenario_toml("[mastermind\nenabled = true")
    with pytest.raises(ScenarioError, match="表"):
        build_scenario(["not", "a", "table"])  # type: ignore[arg-type]
