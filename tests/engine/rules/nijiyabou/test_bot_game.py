"""にじ野望 played by the bot on the local board for four seasons (1615 春 → 冬): six lords claim their
livers (one through the GM's 設定), the receipts take the forms players type and say why they refuse,
every season is resolved once at its boundary with its report and standings, the reminder names the
lords who sent nothing, 状態 shows the standings, and `threadgm verify` recomputes every 配信 and
initiative die from the published keys. Time is injected into the board and the bot."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from click.testing import CliRunner

from board.tripcode import name_and_trip
from engine.keys import JST
from engine.offline.verify import ThreadPost, verify_thread
from engine.rules import REGISTRY
from engine.rules.nijiyabou import RULESET
from engine.rules.nijiyabou.grammar import Act, parse_line
from engine.ruleset import Order
from poster.markup import render_body
from scheduler import BotConfig, GameConfig, ThreadBot, main
from scraper.fetch import make_session
from store.db import Store
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard

GM = "GM#threadgm-test-key"
GM_TRIP = "SyRJNUqZWYMT"
LORDS = {
    "アリス#niji-alice": "月ノ美兎",
    "ボブ#niji-bob": "剣持刀也",
    "キャロル#niji-carol": "静凛",
    "デイブ#niji-dave": "社築",
    "イブ#niji-eve": "モイラ",
    "フランク#niji-frank": "葛葉",
}
ALICE, BOB, CAROL, DAVE, EVE, FRANK = LORDS
SCHEDULE = {"interval": "1h", "anchor": "2026-12-01 21:00", "grace": "2m", "reminders": ["30m"]}


def signed(key: str) -> str:
    name, trip = name_and_trip(key)
    return f"{name}◆{trip}"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 20, 0, tzinfo=JST)

    def __call__(self) -> datetime:
        return self.now

    def at(self, hhmm: str) -> None:
        hour, minute = (int(x) for x in hhmm.split(":"))
        moment = datetime(2026, 12, 1, 0, 0, tzinfo=JST) + timedelta(hours=hour, minutes=minute)
        assert moment >= self.now
        self.now = moment


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory):  # noqa: PLR0915 — one game, post by post
    tmp = tmp_path_factory.mktemp("nijiyabou")
    clock = Clock()
    board = LocalBoard.start(tmp / "board", clock=clock, title="にじ野望スレ")
    store = Store(tmp / "bot.sqlite")
    config = GameConfig(
        "niji", "nijiyabou", board.url(), schedule=SCHEDULE, gm_trips=(GM_TRIP,), dice=False, seed="niji-e2e"
    )
    bot = ThreadBot(config, BotConfig(name=BOT_NAME), store, make_session(), clock, registry=REGISTRY)
    seen: dict[str, object] = {}

    def post(at: str, text: str, name: str) -> int:
        clock.at(at)
        return board.post(text, name=name)

    def tick(at: str) -> str:
        """What the bot posted in this poll, its posts joined (a long report takes several)."""
        clock.at(at)
        before = len(board.posts())
        bot.tick()
        posted = [p.body for p in board.posts()[before:] if p.trip == BOT_TRIP]
        seen.setdefault("posts", {})[at] = len([b for b in posted if not b.startswith("【受付")])
        return "\n".join(posted)

    tick("20:00")
    # 1615年春: claims, orders in the forms players type, and refusals.
    seen["alice"] = post(
        "20:05", "参加 月ノ美兎\n東京：徴兵 足軽２０００\n東京：編成 月ノ美兎（足軽）", ALICE
    )
    seen["bob"] = post("20:06", "参加 神奈川\n神奈川：出陣 大阪\n神奈川:内政", BOB)
    seen["carol"] = post("20:07", "参加 静凛\n埼玉：徴兵 騎兵", CAROL)
    seen["eve"] = post("20:08", "参加 静凛\n参加 モイラ\n山梨：内政", EVE)
    seen["frank"] = post("20:09", "参加 葛葉\n愛知：配信 葛葉 統率", FRANK)
    seen["gm"] = post("20:10", f"設定 players.社築={signed(DAVE)}", GM)
    post("20:10", "状態", GM)  # before the first update: the claims taken so far count
    seen["receipt1"] = tick("20:11")
    seen["dave"] = post("20:12", "千葉：内政", DAVE)
    # one command per area: the later line runs, and its receipt says which was replaced (issue 25)
    seen["bob2"] = post("20:12", "神奈川：徴兵 騎兵500\n神奈川：配信", BOB)
    # a country nobody has joined: the GM (by trip) may order it, a name "GM" without the trip not (issue 24)
    seen["gm_order"] = post("20:12", "大阪：内政", GM)
    seen["fake_gm"] = post("20:12", "京都：内政", "GM")
    seen["receipt_dave"] = tick("20:13")
    seen["report1"] = tick("21:02")
    # 1615年夏: a battle with relief designations; the reminder names who sent nothing.
    post("21:05", "神奈川：出陣 東京 剣持刀也(足軽)", BOB)
    post("21:06", "東京：内政\n千葉：外交 同盟 東京", ALICE)
    post("21:07", "埼玉：配信", CAROL)
    seen["reminder"] = tick("21:31")
    post("21:40", "山梨：徴兵 弓兵500", EVE)
    post("21:41", "千葉：外交 同盟 東京", DAVE)
    post("21:42", "東京：外交 同盟 千葉", ALICE)
    seen["report2"] = tick("22:02")
    # 1615年秋: 状態 from the GM, then orders.
    post("22:05", "状態", GM)
    seen["status"] = tick("22:06")
    post("22:10", "千葉：救援 社築\n東京：配信 月ノ美兎", ALICE)
    post("22:11", "千葉：救援 社築\n千葉：内政", DAVE)
    post("22:12", "神奈川：出陣 東京", BOB)
    post("22:13", "埼玉：徴兵 足軽1000", CAROL)
    post("22:14", "取消", CAROL)  # withdraws the 徴兵: the replay in verify must drop it too
    seen["report3"] = tick("23:02")
    # 1615年冬: snow in 埼玉.
    post("23:10", "埼玉：出陣 群馬", CAROL)
    post("23:11", "愛知：配信", FRANK)
    seen["report4"] = tick("24:02")
    seen["bot_posts"] = [p.body for p in board.posts() if p.trip == BOT_TRIP]
    seen["thread"] = [ThreadPost(p.number, p.trip, p.date, p.body, p.name) for p in board.posts()]
    seen["key"] = board.key
    seen["url"] = board.url()
    yield seen
    board.close()
    store.close()


def test_the_opening_names_the_game(played) -> None:
    assert played["bot_posts"][0].startswith("【にじ野望 開始】")


def test_the_opening_shows_the_table_and_the_forms_and_no_config_key_or_path(played) -> None:
    """Issue 25: the opening showed `(scenario: start_year…)` and the adjacency file's path."""
    opening = played["bot_posts"][0]
    assert "設定: 1615年春から 春→夏→秋→冬／出陣は隣接エリアへ" in opening
    assert "東京：出陣 神奈川 月ノ美兎(騎兵) 剣持刀也(足軽3000)" in opening and "参加 月ノ美兎" in opening
    assert not re.search(r"scenario|start_year|\.tsv|\.\./|None|True", opening), opening


