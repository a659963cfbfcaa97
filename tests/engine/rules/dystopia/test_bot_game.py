"""DysTopiA played by the bot on the local board: a GM and three players (one posting a
【キャラシート】), checks with a critical and a fumble, BP spent, an emotion roll, a PC down and back up,
a handout committed in the opening, investigated and published, a GM's 設定 and 巻き戻し — and checked
from the thread's text: every step recomputed by verify once the day's key is out, a tampered text,
key or step answer failing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from board.tripcode import name_and_trip
from engine.offline.verify import ThreadPost, verify_thread
from engine.rules import REGISTRY
from engine.rules.dystopia import audit_handouts, verify_handout
from poster.markup import render_body
from scheduler import BotConfig, GameConfig, ThreadBot, main
from scraper.fetch import make_session
from store.db import Store
from tests.bot_harness import BOT_NAME, BOT_TRIP, LocalBoard
from tests.test_scheduler_periods import Clock

GM = "GM#threadgm-test-key"
AKIRA = "アキラ#dystopia-akira"
YUI = "ユイ#dystopia-yui"
KEN = "ケン#dystopia-ken"


def trip(key: str) -> str:
    found = name_and_trip(key)[1]
    assert found
    return found


def scenario_text() -> str:
    return f"""title = "テスト卓"

[[pcs]]
name = "アキラ"
owner = "◆{trip(AKIRA)}"
race = "人間"
classes = ["ナイト", "ナイト"]
stats = {{ "肉体" = 8, "集中" = 6, "反射" = 7, "知識" = 5, "幸運" = 4 }}
hp = 30
durability = 12
mp = 20
connections = [{{ to = "ユイ", emotion = "友情", strength = 4 }}]
handout = "あなたは組織の密偵だ。"

[[pcs]]
name = "ユイ"
owner = "◆{trip(YUI)}"
race = "獣人"
classes = ["メイジ", "スカウト"]
stats = {{ "肉体" = 5, "集中" = 8, "反射" = 7, "知識" = 7, "幸運" = 5 }}
hp = 24
durability = 10
mp = 30
connections = [{{ to = "アキラ", emotion = "信頼", strength = 5 }}]
handout = "あなたは失われた王家の末裔である。"
"""


KEN_SHEET = """【キャラシート】
名前: ケン
CL: 1
種族: 人間
クラス: ガンナー/ナイト
肉体: 6
集中: 6
反射: 8
知識: 4
幸運: 3
HP: 22
耐久値: 9
MP: 14
コネクション: アキラ/尊敬/3"""


CCFOLIA = (
    '{"kind":"character","data":{"name":"ミオ","status":[{"label":"HP","value":18,"max":25}],'
    '"params":[{"label":"反射","value":"9"},{"label":"魅力","value":"3"}]}}'
)


class Session:
    def __init__(self, tmp_path: Path) -> None:
        self.clock = Clock()
        self.board = LocalBoard.start(tmp_path / "board", clock=self.clock, title="DysTopiAスレ")
        scenario = tmp_path / "dystopia.toml"
        scenario.write_text(scenario_text(), "utf-8")
        config = GameConfig(
            "dys", "dystopia", self.board.url(), scenario=scenario, gm_trips=(trip(GM),), seed="dystopia-e2e"
        )
        self.store = Store(tmp_path / "bot.sqlite")
        self.bot = ThreadBot(
            config, BotConfig(name=BOT_NAME), self.store, make_session(), self.clock, registry=REGISTRY
        )
        self.minute = 0

    def say(self, text: str, name: str) -> str:
        """Post, let the bot answer, and return its answer to the post."""
        self.minute += 1
        self.clock.at(f"20:{self.minute:02d}:00")
        number = self.board.post(text, name=name)
        self.bot.tick()
        answers = self.board.replies_to(number)
        assert len(answers) == 1, (text, answers)
        return answers[0]

    def close(self) -> None:
        self.board.close()
        self.store.close()


@pytest.fixture
def session(tmp_path: Path):
    game = Session(tmp_path)
    yield game
    game.close()


def _opening(session: Session) -> dict[str, str]:
    """The bot's first poll, before anyone writes: its day keys and the opening with the commitments."""
    session.clock.at("20:00:00")
    session.bot.tick()
    (opening,) = [p.body for p in session.board.posts() if p.trip == BOT_TRIP]
    assert "【DysTopiA 開始】\n卓: テスト卓" in opening and "ヘルプ と書くと" in opening
    commitments = dict(
        re.findall(r"裏ハンドアウト (\S+) コミットメント\(HMAC-SHA256\): ([0-9a-f]{64})", opening)
    )
    assert set(commitments) == {"アキラ", "ユイ"} and "密偵" not in opening
    started = session.say("セッション開始", GM)
    assert "コミットメント" not in started  # committed once, in the opening
    return commitments


