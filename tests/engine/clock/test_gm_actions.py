"""GM commands decided without I/O: echoes, log entries and changes for each command."""

from __future__ import annotations

from datetime import datetime, timedelta

from engine.clock.gm_actions import GameView, clock_adjustments, decide, void_text
from engine.clock.schedule import PeriodClock, parse_schedule
from parser.gm import parse_gm_line

START = datetime.fromisoformat("2026-12-01T20:00:00+09:00")
CLOCK = PeriodClock(parse_schedule({"interval": "1h", "anchor": "2026-12-01 21:00"}), START)


def view(**changes) -> GameView:
    values = {"period": 1, "paused": False, "periodic": True, "last_resolved": None, "clock": CLOCK}
    return GameView(**(values | changes))


def act(line: str, now: str = "20:10", **changes):
    moment = datetime.fromisoformat(f"2026-12-01T{now}:00+09:00")
    return decide(
        parse_gm_line(line),
        view(**changes),
        moment,
        lambda path, value: None if path.startswith("ok") else "できません",
    )


def test_pause_and_resume_add_clock_entries_and_change_the_status() -> None:
    paused = act("停止")
    assert paused.text == "停止しました（ピリオド1の締切の時計を止めます）" and paused.status == "paused"
    assert [(e.kind, e.period) for e in paused.log] == [("pause", 1)]
    assert act("停止", paused=True).text == "すでに停止しています" and act("停止", paused=True).log == ()
    clock = PeriodClock(CLOCK.schedule, START, clock_adjustments([("pause", paused.log[0].args, 1)]))
    resumed = act("再開", now="20:40", paused=True, clock=clock)
    assert resumed.text == "再開しました（ピリオド1の締切 12/01 21:30）" and resumed.status == "running"
    assert act("再開").text == "停止していません"


def test_pause_and_resume_in_one_poll_leave_the_deadline_where_it_was() -> None:
    paused = act("停止")
    clock = PeriodClock(CLOCK.schedule, START, clock_adjustments([("pause", paused.log[0].args, 1)]))
    resumed = act("再開", paused=True, clock=clock)  # the same moment: read together
    assert resumed.text == "再開しました（ピリオド1の締切 12/01 21:00）" and resumed.status == "running"


def test_extend_by_a_duration_or_to_a_time() -> None:
    longer = act("延長 30分")
    assert longer.text == "延長しました（ピリオド1の締切 12/01 21:30）"
    assert longer.log[0].kind == "extend" and longer.log[0].args["deadline"] == "2026-12-01T21:30:00+09:00"
    assert act("延長 23:00").text == "延長しました（ピリオド1の締切 12/01 23:00）"


def test_extend_to_a_time_on_a_named_day_is_that_day() -> None:
    # the deadline is 21:00: a dated time is that day's, judged from now, not the next after 21:00
    for line in ("延長 12/01 20:30", "延長 2026/12/01 20:30", "延長 今日 20:30"):
        earlier = act(line, now="20:05")
        assert earlier.text == "延長しました（ピリオド1の締切 12/01 20:30）", line
        assert earlier.log[0].args["deadline"] == "2026-12-01T20:30:00+09:00"
    assert act("延長 今日 20:00", now="20:05").text.endswith("その時刻はもう過ぎています")
    # 12/01 20:00 has passed this year: next year's, and the echo says which year
    assert act("延長 12/01 20:00", now="20:05").text == "延長しました（ピリオド1の締切 2027/12/1(水) 20:00）"
    assert (
        act("延長 20:30", now="20:05").text == "延長しました（ピリオド1の締切 12/02 20:30）"
    )  # bare: after 21:00


def test_resolve_now_rollback_set_void_reveal_next_status() -> None:
    now = act("即時更新")
    assert now.text == "ピリオド1を即時更新します" and now.log[0].kind == "early"
    assert act("即時更新", paused=True).log == ()
    assert act("巻き戻し").text == "巻き戻すものがありません"
    redo = act("巻き戻し", last_resolved=3)
    assert redo.rollback == 3 and redo.status is None and [e.kind for e in redo.log] == ["rollback"]
    hold = act("巻き戻し 保留", last_resolved=3)
    assert hold.status == "paused" and [e.kind for e in hold.log] == ["rollback", "pause"]
    assert act("設定 ok.x=1").log[0].args == {"path": "ok.x", "value": "1"}
    refused = act("設定 bad=1")
    assert refused.text == "設定できません: bad: できません" and refused.log == ()
    assert act("無効 >>3 >>5").void == (3, 5)
    assert act("公開 >>9").reveal == 9
    assert act("次スレ https://example.com/test/read.cgi/a/1700000000/").move_to.endswith("/1700000000/")
    assert act("状態").show_status


def test_clock_commands_need_a_clock() -> None:
    assert act("停止", periodic=False, clock=None).text == "停止: このゲームには更新時刻がありません"
    undone = act("巻き戻し", periodic=False, clock=None, last_resolved=4)
    assert undone.text == "手番4を巻き戻しました（次の書き込みはその前から続きます）" and undone.rollback == 4


def test_void_text() -> None:
    assert void_text([5, 3], 2, []) == "無効にしました: >>3 >>5（命令 2 件）"
    assert void_text([3], 1, [1, 1]).endswith("ピリオド1は処理済みです（巻き戻しで再処理できます）")


def test_clock_adjustments_from_the_log() -> None:
    entries = [
        ("pause", {"at": "2026-12-01T20:10:00+09:00"}, 1),
        ("resume", {"at": "2026-12-01T20:20:00+09:00"}, 1),
        ("extend", {"at": "x", "deadline": "2026-12-01T22:00:00+09:00"}, 1),
        ("set", {"path": "a", "value": "b"}, 1),
    ]
    clock = PeriodClock(CLOCK.schedule, START, clock_adjustments(entries))
    assert clock.deadline(1) == START + timedelta(hours=2)