def test_the_receipt_takes_the_forms_players_type_and_says_why_it_refuses(played) -> None:
    receipt = played["receipt1"]
    assert receipt.startswith("【受付 ピリオド1")
    assert f">>{played['alice']} 東京：徴兵 足軽2000" in receipt  # full-width digits
    assert f">>{played['alice']} 東京：編成 月ノ美兎(足軽)" in receipt
    assert f">>{played['bob']} 神奈川：内政" in receipt  # half-width colon
    refused = receipt.split("受け付けられなかった命令:")[1]
    assert f">>{played['bob']} 神奈川：出陣 大阪 → 大阪は神奈川の隣接エリアではありません" in refused
    assert f">>{played['carol']} 埼玉：徴兵 騎兵 → 徴兵は兵種と数を書いてください" in refused
    assert f">>{played['dave']} 千葉：内政" in played["receipt_dave"]


def test_status_before_the_first_update_counts_the_claims_taken(played) -> None:
    status = played["receipt1"].split("【にじ野望 1615年春】")[1]
    assert f"月ノ美兎={signed(ALICE)}（参加受付済み）" in status
    assert f"社築={signed(DAVE)}" in status and "プレイヤー: まだいません" not in status
    assert "プレイヤー（6人）" in status, status[:300]


def test_a_claim_is_answered_with_the_country_joined(played) -> None:
    assert (
        f">>{played['alice']} 参加 月ノ美兎（東京の月ノ美兎として参加、季節の判定で確定）"
        in played["receipt1"]
    )
    assert "静凛には先に" in played["receipt1"]  # Eve's 参加 静凛 after Carol's


RECEIPT_LINE = re.compile(r"^>>(\d+) ([^（]+?)(?:（(.*)）)?$")
WONT_RUN = ("無効", "実行されません", "取りやめ")


def _receipt_lines(played) -> list[tuple[int, int, str, str]]:
    """(period, post, canonical, note) of every accepted line of every receipt, in thread order."""
    found = []
    for body in played["bot_posts"]:
        head = re.match(r"^【受付 ピリオド(\d+)", body)
        if head is None:
            continue
        for text in body.split("受け付けられなかった命令:")[0].split("\n")[1:]:
            match = RECEIPT_LINE.match(text)
            if match and match[2] != "準備完了":
                found.append((int(head[1]), int(match[1]), match[2], match[3] or ""))
    return found