def _gm_log(session: Session) -> None:
    """The engine's GM commands on a DysTopiA game: 設定 (from the next step on) and 巻き戻し."""
    setting = session.say("設定 sheets.ケン.hp=22\n状態", GM)
    assert "ケン\u300022/22\u3000" in setting and "DysTopiA・手番" in setting
    assert "ケン\u300022/22\u3000" in session.say("状況", KEN)
    assert "手番18を巻き戻しました" in session.say("巻き戻し", GM)
    assert "HP22→17" in session.say("ダメージ ケン 5", GM)  # played on from before the undone step


def test_a_session_on_the_local_board(session: Session, tmp_path: Path) -> None:
    commitments = _opening(session)

    sheet = session.say(KEN_SHEET, KEN)
    assert "キャラシートを登録しました：ケン" in sheet and "SL合計は[CL×5]+15＝20点です（0点）" in sheet

    imported = session.say(CCFOLIA, "ミオ#dystopia-mio")
    assert "キャラシートを登録しました：ミオ" in imported and "読まなかった項目：魅力" in imported

    critical = session.say("肉体判定 C3 F0", AKIRA)
    assert "アキラの肉体判定（C値3／F値0）" in critical and "クリティカル（自動成功）" in critical
    fumble = session.say("〈反射〉+1 目標10 F18", YUI)
    assert "ファンブル（自動失敗）" in fumble
    again = session.say("チャンスメイク アキラ", YUI)
    assert "アキラへの感情（強度5）を切りました" in again and "(3D6+8>=10)" in again
    twice = session.say("チャンスメイク", YUI)
    assert "同じ判定に2度チャンスメイクは使えません" in twice

    down = session.say("ダメージ ケン 30", GM)
    assert "ケンは[戦闘不能状態]" in down
    assert "判定できません" in session.say("肉体判定", KEN)
    up = session.say("不屈の闘志 アキラ", KEN)
    assert "ケンの[戦闘不能状態]を解除、HP1" in up

    assert "感情ロールを許可" in session.say("感情ロール許可", GM)
    rolled = session.say("感情ロール ユイ", AKIRA)
    face = int(re.search(r"1D6 ＞ (\d)", rolled)[1])
    raised = session.say(f"感情上昇 ユイ {min(face, 6)}", AKIRA)
    assert f"強度4→{4 + face}" in raised

    asked = session.say("調査 ユイ", AKIRA)
    assert "「同意 アキラ」か「拒否 アキラ」" in asked
    shown = session.say("同意 アキラ", YUI)
    text_lines = shown.split("\n")
    start = text_lines.index("【ユイの裏ハンドアウト公開】（アキラが知りました）")
    key = re.search(r"鍵 裏ハンドアウト ユイ: ([0-9a-f]{64})", shown)[1]
    text = "\n".join(text_lines[start + 1 : text_lines.index(f"鍵 裏ハンドアウト ユイ: {key}")])
    assert text == "あなたは失われた王家の末裔である。"
    assert verify_handout("ユイ", text, key, commitments["ユイ"])
    assert not verify_handout("ユイ", text.replace("王家", "商家"), key, commitments["ユイ"])
    assert not verify_handout("ユイ", text, key[:-1] + ("0" if key[-1] != "0" else "1"), commitments["ユイ"])

    status = session.say("状況", KEN)
    assert (
        "ケン\u30001/22\u3000" in status and "裏ハンドアウト ユイ：公開済み（知っている：アキラ）" in status
    )
    _gm_log(session)
    bodies = [p.body for p in session.board.posts() if p.trip == BOT_TRIP]
    assert sum(body.count("王家") for body in bodies) == 1  # published once, never before
    audit = audit_handouts(bodies)
    assert (audit.checked, audit.matched, audit.problems) == (1, 1, [])
    tampered = audit_handouts([body.replace("王家", "商家") for body in bodies])
    assert tampered.problems == ["ユイの裏ハンドアウトの本文か鍵が、最初のコミットメントと一致しません"]
    forged = audit_handouts([body.replace(f"ユイ: {key}", f"ユイ: {'0' * 64}") for body in bodies])
    assert forged.matched == 0 and len(forged.problems) == 1

    _verified_with_the_game(session)
    _steps_recomputed(session)
    _verified_on_the_command_line(session, tmp_path)


