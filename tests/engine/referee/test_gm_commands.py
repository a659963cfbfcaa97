"""GM commands as the pure referee decides them: who may give them (the GM's trip; a stranger is told
so, once per writer and a few times a period), what a player's 状態 shows, each command's echo and its
effect in the log, the cap on commands per post, a finished game's refusals, 公開 of a secret roll, and
次スレ refused where the URL is no thread."""

from __future__ import annotations

from dataclasses import replace

from engine.referee import PostView
from engine.referee.ledger import Outgoing
from engine.report import Report, line, report
from engine.rules import REGISTRY
from store.changes import Log
from tests.referee_harness import GM_TRIP, THREAD, PureGame, posted

SCENARIO = 'players = ["アリス", "ボブ"]\nsides = 100\nrounds = 2\n'
GM = ("GM", GM_TRIP)
REFUSED = "GMのトリップではないため、GMコマンドは受け付けませんでした"
BOARD = "【数当て 第0回まで（全2回）】\n名前　点数"


def guess() -> PureGame:
    game = PureGame("guess", SCENARIO)
    game.setup = replace(
        game.setup, dice=False, thread_url_problem=lambda url: "板が違います" if "/other/" in url else None
    )
    game.poll()  # the opening
    return game


def logged(decided, kind: str) -> list[Log]:
    return [c for c in decided.changes if isinstance(c, Log) and c.kind == kind]


def test_a_stranger_giving_gm_commands_is_told_once_and_at_most_three_writers_a_period() -> None:
    game = guess()
    posts = [game.post("停止", name) for name in ("アリス", "ボブ", "カレン", "デイブ")]
    posts.append(game.post("停止\n再開", "アリス"))
    decided = game.poll(posts, minutes=1)
    assert posted(decided) == [f">>2\n{REFUSED}\n\n>>3\n{REFUSED}\n\n>>4\n{REFUSED}"]
    refusals = logged(decided, "refused")
    assert [(e.post, e.args) for e in refusals] == [
        (2, {"lines": ["停止"], "writer": "アリス", "answered": True}),
        (3, {"lines": ["停止"], "writer": "ボブ", "answered": True}),
        (4, {"lines": ["停止"], "writer": "カレン", "answered": True}),
        (5, {"lines": ["停止"], "writer": "デイブ", "answered": False}),  # a fourth writer: logged only
        (6, {"lines": ["停止", "再開"], "writer": "アリス", "answered": False}),  # answered already
    ]
    assert game.store.game_status("guess") == "running"  # nothing was carried out


def test_a_refusal_logs_at_most_five_lines_each_cut_to_a_hundred_characters() -> None:
    game = guess()
    lines = [f"延長 {minutes}分" + "あ" * 200 for minutes in range(1, 8)]
    (entry,) = logged(game.poll([game.post("\n".join(lines), "ボブ")], minutes=1), "refused")
    assert entry.args["lines"] == [text[:100] for text in lines[:5]]


def test_a_tripped_strangers_budget_is_their_trip_whatever_name_they_write() -> None:
    game = guess()
    first = game.poll([game.post("停止", "ななし", "aU.BpUgE0M")], minutes=1)
    again = game.poll([game.post("停止", "別の名前", "aU.BpUgE0M")], minutes=1)
    assert posted(first) == [f">>2\n{REFUSED}"] and posted(again) == []
    assert logged(again, "refused")[0].args["writer"] == "◆aU.BpUgE0M"


def test_a_players_status_is_the_gms_without_the_label_once_per_writer() -> None:
    game = guess()
    decided = game.poll([game.post("状態", "アリス"), game.post("状態", "アリス")], minutes=1)
    assert posted(decided) == [f">>2\nピリオド1・締切 12/01 21:00・未提出: アリス、ボブ\n{BOARD}"]
    assert [e.args for e in logged(decided, "public_status")] == [
        {"writer": "アリス", "answered": True},
        {"writer": "アリス", "answered": False},
    ]
    more = game.poll([game.post("状態", name) for name in ("ボブ", "カレン", "デイブ")], minutes=1)
    assert [text.split("\n")[0] for text in posted(more)[0].split("\n\n")] == [">>4", ">>5"]  # three a period


