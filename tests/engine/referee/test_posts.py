"""The posts of one poll as the pure referee reads them: ヘルプ answered once per writer and a few times a
period, ヘルプ全文 once per thread a period (later ヘルプ answers point to it), posts written before the
game joined the thread left alone, every post of the poll marked handled and answered in one batch
whose outbox id names the posts and the days whose dice keys it publishes."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from engine import keys
from engine.referee import PostView
from engine.referee.ledger import Outgoing
from store.changes import Log, MarkHandled
from tests.referee_harness import GM_TRIP, THREAD, PureGame, posted

SHORT = "【数当て ヘルプ】\n＜予想＞42 のように1～100の数をひとつ（最後の予想が有効）。取消 で取り消し。\n"
ASK_FULL = "「ヘルプ全文」と書くとルール全文を書き込みます"


def guess() -> PureGame:
    game = PureGame("guess", 'players = ["アリス"]\nsides = 100\nrounds = 2\n')
    game.setup = replace(game.setup, dice=False)
    game.poll()
    return game


def helped(decided) -> list[tuple[str, dict, int]]:
    return [
        (c.kind, c.args, c.post) for c in decided.changes if isinstance(c, Log) and c.kind.startswith("help")
    ]


def test_help_is_answered_once_per_writer_and_the_full_rules_once_a_period() -> None:
    game = guess()
    asked = [game.post("ヘルプ", name) for name in ("a", "b", "a")]
    asked += [game.post("ヘルプ全文", "c"), game.post("ヘルプ", "d"), game.post("ヘルプ全文", "e")]
    decided = game.poll(asked, minutes=1)
    answers = posted(decided)[0].split("\n\n")
    full_rules = game.setup.ruleset.HELP.strip()
    pointer = "ルール全文はこのピリオドに >>5 への返信で書き込みました"
    assert answers[:2] == [
        f">>2\n{SHORT}{ASK_FULL}",
        f">>3\n{SHORT}{ASK_FULL}",
    ]  # the second ヘルプ of a: none
    assert "\n\n".join(answers[2:]).startswith(f">>5\n{full_rules.split(chr(10))[0]}")
    assert posted(decided)[0].endswith(
        f">>6\n{SHORT}{pointer}\n\n>>7\n{SHORT}{pointer}"
    )  # asked again: where it is
    assert helped(decided) == [
        ("help", {"writer": "a"}, 2),
        ("help", {"writer": "b"}, 3),
        ("help_full", {"writer": "c"}, 5),
        ("help", {"writer": "d"}, 6),
        ("help", {"writer": "e"}, 7),
    ]
    # five short answers a period whoever asks: a sixth writer gets none
    more = game.poll([game.post("ヘルプ", name) for name in ("f", "g")], minutes=1)
    assert posted(more) == [f">>8\n{SHORT}{pointer}"]
    assert [args["writer"] for _, args, _ in helped(more)] == ["f"]


def test_a_writer_is_known_by_trip_or_the_boards_id_whatever_name_they_give() -> None:
    game = guess()
    first = PostView(2, "名前1", None, game.now, "ヘルプ", poster_id="Ab12Cd")
    again = PostView(3, "名前2", None, game.now, "ヘルプ", poster_id="Ab12Cd")
    other = PostView(4, "名前2", None, game.now, "ヘルプ", poster_id="Zz99Yy")
    game.number = 4
    assert [text.split("\n")[0] for text in posted(game.poll([first, again, other]))[0].split("\n\n")] == [
        ">>2",
        ">>4",
    ]


def test_help_in_the_next_period_is_answered_again() -> None:
    game = guess()
    game.poll([game.post("ヘルプ全文", "a"), game.post("ヘルプ", "b")], minutes=1)
    game.poll(minutes=70)  # period 1 resolved
    decided = game.poll([game.post("ヘルプ", "b")], minutes=1)
    assert posted(decided) == [f">>4\n{SHORT}{ASK_FULL}"]
    assert helped(decided)[0] == ("help", {"writer": "b"}, 4)


def test_posts_written_before_the_game_joined_are_handled_but_not_answered() -> None:
    game = PureGame("guess", 'players = ["アリス"]\n')
    game.setup = replace(game.setup, dice=False)
    joined = game.setup.joined
    posts = [
        PostView(2, "a", None, joined - timedelta(minutes=1), "ヘルプ"),
        PostView(3, "b", None, joined - timedelta(seconds=1), "ヘルプ"),  # dates have whole seconds
        PostView(4, "c", None, joined, "ヘルプ"),
        PostView(5, "d", None, None, "ヘルプ"),  # no date: the board did not say, so it is read
    ]
    decided = game.poll(posts)
    answered = [c for c in decided.changes if isinstance(c, Outgoing) and c.kind == "answer"]
    assert [r.reply_to for r in answered[0].reports] == [(4,), (5,)]
    assert [c for c in decided.changes if isinstance(c, MarkHandled)] == [
        MarkHandled(THREAD.id, (2, 3, 4, 5))
    ]


def test_a_poll_with_nothing_to_answer_sends_nothing_and_the_batch_id_names_its_posts_and_days() -> None:
    game = PureGame("dice")
    (first,) = [
        c for c in game.poll().changes if isinstance(c, Outgoing)
    ]  # today's and tomorrow's key hashes
    assert (
        first.base == f"dice/{THREAD.key}/none/2026-12-01+2026-12-02"
        and first.reports[0].kind == "disclosure"
    )
    assert game.poll(minutes=1).changes == []  # no post, nothing to publish: nothing at all
    decided = game.poll([game.post("2D6", "a"), game.post("こんにちは", "b")], minutes=1)
    (batch,) = [c for c in decided.changes if isinstance(c, Outgoing)]
    assert batch.base == f"dice/{THREAD.key}/2-3/" and batch.kind == "answer"
    quiet = game.poll([game.post("こんにちは", "c")], minutes=1)
    assert [c for c in quiet.changes if isinstance(c, Outgoing)] == []
    assert quiet.changes == [MarkHandled(THREAD.id, (4,))]


def test_a_gms_step_post_runs_the_commands_before_the_step_first_and_the_rest_after_it() -> None:
    game = PureGame("dystopia")
    game.poll()  # the opening: step 1
    answers = posted(game.poll([game.post("状態\nシーン ドラマ\n状態", "GM", GM_TRIP)], minutes=1))
    before, step, after = answers[0].split("\n\n")
    assert before.split("\n")[:3] == [">>2", "【GM】DysTopiA・手番2", "【DysTopiA オープニング】"]
    assert step == ">>2\nシーン1：ドラマ"
    assert after.split("\n")[:3] == [">>2", "【GM】DysTopiA・手番3", "【DysTopiA シーン1：ドラマ】"]
    assert [game.store.resolution("dystopia", p).outbox_id for p in (1, 2)] == ["opening", "post/2"]
    # the same step from a player is the game's to refuse; the player's 状態 has no GM label
    refused = posted(game.poll([game.post("状態\nシーン オープニング", "アリス")], minutes=1))[0].split(
        "\n\n"
    )
    assert ">>3\n受け付けられません：シーンはGMだけが使えます" in refused
    assert [text.split("\n")[1] for text in refused if "手番" in text] == ["DysTopiA・手番4"]


def test_each_days_dice_key_is_committed_before_its_dice_and_revealed_after_its_day() -> None:
    game = PureGame("dice")
    game.poll([game.post("2D6", "a")])
    day1, day2, day3 = (keys.period_key(bytes(32), "dice", f"2026-12-0{n}") for n in (1, 2, 3))
    first = f"dice/{THREAD.key}/2-2/2026-12-01+2026-12-02/0"
    assert [(p.period, p.commitment, p.committed_in, p.revealed_in) for p in game.store.periods("dice")] == [
        ("2026-12-01", keys.commitment(day1), first, None),
        ("2026-12-02", keys.commitment(day2), first, None),
    ]
    answer = posted(game.poll([game.post("1D6", "b")], minutes=60 * 24))[0]  # the next day
    assert answer.startswith(
        f"【ダイス検証】\n鍵 2026-12-01: {day1.hex()}\n鍵のハッシュ(SHA-256) 2026-12-03: {keys.commitment(day3)}\n"
        "threadgm verify でこのスレの出目を全て再計算できます"
    )
    second = f"dice/{THREAD.key}/3-3/2026-12-03+2026-12-01/0"
    assert [(p.period, p.committed_in, p.revealed_in) for p in game.store.periods("dice")] == [
        ("2026-12-01", first, second),  # revealed the day after, its commitment kept
        ("2026-12-02", first, None),
        ("2026-12-03", second, None),
    ]


def test_an_immediate_games_first_step_commits_to_the_secret_dice_and_its_last_step_publishes_the_key() -> (
    None
):
    from tests.test_scheduler_battle_royale import due_template, scenario_text

    game = PureGame("battle-royale-assist", scenario_text(False))
    game.poll()  # nothing to answer: no opening for this game
    secret = game.setup.rules_secret
    template, answers = "【都道府県選択ダイス】\ndice2d8=", []
    while game.store.game_status("battle-royale-assist") != "finished" and len(answers) < 100:
        answers.append("\n".join(posted(game.poll([game.post(template, "P")], minutes=1))))
        if game.store.game_status("battle-royale-assist") != "finished":
            template = due_template(answers[-1])
    assert answers[0].startswith(f">>2\n秘密のダイスの鍵のハッシュ(SHA-256): {keys.commitment(secret)}\n")
    assert all("秘密のダイスの鍵" not in answer for answer in answers[1:-1])
    assert answers[-1].endswith(
        f"【ゲーム終了】\n秘密のダイスの鍵: {secret.hex()}（最初に公開したハッシュと照合できます）"
    )
    last = game.store.last_resolution("battle-royale-assist")
    assert (last.period, last.outbox_id, last.orders) == (len(answers), f"post/{game.number}", 1)
    assert last.resolved_at == game.now.isoformat() and '"岩手"' in last.state  # readable: names as written


def test_a_step_the_game_refuses_to_read_is_answered_and_a_gm_step_needs_the_gms_trip() -> None:
    game = PureGame("dystopia")
    game.poll()
    tripped = posted(game.poll([game.post("シーン ドラマ", "アリス", "aU.BpUgE0M")], minutes=1))
    assert tripped == [">>2\n受け付けられません：シーンはGMだけが使えます"]  # a trip is not the GM's trip
    unread = posted(game.poll([game.post("ダメージ abc", "アリス")], minutes=1))
    assert unread == [">>3\n「ダメージ [名前] 数」と書いてください（数は4桁まで。例：ダメージ ユイ 8）"]
    # the refused シーン is still a step (the game answered it); the unread line is none
    assert (
        game.store.resolution("dystopia", 2).outbox_id == "post/2"
        and game.store.resolution("dystopia", 3) is None
    )


def test_each_posts_dice_are_its_own_and_a_secret_roll_is_committed_by_its_own_key() -> None:
    # the thread's key, the post's number and the day's key make a post's dice (what verify recomputes)
    game = PureGame("dice")
    answers = posted(game.poll([game.post("S1D100 秘密", "アリス"), game.post("2D6", "ボブ")]))[0].split(
        "\n\n"
    )
    secret = keys.secret_key(bytes(32), "dice", THREAD.key, 2, 0)
    assert answers[1:] == [
        ">>2\nS1D100 ＞ シークレットダイスを振りました（結果はあとで公開されます）\n"
        f"シークレット2-0 鍵のハッシュ(SHA-256): {keys.commitment(secret)}",
        ">>3\n(2D6) ＞ 5[4,1] ＞ 5",
    ]


def test_the_full_rules_are_posted_line_by_line_within_the_boards_line_limit() -> None:
    from poster.markup import PostLimits, render_posts

    game = guess()
    decided = game.poll([game.post("ヘルプ全文", "a")], minutes=1)
    (answer,) = [c for c in decided.changes if isinstance(c, Outgoing)]
    rules = game.setup.ruleset.HELP.strip().split("\n")
    texts = render_posts(list(answer.reports), PostLimits(lines=4))
    assert all(len(text.split("\n")) <= 4 for text in texts)  # what a board with 4 lines a post takes
    body = [row for text in texts for row in text.split("\n") if not row.startswith(">>2")]
    assert body == rules