def _verified_with_the_game(session: Session) -> None:
    """`threadgm verify --rules dystopia`: the steps are told apart from dice, the handout audited."""
    game = REGISTRY.get("dystopia")

    def verify(change=lambda body: body, game: object = game):
        shown = [
            ThreadPost(p.number, p.trip, p.date, change(p.body) if p.trip == BOT_TRIP else p.body)
            for p in session.board.posts()
        ]
        return verify_thread(session.board.key, shown, render_body, [BOT_TRIP], None, game, known=REGISTRY)

    checked = verify()
    assert checked.ok and len(checked.steps) >= 10
    assert (checked.audits_checked, checked.audits_matched) == (1, 1)
    assert "DysTopiAの手番への回答です" in checked.summary()
    assert not verify(lambda body: body.replace("王家", "商家")).ok
    unnamed = verify(game=None)  # no game named: the day's key is not public, nothing is claimed
    assert unnamed.steps == [] and unnamed.audits_checked == 0 and unnamed.ok


def _steps_recomputed(session: Session) -> None:
    """`threadgm verify --config`: every step replayed from the scenario, once the day's key is out."""
    game = REGISTRY.get("dystopia")
    scenario = game.read_scenario(scenario_text())

    def verify(change=lambda body: body, gm_trips: tuple[str, ...] | None = (trip(GM),)):
        shown = [
            ThreadPost(p.number, p.trip, p.date, change(p.body) if p.trip == BOT_TRIP else p.body, p.name)
            for p in session.board.posts()
        ]
        return verify_thread(
            session.board.key,
            shown,
            render_body,
            [BOT_TRIP],
            None,
            game,
            known=REGISTRY,
            scenario=scenario,
            gm_trips=gm_trips,
        )

    early = verify()  # the day is not over: steps without dice recomputed, then the replay stops
    assert early.ok and 0 < early.steps_checked == early.steps_matched < len(early.steps)
    assert "その日の鍵がまだ公開されていないため" in early.summary()
    session.clock.at("00:03:00", day=2)
    session.board.post("おつかれさまでした", name=KEN)
    session.bot.tick()  # the day is over: the bot publishes its key
    assert "鍵 2026-12-01: " in session.board.posts()[-1].body
    checked = verify()
    assert checked.ok, checked.summary()
    assert checked.steps_checked == checked.steps_matched == len(checked.steps) == 18
    assert "手番 18 件の結果を再計算: 一致 18 件、不一致 0 件" in checked.summary()
    assert not verify(gm_trips=()).ok  # without the GM's 設定 and 巻き戻し the fold goes wrong
    inferred = verify(gm_trips=None)  # the GMs as the bot obeyed them
    assert inferred.ok and inferred.steps_matched == 18
    critical = verify(lambda body: body.replace("＞ クリティカル（自動成功）", "＞ 成功"))
    assert not critical.ok and critical.steps_matched == 17
    assert any(
        text.startswith(">>") and "の手番の結果が再計算と一致しません" in text for text in critical.problems
    )
    damage = verify(lambda body: body.replace("HP22→0", "HP22→2"))
    assert not damage.ok and damage.steps_checked - damage.steps_matched == 1


def _verified_on_the_command_line(session: Session, tmp_path: Path) -> None:
    """`threadgm verify DAT --config CFG` (the config names the game's scenario and GMs), and
    `--rules dystopia --scenario FILE`; a tampered step answer fails both."""
    config = tmp_path / "threadgm.toml"
    config.write_text(
        f'[bot]\nname = "{BOT_NAME}"\n\n[[game]]\nid = "dys"\nrules = "dystopia"\n'
        f'thread = "{session.board.url()}"\nscenario = "dystopia.toml"\ngm_trips = ["{trip(GM)}"]\n',
        "utf-8",
    )
    dat = session.board.data / "test" / "dat" / f"{session.board.key}.dat"
    tampered = tmp_path / "tampered" / dat.name
    tampered.parent.mkdir()
    text = dat.read_bytes().decode("cp932")
    assert text.count("HP22→17") == 1
    tampered.write_bytes(text.replace("HP22→17", "HP22→18").encode("cp932"))
    scenario = str(tmp_path / "dystopia.toml")
    for options in (["--config", str(config)], ["--rules", "dystopia", "--scenario", scenario]):
        checked = CliRunner().invoke(main, ["verify", str(dat), *options])
        assert checked.exit_code == 0, checked.output
        assert "手番 18 件の結果を再計算: 一致 18 件、不一致 0 件" in checked.output
        failed = CliRunner().invoke(main, ["verify", str(tampered), *options])
        assert failed.exit_code == 1 and "手番の結果が再計算と一致しません" in failed.output