def test_the_gms_commands_are_each_echoed_and_a_command_written_twice_runs_once() -> None:
    game = guess()
    body = (
        "停止\n停止\n状態\n延長 abc\n設定 sides=abc\n次スレ http://127.0.0.1/test/read.cgi/other/1764599999/"
    )
    decided = game.poll([game.post(body, *GM)], minutes=1)
    assert posted(decided) == [
        "\n".join(
            [
                ">>2",
                "【GM】停止しました（ピリオド1の締切の時計を止めます）",
                "【GM】ピリオド1・停止中・未提出: アリス、ボブ",
                BOARD,
                "【GM】延長: 「abc」は延長の長さ・時刻として読めません（例：30分、1時間30分、22:00、11/30 22:00）",
                "【GM】設定できません: sides: sides は設定できません（設定できるもの: scores.<名前>）",
                "【GM】次スレに移れません: 板が違います",
            ]
        )
    ]
    assert decided.move_to is None
    assert len(logged(decided, "pause")) == 1 and game.store.game_status("guess") == "paused"
    commands = [e.args["command"] for e in logged(decided, "gm")]
    assert commands == [
        "停止",
        "状態",
        "設定 sides=abc",
        "次スレ http://127.0.0.1/test/read.cgi/other/1764599999/",
    ]
    assert all(e.author == "GM◆" + GM_TRIP and e.post == 2 and e.period == 1 for e in logged(decided, "gm"))


def test_the_log_says_what_a_gm_command_did_not_what_it_asked() -> None:
    game = guess()
    refused = "次スレ http://127.0.0.1/test/read.cgi/other/1764599999/"
    decided = game.poll([game.post(refused, *GM)], minutes=1)
    assert decided.move_to is None and logged(decided, "next") == []  # the game stays in this thread
    assert [e.args["result"] for e in logged(decided, "gm")] == ["次スレに移れません: 板が違います"]
    url = "http://127.0.0.1/test/read.cgi/test/1764599999/"
    followed = game.poll([game.post(f"次スレ {url}", *GM)], minutes=2)
    assert [e.args for e in logged(followed, "next")] == [{"url": url}]
    assert [e.args["result"] for e in logged(followed, "gm")] == [f"次スレに移ります: {url}"]


def test_a_gm_post_carries_out_twenty_commands_and_says_where_it_stopped() -> None:
    game = guess()
    body = "\n".join(f"設定 scores.アリス={n}" for n in range(1, 25))
    text = posted(game.poll([game.post(body, *GM)], minutes=1))[0]
    lines = text.split("\n")
    assert len(lines) == 1 + 20 + 1
    assert lines[-1] == "【GM】21行目から後は実行していません（GMコマンドは1つの書き込みに20行まで）"
    assert game.store.log_entries("guess", ["set"])[-1].args == {"path": "scores.アリス", "value": "20"}


def test_the_next_thread_is_followed_when_the_url_is_a_thread() -> None:
    game = guess()
    url = "http://127.0.0.1/test/read.cgi/test/1764599999/"
    decided = game.poll([game.post(f"次スレ {url}", *GM)], minutes=1)
    assert decided.move_to == url
    assert posted(decided) == [f">>2\n【GM】次スレに移ります: {url}"]


def test_a_finished_game_refuses_what_would_play_on_and_a_rollback_plays_on_again() -> None:
    game = PureGame("guess", 'players = ["アリス", "ボブ"]\nsides = 100\nrounds = 1\n')
    game.setup = replace(game.setup, dice=False)
    game.poll()
    game.poll(
        [game.post("＜予想＞40\n準備完了", "アリス"), game.post("＜予想＞41\n準備完了", "ボブ")], minutes=5
    )
    assert game.store.game_status("guess") == "finished"
    over = posted(game.poll([game.post("停止\n延長 10分", *GM)], minutes=1))
    assert over == [">>4\n【GM】停止: ゲームは終了しています\n【GM】延長 10分: ゲームは終了しています"]
    back = game.poll([game.post("巻き戻し", *GM)], minutes=1)
    changes = [type(c).__name__ for c in back.changes if not isinstance(c, Outgoing)]
    assert changes[:3] == ["Log", "SetGameStatus", "DeleteResolution"]  # the end undone, then redone
    assert back.changes[1].status == "running"
    texts = posted(back)
    assert texts[0] == ">>5\n【GM】ピリオド1を巻き戻しました。再処理します"
    assert texts[1].startswith("【ピリオド1 更新（再処理）】\n")
    bases = [c.base for c in back.changes if isinstance(c, Outgoing)]
    assert bases == [
        f"guess/{THREAD.key}/5-5/",
        "guess/P1/1",
        "guess/finished",
    ]  # the end's post: the same id
    assert game.store.resolution("guess", 1).outbox_id == "guess/P1/1/0"


