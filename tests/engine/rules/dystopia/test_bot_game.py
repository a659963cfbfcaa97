"""DysTopiA played by the bot on the local board: a GM and three players (one posting a
【キャラシート】), checks with a critical and a fumble, BP spent, an emotion roll, a PC down and back up,
a handout committed at the start, investigated and published — and checked from the thread's text, a
tampered text or key failing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from board.tripcode import name_and_trip
from engine.rules import REGISTRY
from engine.rules.dystopia import audit_handouts, verify_handout
from engine.verify import ThreadPost, verify_thread
from poster.markup import render_body
from scheduler import BotConfig, GameConfig, ThreadBot
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
gm = ["◆{trip(GM)}"]

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
        self.bot = ThreadBot(config, BotConfig(name=BOT_NAME), self.store, make_session(), self.clock)
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


def test_a_session_on_the_local_board(session: Session) -> None:
    opening = session.say("セッション開始", GM)
    commitments = dict(
        re.findall(r"裏ハンドアウト (\S+) コミットメント\(HMAC-SHA256\): ([0-9a-f]{64})", opening)
    )
    assert set(commitments) == {"アキラ", "ユイ"} and "密偵" not in opening

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
    setting = session.say("設定 sheets.ケン.hp=22\n状態", GM)
    assert "ケン\u300022/22\u3000" in setting and "DysTopiA・手番" in setting
    bodies = [p.body for p in session.board.posts() if p.trip == BOT_TRIP]
    assert sum(body.count("王家") for body in bodies) == 1  # published once, never before
    audit = audit_handouts(bodies)
    assert (audit.checked, audit.matched, audit.problems) == (1, 1, [])
    tampered = audit_handouts([body.replace("王家", "商家") for body in bodies])
    assert tampered.problems == ["ユイの裏ハンドアウトの本文か鍵が、最初のコミットメントと一致しません"]
    forged = audit_handouts([body.replace(f"ユイ: {key}", f"ユイ: {'0' * 64}") for body in bodies])
    assert forged.matched == 0 and len(forged.problems) == 1

    _verified_with_the_game(session)


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