def _effect(canonical: str) -> str | None:
    """The report line that shows an order ran (None: the report has no line of its own for it)."""
    command = parse_line(canonical).command
    if isinstance(command, Act):
        return None
    markers = {
        "内政": " 内政：",
        "徴兵": " 徴兵：",
        "配信": " 配信（",
        "移動": " 移動：",
        "編成": " 編成：",
        "救援": " 救援部隊：",
        "委任": " 委任：",
    }
    if command.kind == "出陣":
        return f"【合戦 {command.target}"
    return command.area + markers[command.kind] if command.kind in markers else None


def _shown(report: str, effect: str) -> bool:
    if effect.startswith("【"):
        return effect in report
    return any(text.startswith(effect) and "実行されず" not in text for text in report.split("\n"))


def test_every_receipt_line_agrees_with_the_report_of_its_season(played) -> None:
    """A receipt is a promise (issue 25): a line accepted without a word runs — the report shows it
    and does not refuse it; a line the receipt says will not run (replaced, void) does not."""
    authors = {p.number: f"x◆{p.trip}" for p in played["thread"]}
    everything = _receipt_lines(played)
    cancels = [(period, post) for period, post, canonical, _ in everything if canonical.startswith("取消:")]
    lines = [line for line in everything if not line[2].startswith("取消:")]
    checked = 0
    for index, (period, post, canonical, note) in enumerate(lines):
        withdrawn = any(p == period and authors[c] == authors[post] and post < c for p, c in cancels)
        report = played[f"report{period}"]
        refused = f">>{post} {canonical} →" in report
        order = Order(post, 0, authors[post], authors[post], parse_line(canonical).command, canonical)
        later = [
            o
            for p2, post2, c2, _ in lines[index + 1 :]
            if p2 == period
            and RULESET.order_key(
                o := Order(post2, 0, authors[post2], authors[post2], parse_line(c2).command, c2)
            )
            == RULESET.order_key(order)
        ]
        runs = not later and not withdrawn and not any(word in note for word in WONT_RUN)
        effect = _effect(canonical)
        shown = effect is not None and _shown(report, effect)
        if runs:
            assert not refused and (effect is None or shown), (canonical, note, report)
        else:
            replaced_by_other = later and parse_line(later[-1].canonical).command.kind != order.command.kind
            assert refused or not (replaced_by_other or withdrawn) or not shown, (canonical, note, report)
        checked += 1
    assert checked >= 20 and cancels
    assert "神奈川は1命令：徴兵が有効、内政は取消" in played["receipt_dave"]
    assert "神奈川は1命令：配信が有効、徴兵は取消" in played["receipt_dave"]
    assert "神奈川 配信（剣持刀也）" in played["report1"] and "神奈川 徴兵" not in played["report1"]
    assert "神奈川 内政" not in played["report1"]


def test_only_the_gm_orders_a_country_nobody_has_joined(played) -> None:
    assert f">>{played['gm_order']} 大阪：内政" in played["receipt_dave"]
    assert f">>{played['fake_gm']} 京都：内政（このままでは実行されません" in played["receipt_dave"]
    assert "大阪 内政：国力+3 → 8" in played["report1"] and "京都 内政" not in played["report1"]


def test_the_first_claim_wins_and_the_gm_assigns(played) -> None:
    report = played["report1"]
    assert report.startswith("【ピリオド1 更新】\n【にじ野望 1615年春の判定】")
    assert f"静凛：{signed(CAROL)}が参加" in report
    assert f"モイラ：{signed(EVE)}が参加" in report
    # Eve's 参加 静凛 after Carol's can never run: refused at the receipt, not carried to the report
    assert (
        f">>{played['eve']} 参加 静凛 → 静凛には先に>>{played['carol']}の参加があります" in played["receipt1"]
    )
    assert "静凛には既にプレイヤーがいます" not in report
    assert "東京 徴兵：足軽2000（国力-2 → 3）" in report
    assert "千葉 内政：国力+3 → 8" in report
    assert "愛知 配信（葛葉）：1D6=" in report


def test_every_season_is_resolved_once_with_its_standings(played) -> None:
    bodies = played["bot_posts"]
    for number, season in enumerate(("春", "夏", "秋", "冬"), start=1):
        reports = [b for b in bodies if b.startswith(f"【ピリオド{number} 更新】")]
        assert len(reports) == 1 and f"1615年{season}の判定" in reports[0]
        report = played[f"report{number}"]
        assert f"鍵 ピリオド{number}: " in report
        # what changed, not the 47 countries again (the full table is 状態's and the game page's)
        assert (
            "【勢力の変化（全体は 状態 で）】" in report
            and "【勢力】" not in report
            and "【地図】" not in report
        )
    # a season takes one post or two (four or five with the 47-row table and the map)
    assert all(played["posts"][at] <= 2 for at in ("21:02", "22:02", "23:02", "24:02")), played["posts"]