def test_void_of_a_post_in_this_thread_says_how_many_orders_it_voided() -> None:
    game = guess()
    game.poll([game.post("＜予想＞40", "アリス")], minutes=1)
    decided = game.poll([game.post("無効 >>2\n無効 >>99", *GM)], minutes=1)
    assert posted(decided) == [
        ">>3\n【GM】無効にしました: >>2（命令 1 件）\n【GM】無効にしました: >>99（命令 0 件）"
    ]
    (order,) = game.store.orders("guess")
    assert (order.status, order.reason) == ("voided", "GMにより無効")
    assert [e.args for e in logged(decided, "void")] == [{"posts": [2]}, {"posts": [99]}]


def test_a_secret_roll_is_revealed_on_the_gms_word_and_nothing_else_is() -> None:
    game = PureGame("dice")
    game.poll([game.post("S1D100 秘密", "アリス"), game.post("2D6", "ボブ")])
    decided = game.poll([game.post("公開 >>2\n公開 >>3\n公開 >>99", *GM)], minutes=1)
    assert posted(decided) == [
        ">>2\n【シークレットダイス公開】\nシークレット2-0:\n(1D100) ＞ 7\n"
        "鍵 シークレット2-0: 436a4ad552de258e342140b6cf8a23806188055e4143de004d7c9c8e032dcf8c",
        ">>4\n【GM】>>2 のシークレットダイスを公開します\n"
        "【GM】公開できません: >>3 にシークレットダイスはありません\n"
        "【GM】公開できません: >>99 はまだ読み込んでいません",
    ]
    bases = [c.base for c in decided.changes if isinstance(c, Outgoing)]
    assert bases == [f"dice/{THREAD.key}/reveal/2", f"dice/{THREAD.key}/4-4/"]
    assert [e.args["result"] for e in logged(decided, "gm")] == [
        ">>2 のシークレットダイスを公開します",
        "公開できません: >>3 にシークレットダイスはありません",
        "公開できません: >>99 はまだ読み込んでいません",
    ]


def test_status_of_a_game_without_steps_names_its_thread() -> None:
    game = PureGame("dice")
    decided = game.poll([game.post("状態", *GM), game.post("状態", "アリス")])
    texts = posted(decided)[0].split("\n\n")
    assert texts[-2:] == [f">>2\n【GM】ダイス: {THREAD.read_url}", f">>3\nダイス: {THREAD.read_url}"]


def test_void_names_the_resolved_periods_it_reached_and_leaves_refused_orders_as_they_were() -> None:
    game = guess()
    game.poll(
        [game.post("＜予想＞40\n＜予想＞abc\n＜予想＞45", "アリス"), game.post("＜予想＞41", "ボブ")],
        minutes=5,
    )
    game.poll(minutes=60)  # period 1 resolved
    game.poll([game.post("＜予想＞42", "アリス")], minutes=5)
    decided = game.poll([game.post("無効 >>2\n無効 >>4", *GM)], minutes=1)
    assert posted(decided) == [
        ">>5\n【GM】無効にしました: >>2（命令 2 件）。ピリオド1は処理済みです（巻き戻しで再処理できます）\n"
        "【GM】無効にしました: >>4（命令 1 件）"  # period 2 is not resolved yet: nothing to redo
    ]
    statuses = sorted((o.post, o.canonical, o.status) for o in game.store.orders("guess"))
    assert statuses == [
        (2, "＜予想＞40", "voided"),
        (2, "＜予想＞45", "voided"),
        (2, "＜予想＞abc", "rejected"),  # refused at the receipt: not an order to void
        (3, "＜予想＞41", "accepted"),
        (4, "＜予想＞42", "voided"),
    ]


def test_a_players_status_budget_is_by_name_and_by_trip() -> None:
    game = guess()
    same_name = [
        PostView(2, "アリス", None, game.now, "状態", "ID1"),
        PostView(3, "アリス", None, game.now, "状態", "ID2"),
    ]
    same_trip = [
        PostView(4, "名前A", "aU.BpUgE0M", game.now, "状態"),
        PostView(5, "名前B", "aU.BpUgE0M", game.now, "状態"),
    ]
    game.number = 5
    decided = game.poll([*same_name, *same_trip], minutes=1)
    assert [text.split("\n")[0] for text in posted(decided)[0].split("\n\n")] == [">>2", ">>4"]
    (answer,) = [c for c in decided.changes if isinstance(c, Outgoing)]
    assert [r.kind for r in answer.reports] == ["gm", "gm"]


