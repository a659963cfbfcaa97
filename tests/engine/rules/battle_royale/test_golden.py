"""Golden step-by-step cases of the 都道府県バトロワ (tests/fixtures/battle_royale/*.toml): each step names
the die the rules must ask for, gives its recorded faces (played through `RecordedDice`), and lists what
the report must and must not say; the case ends on the position it must reach."""

from __future__ import annotations

import hashlib
import tomllib
from typing import Any

import pytest

from engine.report import Report
from engine.rng import RecordedDice, RecordedSource, SeededSource
from engine.rules import battle_royale as br
from tests.conftest import FIXTURES
from tests.engine.rules.battle_royale.helpers import alive, groups, prepared

CASE_DIR = FIXTURES / "battle_royale"


def _cases() -> list[Any]:
    params = []
    for path in sorted(CASE_DIR.glob("*.toml")):
        for case in tomllib.loads(path.read_text(encoding="utf-8"))["case"]:
            params.append(pytest.param(case, id=f"{path.stem}:{case['name']}"))
    return params


def _start(case: dict[str, Any]) -> br.State:
    scenario = dict(case.get("scenario", {}))
    if "regions" in case:
        scenario["regions"] = case["regions"]
    return prepared(case["roster"], dead=case.get("dead", ()), groups=case.get("groups", ()), **scenario)


@pytest.mark.parametrize("case", _cases())
def test_golden_case(case: dict[str, Any]) -> None:
    state = _start(case)
    for number, step in enumerate(case["step"], start=1):
        where = f"step {number} ({step['table']})"
        if "rename" in step:
            state, named = br.set_team_name(state, *step["rename"])
            assert "チーム名決定" in named.plain
        request = _asked_die(state, step, where)
        dice = RecordedDice([(step["sides"], face) for face in step["faces"]])
        state, _, faces, report = br.play_step(state, RecordedSource(default=dice))
        assert dice.remaining == 0 and list(faces) == step["faces"], where
        _check_report(report, request, step, where)
    _check_position(state, case.get("after", {}))


def _asked_die(state: br.State, step: dict[str, Any], where: str) -> br.DieRequest:
    """The die the rules ask for, as the step says; the table check accepts it, or refuses it when secret."""
    request = br.next_die(state)
    assert request is not None, where
    assert request.name == step["table"], where
    assert (request.count, request.sides) == (step.get("count", 1), step["sides"]), where
    if "base" in step:
        assert request.base == step["base"], where
    if request.secret:
        assert br.check_table(state, step["table"], step["sides"]) is not None
    else:
        problem = br.check_table(
            state,
            step["table"],
            step["sides"],
            count=step.get("count", 1),
            base=step.get("base") or None,
            variant=step.get("note"),
        )
        assert problem is None, (where, problem)
    return request


def _check_report(report: Report, request: br.DieRequest, step: dict[str, Any], where: str) -> None:
    """What the step's report must say in public or in secret, and must keep out of public."""
    public = report.plain
    for text in step.get("see", []):
        assert text in public, (where, text, public)
    for text in step.get("hidden", []):
        assert text not in public, (where, text, public)
    secret = report.meta["secret"].plain if "secret" in report.meta else ""
    for text in step.get("secret", []):
        assert text in secret, (where, text, secret)
    if request.secret:
        assert request.name not in public, where


def _check_position(state: br.State, after: dict[str, Any]) -> None:
    """The position the case ends on: who is alive, the groups, the next die and the ending."""
    if "alive" in after:
        assert alive(state) == set(after["alive"])
    if "groups" in after:
        assert groups(state) == sorted((set(g) for g in after["groups"]), key=lambda g: sorted(g))
    if "next" in after:
        request = br.next_die(state)
        assert request is not None and request.name == after["next"]
    if "ending" in after:
        assert state.ending is not None and state.ending.kind == after["ending"]
        assert state.ending.winners == after["winners"]
    else:
        assert state.ending is None


def test_fixture_cases_cover_every_rule_of_the_seed() -> None:
    """Every die of the seed (and of each special rule) is exercised by at least one golden step."""
    tables = {step["table"] for case in _cases() for step in case.values[0]["step"]}
    wanted = {
        "都道府県選択ダイス",
        "対戦都道府県選択ダイス",
        "戦闘方針ダイス",
        "通常戦闘ダイス",
        "奇襲判定ダイス",
        "奇襲者（被奇襲者）有利ダイス",
        "＜団体戦用＞戦闘ダイス",
        "＜団体戦用＞奇襲者（被奇襲者）有利ダイス",
        "＜団体用＞脱落判定ダイス",
        "＜団体用＞逃走判定ダイス",
        "＜二人組用＞敗北後ダイス",
        "仲間割れ判定ダイス",
        "仲間割れ戦闘後ダイス",
        "地区復活ダイス",
        "黒幕決定ダイス",
        "黒幕陣営人数ダイス",
        "協力者決定ダイス",
        "黒幕決戦ダイス",
        "タッグ結成ダイス",
        "タッグ敗北後ダイス",
        "タッグ死亡者決定ダイス",
        "脱落者決定ダイス",
        "＜団体用＞敗北時脱落人数ダイス",
        "＜団体用＞逃走失敗時脱落人数ダイス",
        "地区代表選出ダイス",
    }
    assert wanted <= tables, wanted - tables


def test_case_files_exist() -> None:
    names = {path.stem for path in CASE_DIR.glob("*.toml")}
    assert names == {"basics", "groups", "infight", "mastermind", "revival", "selection", "tag"}
    assert all(case.values[0]["step"] for case in _cases())  # every case plays at least one step


def test_whole_game_transcript_matches_the_reviewed_one() -> None:
    """A whole six-prefecture game as the bot posts it (dead picks, renumbering, a failed surprise, an
    alliance, infighting with a reselection, a group win drop-out, 戦況まとめ every 3 battles, the winner),
    compared with a transcript read through by hand; regenerate it only on purpose."""
    scenario = {
        "prefectures": [{"name": n} for n in ("北海道", "青森", "岩手", "宮城", "秋田", "山形")],
        "options": {"summary_every": 3},
    }
    state = br.initial_state(scenario)
    source = SeededSource(hashlib.sha256(b"transcript|9").digest())
    posts = [br.opening_report(state).plain]
    while br.next_die(state) is not None:
        state, _, _, report = br.play_step(state, source)
        posts += ["-----", report.plain]
    expected = (CASE_DIR / "transcript_6.txt").read_text(encoding="utf-8")
    assert "\n".join(posts) + "\n" == expected