def test_undoing_every_step_posts_the_same_opening_again(session: Session) -> None:
    commitments = _opening(session)
    assert "手番2を巻き戻しました" in session.say("巻き戻し", GM)
    assert "手番1を巻き戻しました" in session.say("巻き戻し", GM)  # the opening itself
    session.say("状況", KEN)
    bodies = [p.body for p in session.board.posts() if p.trip == BOT_TRIP]
    openings = [body for body in bodies if "【DysTopiA 開始】" in body]
    assert len(openings) == 2
    again = re.findall(r"裏ハンドアウト (\S+) コミットメント\(HMAC-SHA256\): ([0-9a-f]{64})", openings[1])
    assert dict(again) == commitments  # the same keys: no way to change a handout by undoing
    assert audit_handouts(bodies).problems == []


def test_settings_in_a_step_post_apply_in_the_order_written(session: Session) -> None:
    """A GM's 設定 written before 戦闘開始 in the same post counts for it; one written after, from then on."""
    _opening(session)
    session.minute += 1
    session.clock.at(f"20:{session.minute:02d}:00")
    number = session.board.post(
        "設定 sheets.アキラ.stats.行動値=7\n戦闘開始 アキラ\n設定 sheets.アキラ.stats.行動値=3", name=GM
    )
    session.bot.tick()
    first, step, last = session.board.replies_to(number)
    assert "設定しました: sheets.アキラ.stats.行動値=7" in first and "行動値=3" in last
    assert "カウント：アキラ7" in step and "次の手番：アキラ" in step, step
    after = session.say("行動放棄", AKIRA)
    assert "第2ラウンド：カウントを行動値に戻しました" in after and "None" not in after
    assert "カウント：アキラ3" in session.say("状況", AKIRA)


def test_the_page_and_the_export_show_each_answer_with_the_post_it_answers(session: Session) -> None:
    """Every result was labelled 「返答」 and the export had the answers without the posts they answer."""
    from web.export import export
    from web.view import _reports

    _opening(session)
    session.say("ユイ: 肉体判定", YUI)
    text = export(session.store, session.bot.game, session.bot.setup, "markdown")
    lines = text.split("\n")
    asked = next(i for i, t in enumerate(lines) if t.startswith("#") and f"ユイ◆{trip(YUI)}" in t)
    assert "ユイ: 肉体判定" in lines[asked + 1] and "返答" in lines[asked + 2]
    assert "ユイの肉体判定" in lines[asked + 3]
    from store.reads import sent_posts

    titles = [r.title for r in _reports(sent_posts(session.store, "dys", ("answer",)))]
    assert any(t.startswith(">>") and "への返答：ユイの肉体判定" in t for t in titles), titles


def test_verify_knows_the_gm_the_bot_obeyed_from_the_games_own_gm_commands(session: Session) -> None:
    """The GM's trip is only in the configuration: a thread whose GM used DysTopiA's own GM commands
    (シーン, ダメージ to a PC…) and none of the engine's (設定) still verifies without naming the GM."""
    _opening(session)
    session.say("シーン ドラマ", GM)
    session.say("ダメージ アキラ 5", GM)
    refused = session.say("シーン エンディング", "通りすがり")
    assert "GMだけが使えます" in refused
    session.clock.at("00:03:00", day=2)
    session.board.post("おつかれさまでした", name=KEN)
    session.bot.tick()
    game = REGISTRY.get("dystopia")
    shown = [ThreadPost(p.number, p.trip, p.date, p.body, p.name) for p in session.board.posts()]
    checked = verify_thread(
        session.board.key,
        shown,
        render_body,
        [BOT_TRIP],
        None,
        game,
        known=REGISTRY,
        scenario=game.read_scenario(scenario_text()),
        gm_trips=None,
    )
    assert checked.ok and checked.steps_checked == checked.steps_matched >= 4, checked.summary()