def test_a_refusal_does_not_use_up_the_writers_status_answer() -> None:
    game = guess()
    game.poll([game.post("停止", "アリス")], minutes=1)
    asked = posted(game.poll([game.post("状態", "アリス")], minutes=1))
    assert asked == [f">>3\nピリオド1・締切 12/01 21:00・未提出: アリス、ボブ\n{BOARD}"]


def test_a_posts_without_dice_has_no_secret_to_reveal_and_a_reveal_is_its_own_post() -> None:
    game = PureGame("dice")
    game.poll([game.post("S1D100 秘密", "アリス"), game.post("こんにちは", "ボブ")])
    decided = game.poll([game.post("公開 >>2\n公開 >>3", *GM)], minutes=60 * 24)  # the next day
    assert (
        posted(decided)[1].split("\n\n")[-1]
        == ">>4\n【GM】>>2 のシークレットダイスを公開します\n【GM】公開できません: >>3 にシークレットダイスはありません"
    )
    assert "(1D100) ＞ 7" in posted(decided)[0]  # the roll of the day it was made
    reveal = next(c for c in decided.changes if isinstance(c, Outgoing))
    assert (reveal.kind, reveal.reports[0].reply_to) == ("reveal", (2,))


def test_status_counts_only_this_periods_accepted_orders_as_sent() -> None:
    game = guess()
    game.poll([game.post("＜予想＞40", "アリス"), game.post("＜予想＞abc", "ボブ")], minutes=5)
    first = posted(game.poll([game.post("状態", *GM)], minutes=1))
    assert first == [
        f">>4\n【GM】ピリオド1・締切 12/01 21:00・未提出: ボブ\n{BOARD}"
    ]  # a refused line is not sent
    game.poll(minutes=60)  # period 1 resolved: its orders are not period 2's
    second = posted(game.poll([game.post("状態", *GM)], minutes=1))
    assert second == [
        ">>5\n【GM】ピリオド2・締切 12/01 22:00・未提出: アリス、ボブ\n【数当て 第1回まで（全2回）】\n名前　点数\nアリス　1点"
    ]


def test_status_of_a_game_without_order_forms_is_the_rulesets_own_view() -> None:
    game = PureGame("battle-royale")
    text = posted(game.poll([game.post("状態", *GM)]))[0].split("\n\n")[-1]
    assert text.split("\n")[:4] == [
        ">>2",
        "【GM】ピリオド1・締切 12/01 21:00",
        "【都道府県バトロワ 状況（第0戦まで）】",
        "【生き残り表】",
    ]


class _FragileSetter(type(REGISTRY.get("guess"))):  # type: ignore[misc]
    """The guess game whose 設定 raises what no setting check expects (a bug in a game's rules)."""

    def set_value(self, state: object, path: str, value: str) -> object:
        raise RuntimeError("broken setter")


def test_the_clock_commands_say_what_they_did_or_why_not() -> None:
    game = guess()
    first = posted(game.poll([game.post("巻き戻し\n再開\n即時更新", *GM)], minutes=1))
    assert (
        first[0]
        == ">>2\n【GM】巻き戻すものがありません\n【GM】停止していません\n【GM】ピリオド1を即時更新します"
    )
    assert first[1].startswith("【ピリオド1 更新】\n")  # closed at once, in the same poll
    paused = posted(game.poll([game.post("停止\n即時更新", *GM)], minutes=1))
    assert paused == [
        ">>3\n【GM】停止しました（ピリオド2の締切の時計を止めます）\n【GM】停止中です。再開してから即時更新してください"
    ]
    again = posted(game.poll([game.post("再開\n延長 10分", *GM)], minutes=1))
    assert again == [
        ">>4\n【GM】再開しました（ピリオド2の締切 12/01 21:01）\n【GM】延長しました（ピリオド2の締切 12/01 21:11）"
    ]
    # an immediate game has no clock to stop or close
    dice = PureGame("dice")
    told = posted(dice.poll([dice.post("即時更新\n停止", *GM)]))[0].split("\n\n")[-1]
    assert (
        told
        == ">>2\n【GM】即時更新: このゲームには更新時刻がありません\n【GM】停止: このゲームには更新時刻がありません"
    )


