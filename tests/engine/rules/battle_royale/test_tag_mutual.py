"""タッグマッチ: 相打ち between the last two teams is 「双方が敗北処理」 — both teams roll their defeat; a
survivor wins; only when both rolls leave no one is the battle die rolled again."""

from __future__ import annotations

from collections.abc import Callable

from engine.rules import battle_royale as br
from engine.rules.battle_royale.state import State
from tests.engine.rules.battle_royale.helpers import alive, prepared

Chooser = Callable[[br.DieRequest], tuple[int, ...]]


def two_pairs() -> State:
    """北海道・青森 against 岩手・宮城, the last two teams."""
    state = prepared(["北海道", "青森", "岩手", "宮城"], tag_match={"enabled": True})
    asked: list[str] = []
    while (request := br.next_die(state)) is not None and request.table.name == "タッグ結成ダイス":
        asked.append(request.table.name)
        state, _ = br.apply_roll(state, 1)
    assert asked and len(state.teams) == 2 and all(len(m) == 2 for m in state.teams.values())
    return state


def play(state: State, choose: Chooser, limit: int = 40) -> tuple[State, list[str]]:
    """Roll what the rules ask for with `choose`, until the game ends; the tables asked, in order."""
    asked: list[str] = []
    for _ in range(limit):
        request = br.next_die(state)
        if request is None:
            return state, asked
        asked.append(request.table.name)
        state, _ = br.apply_roll(state, choose(request))
    raise AssertionError(f"no end after {limit} dice: {asked}")


def face_of(request: br.DieRequest, outcome: str) -> int:
    return next(face for face in range(1, request.table.sides + 1) if request.table.outcome(face) == outcome)


def scripted(battle_outcomes: list[str], loss_outcomes: list[str], pick: int = 1) -> Chooser:
    """Dice that give these battle outcomes and team fates, in turn (by name, whatever the table)."""
    battles, losses = iter(battle_outcomes), iter(loss_outcomes)

    def choose(request: br.DieRequest) -> tuple[int, ...]:
        name = request.table.name
        if name == "都道府県選択ダイス":
            return (1, 2)
        if name == "戦闘方針ダイス":
            return (1,)  # 正面
        if name.endswith("戦闘ダイス"):
            return (face_of(request, next(battles)),)
        if name == "タッグ敗北後ダイス":
            return (face_of(request, next(losses)),)
        return (pick,)

    return choose


def test_a_survivor_of_the_mutual_defeat_wins() -> None:
    state = two_pairs()
    state, asked = play(
        state, scripted(["相打ち"], ["全滅", "一人生存"])
    )  # 相打ち; the first team wiped, the second keeps one
    assert asked.count("タッグ敗北後ダイス") == 2 and sum(n.endswith("戦闘ダイス") for n in asked) == 1
    assert state.ending is not None and state.ending.kind == "winner"
    assert len(alive(state)) == 1 and list(state.ending.winners) == sorted(alive(state))


def test_both_teams_wiped_rolls_the_battle_again_with_everyone_standing() -> None:
    state = two_pairs()
    before = alive(state)
    # 相打ち, both 全滅: rolled again; then 勝利 for the 基準's team, whose opponents take their defeat.
    state, asked = play(state, scripted(["相打ち", "勝利"], ["全滅", "全滅", "全滅"]))
    battles = [i for i, name in enumerate(asked) if name.endswith("戦闘ダイス")]
    assert len(battles) == 2
    assert asked[battles[0] + 1 : battles[1]] == ["タッグ敗北後ダイス", "タッグ敗北後ダイス"]
    assert state.ending is not None and state.ending.kind == "winner"
    assert alive(state) < before and alive(state) == set(state.ending.winners)


def test_a_lone_member_falls_for_sure_so_a_wiped_pair_beside_it_means_rolling_again() -> None:
    state = prepared(["北海道", "青森", "岩手"], tag_match={"enabled": True})
    while (request := br.next_die(state)) is not None and request.table.name == "タッグ結成ダイス":
        state, _ = br.apply_roll(state, 1)
    assert sorted(len(members) for members in state.teams.values()) == [1, 2]
    state, asked = play(state, scripted(["相打ち", "勝利"], ["全滅", "全滅"]))
    battles = [i for i, name in enumerate(asked) if name.endswith("戦闘ダイス")]
    assert asked[battles[0] + 1 : battles[1]] == ["タッグ敗北後ダイス"]  # the pair rolls; the lone one cannot
    assert state.ending is not None and alive(state) == set(state.ending.winners)