def test_the_reminder_names_the_lords_who_sent_nothing(played) -> None:
    reminder = played["reminder"]
    assert "【締切のお知らせ ピリオド2】" in reminder
    missing = reminder.split("まだ命令がない人: ")[1]
    assert signed(EVE) in missing and signed(DAVE) in missing and signed(FRANK) in missing
    assert signed(ALICE) not in missing and signed(BOB) not in missing


def test_the_summer_battle_and_the_alliance(played) -> None:
    report = played["report2"]
    assert "同盟成立：社築と月ノ美兎" in report
    assert "千葉に命令できるのは社築のプレイヤーだけです" in played["reminder"]  # Alice's 千葉 line
    assert "【合戦 東京（平地・統率）】" in report
    assert re.search(r"→ 東京(は|の)", report)


def test_status_shows_the_standings_and_the_map(played) -> None:
    status = played["status"]
    assert "にじ野望 1615年秋" in status and "関東:" in status


def test_autumn_relief_and_winter_snow(played) -> None:
    report3, report4 = played["report3"], played["report4"]
    assert "千葉 救援部隊：社築" in report3
    assert "【合戦 群馬（雪地・政治）】" in report4


def test_verify_recomputes_every_die_of_every_season(played) -> None:
    verified = verify_thread(played["key"], played["thread"], render_body, None, REGISTRY.by_name)
    assert verified.ok and (verified.periods_checked, verified.periods_matched) == (4, 4), verified.summary()


def test_threadgm_verify_recomputes_the_thread_from_its_url(played) -> None:
    result = CliRunner().invoke(main, ["verify", played["url"]])
    assert result.exit_code == 0, result.output
    assert "ゲーム: にじ野望" in result.output and "一致 4 件、不一致 0 件" in result.output


def test_verify_recomputes_when_the_opening_took_two_posts(played) -> None:
    """Issue 25: verify said 「結果は再計算できません」 (also with --rules) when the board's limits had
    split the opening, leaving its key hash in the second post."""
    thread, split = [], False
    for post in played["thread"]:
        number = post.number + split
        if not split and post.body.startswith("【にじ野望 開始】"):
            head, _, tail = post.body.partition("\nピリオド1 ")
            thread += [
                ThreadPost(number, post.trip, post.date, head),
                ThreadPost(number + 1, post.trip, post.date, "ピリオド1 " + tail),
            ]
            split = True
            continue
        thread.append(ThreadPost(number, post.trip, post.date, post.body))
    assert split
    verified = verify_thread(played["key"], thread, render_body, None, REGISTRY.by_name)
    assert (verified.periods_checked, verified.periods_matched) == (4, 4), verified.summary()
    assert verified.game == "にじ野望"


def test_verify_with_the_scenario_recomputes_every_season_from_the_thread(played) -> None:
    """Issue 25: verify recomputes にじ野望 from the thread — given the scenario, each season's report
    is recomputed from the orders the receipts accepted, the GM's echoed settings and the season's
    key, and compared line by line; without it, the note says what to give."""
    verified = verify_thread(
        played["key"], played["thread"], render_body, None, REGISTRY.by_name, scenario={}
    )
    assert verified.ok and (verified.audits_checked, verified.audits_matched) == (4, 4), verified.summary()
    forged = [
        ThreadPost(
            p.number, p.trip, p.date, p.body.replace("東京は持ちこたえ", "東京は剣持刀也が占領"), p.name
        )
        for p in played["thread"]
    ]
    again = verify_thread(played["key"], forged, render_body, None, REGISTRY.by_name, scenario={})
    assert not again.ok and any("命令からの再計算と一致しません" in p for p in again.problems), (
        again.summary()
    )
    plain = verify_thread(played["key"], played["thread"], render_body, None, REGISTRY.by_name)
    assert any("--scenario" in note for note in plain.notes) and plain.audits_checked == 0


def test_threadgm_verify_with_rules_and_scenario_replays_the_seasons(played) -> None:
    from pathlib import Path

    import engine.rules.nijiyabou as game

    scenario = Path(game.__file__).parent / "scenarios" / "default.toml"
    args = ["verify", played["url"], "--rules", "nijiyabou", "--scenario", str(scenario)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "一致 4 件、不一致 0 件" in result.output and "照合: 一致 4 件" in result.output, result.output