def test_a_gm_command_that_raises_is_answered_as_an_internal_error_and_the_rest_run() -> None:
    game = guess()
    game.setup = replace(game.setup, ruleset=_FragileSetter())
    decided = game.poll([game.post("設定 scores.アリス=3\n状態", *GM)], minutes=1)
    assert posted(decided)[0].split("\n")[:3] == [
        ">>2",
        "【GM】設定 scores.アリス=3: この書き込みは処理できませんでした（内部エラー、GMに通知済み）",
        "【GM】ピリオド1・締切 12/01 21:00・未提出: アリス、ボブ",
    ]
    assert [e.args["command"] for e in logged(decided, "gm")] == ["状態"]  # the failed one left nothing


def test_a_setting_changes_the_state_the_gm_sees_at_once_and_a_rollback_keeps_a_paused_game_paused() -> None:
    game = guess()
    shown = posted(game.poll([game.post("設定 scores.アリス=3\n状態", *GM)], minutes=1))[0]
    assert shown.endswith("名前　点数\nアリス　3点")
    game.poll([game.post("即時更新", *GM)], minutes=1)  # period 1 resolved
    game.poll([game.post("停止\n巻き戻し", *GM)], minutes=1)
    assert game.store.game_status("guess") == "paused"  # undoing a period does not start the clock


def test_a_gm_answer_is_a_gm_report_and_the_log_keeps_what_each_command_did(caplog) -> None:
    game = guess()
    decided = game.poll([game.post("停止\n延長 abc", *GM), game.post("停止", "ボブ")], minutes=1)
    (answer,) = [c for c in decided.changes if isinstance(c, Outgoing)]
    assert [r.kind for r in answer.reports] == ["gm", "gm"]  # the GM's echo and the stranger's refusal
    # what each command did; a line the parser could not read was carried out by nobody: not logged
    assert [(e.args["command"], e.args["result"]) for e in logged(decided, "gm")] == [
        ("停止", "停止しました（ピリオド1の締切の時計を止めます）")
    ]
    game.setup = replace(game.setup, ruleset=_FragileSetter())
    with caplog.at_level("ERROR", logger="threadgm"):
        game.poll([game.post("設定 scores.アリス=3", *GM)], minutes=1)
    assert (
        "guess: GM command '設定 scores.アリス=3' of post 4 failed; answered as an internal error"
        in caplog.messages
    )


def test_a_stranger_is_told_again_in_the_next_period() -> None:
    game = guess()
    game.poll([game.post("停止", "ボブ")], minutes=1)
    game.poll(minutes=65)  # period 1 resolved
    assert posted(game.poll([game.post("停止", "ボブ")], minutes=1)) == [f">>3\n{REFUSED}"]


def test_a_stranger_who_asked_for_help_or_the_status_is_still_told_their_commands_are_refused() -> None:
    game = guess()
    game.poll([game.post("ヘルプ", "ボブ"), game.post("状態", "アリス")], minutes=1)
    refused = posted(game.poll([game.post("停止", "ボブ"), game.post("停止", "アリス")], minutes=1))
    assert refused == [f">>4\n{REFUSED}\n\n>>5\n{REFUSED}"]


class _Counting(type(REGISTRY.get("guess"))):  # type: ignore[misc]
    """The guess game whose 状態 during a period counts the guesses it is handed."""

    def period_status(self, state: object, orders: list) -> Report:
        return report(line(f"今回の予想 {len(orders)}件"))


def test_status_hands_the_game_this_periods_orders_only() -> None:
    game = PureGame("guess", SCENARIO, ruleset=_Counting())
    game.setup = replace(game.setup, dice=False)
    game.poll()
    game.poll([game.post("＜予想＞40", "アリス"), game.post("＜予想＞41", "ボブ")], minutes=5)
    game.poll(minutes=60)  # period 1 resolved
    game.poll([game.post("＜予想＞42", "アリス")], minutes=1)
    shown = posted(game.poll([game.post("状態", *GM)], minutes=1))
    assert shown == [">>5\n【GM】ピリオド2・締切 12/01 22:00・未提出: ボブ\n今回の予想 1件"]


def test_status_counts_a_character_as_sent_once_anyone_at_an_open_table_sent_its_line() -> None:
    # DH's players are its characters; at an open table any writer sends a character's line
    game = PureGame("dh")
    game.poll()
    game.poll([game.post("会長 C2移動", "アリス")], minutes=1)
    shown = posted(game.poll([game.post("状態", *GM)], minutes=1))[0].split("\n")
    assert shown[1] == "【GM】ピリオド1・締切 12/01 21:00・未提出: 書記、会計"
