"""The game page over HTTP, beside games the bot played on the local board: it shows the stored
state and what the thread was told, keeps every secret, shows hostile names and posts as text, and
changes nothing (only GET and HEAD are answered)."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import requests

from engine import keys, svg
from engine.dice import answers
from engine.keys import game_seed
from tests.web import played
from web.export import export

G = f"{{{svg.SVG_NS}}}g"


def fetch(page, path: str) -> str:
    answer = requests.get(page.url + path, timeout=10)
    assert answer.status_code == 200, (path, answer.status_code)
    return answer.text


def every_page(game: played.Played) -> dict[str, str]:
    page = game.page or game.serve()
    game_id = game.config.id
    paths = ["/", f"/games/{game_id}/", f"/games/{game_id}/live", f"/games/{game_id}/summary.json"]
    shown = {path: fetch(page, path) for path in paths}
    picture = requests.get(f"{page.url}/games/{game_id}/picture.svg", timeout=10)
    if picture.status_code == 200:
        shown["picture.svg"] = picture.text
    for dialect in ("atwiki", "pukiwiki", "markdown"):
        shown[dialect] = export(game.store, game.config, game.bot.setup, dialect)
    return shown


@pytest.fixture
def naval(tmp_path: Path):
    game = played.naval(tmp_path, periods=1)
    yield game
    game.close()


def test_the_naval_page_shows_the_stored_state_and_the_posts_as_posted(naval) -> None:
    page = naval.serve()
    text = fetch(page, "/games/naval/")
    state = naval.bot.setup.ruleset.state_from_dict(json.loads(naval.store.last_resolution("naval").state))
    picture = ET.fromstring(re.search(r"<svg .*?</svg>", text, re.S)[0])
    stacks = {
        g.get("data-hex"): g.get("data-units").split() for g in picture.iter(G) if g.get("class") == "units"
    }
    expected: dict[str, list[str]] = {}
    for unit in state.units.values():
        where = state.hex_of(unit)
        expected.setdefault(f"{where[0]},{where[1]}", []).append(unit.id)
    assert (
        stacks == expected
        and "XYZ-DD-X-01" not in text.split('<section id="standings">')[1].split("</section>")[0]
    )
    # the standings are the 状態 table of that state, cell for cell
    status = naval.bot.setup.ruleset.status(state)
    cells = [
        html.unescape(c)
        for c in re.findall(r"<td>(.*?)</td>", text.split('id="standings"')[1].split("</section>")[0])
    ]
    assert cells == [
        cell
        for block in status.blocks
        for inner in getattr(block, "blocks", [block])
        for row in getattr(inner, "rows", ())
        for cell in row
    ]
    # every opening, report and end the bot posted, as posted; never a receipt
    posted = [html.unescape(body) for body in re.findall(r"<pre>(.*?)</pre>", text, re.S)]
    bot = [p.body for p in naval.board.posts() if p.trip and p.body.startswith(("【ピリオド", "【海戦"))]
    assert sorted(posted) == sorted(bot) and not any(body.startswith("【受付") for body in posted)
    assert 'id="period">2<' in text and "12/01 22:00" in text and "命令を送った人" in text
    assert naval.board.url() in text  # the link to the thread
    # the key of period 1 is out (its report was sent), period 2's is not
    setup = naval.bot.setup
    assert setup.period_key(1).hex() in text and setup.period_key(2).hex() not in text
    assert keys.commitment(setup.period_key(2)) in text


def test_who_has_sent_orders_is_shown_but_never_what_until_the_period_is_resolved(naval) -> None:
    naval.post("＜攻撃＞ABC-DD-A-02、XYZ-DD-X-02", name=played.ALICE)
    naval.tick(minutes=1)
    page = naval.serve()
    summary = json.loads(fetch(page, "/games/naval/summary.json"))
    assert summary["senders"] == ["ABC"] and summary["period"] == 2
    for path, text in every_page(naval).items():
        assert "XYZ-DD-X-02" not in text or "＜攻撃＞ABC-DD-A-02" not in text, path
        assert "ABC-DD-A-02、XYZ-DD-X-02" not in text, path
    assert '<span class="sender">ABC</span>' in fetch(page, "/games/naval/live")


def test_no_page_or_export_holds_a_secret(tmp_path: Path) -> None:
    game = played.guess(tmp_path)
    game.post("＜予想＞37", name=played.HOSTILE)
    secret = game.post("S2D6+1 こっそり <img src=x onerror=alert(1)>", name="ダイス民")
    game.tick(minutes=1)
    game.clock.now = game.clock.now.replace(hour=21, minute=1)
    game.tick()  # period 1 resolved and told
    game.post("＜予想＞55", name=played.HOSTILE)
    game.tick(minutes=1)  # period 2's order taken, not yet resolved
    setup = game.bot.setup
    thread_key = game.board.key
    hidden = answers.answer(
        thread_key,
        secret,
        game.board.posts()[secret - 1].body,
        setup.day_key("2026-12-01"),
        setup.secret_keys(thread_key, secret),
    ).meta["secret"]
    never = {
        "the game's seed": setup.secret.hex(),
        "the configured seed": "web-guess",
        "the open period's key": setup.period_key(2).hex(),
        "the next period's key": setup.period_key(3).hex(),
        "the secret dice's key": setup.rules_secret.hex(),
        "the secret roll's key": setup.secret_keys(thread_key, secret)(0).hex(),
        "the open period's order": "＜予想＞55",
        "the receipt of the open period": "【受付 ピリオド2",
    }
    never |= {f"the secret roll {i}": text for i, text in hidden.items()}
    assert setup.secret == game_seed("web-guess")
    for path, text in every_page(game).items():
        for what, value in never.items():
            assert value not in text, f"{path} shows {what}"
    # what may be shown is: the resolved period's key, the commitments
    assert setup.period_key(1).hex() in fetch(game.page, "/games/guess/")
    game.close()


def test_hostile_names_and_posts_are_shown_as_text(tmp_path: Path) -> None:
    game = played.guess(tmp_path)
    game.post("＜予想＞37", name=played.HOSTILE)
    game.tick(minutes=1)
    game.clock.now = game.clock.now.replace(hour=21, minute=1)
    game.tick()
    game.post("＜予想＞55", name=played.HOSTILE)
    game.tick(minutes=1)
    for path, text in every_page(game).items():
        if path.endswith(".json"):
            assert json.loads(text)["senders"] == [played.HOSTILE]
            continue
        assert "<script>alert" not in text, path
    page = fetch(game.page, "/games/guess/")
    assert "&lt;script&gt;alert(&#34;名前&#34;)&lt;/script&gt;" in page
    game.close()


def test_hostile_names_in_a_scenario_stay_text_in_the_picture(tmp_path: Path) -> None:
    hostile = ("<img src=x>", "北海道", "青森", '"><svg onload=1>')
    game = played.battle_royale(tmp_path, roster=hostile, periods=1)
    page = game.serve()
    text = fetch(page, "/games/br/")
    assert "<img src=x>" not in text and "<svg onload" not in text
    picture = ET.fromstring(re.search(r"<svg .*?</svg>", text, re.S)[0])
    names = {g.get("data-name") for g in picture.iter(G) if g.get("class") == "tile"}
    assert names == set(hostile)
    game.close()


def test_nothing_but_get_and_head_is_answered(naval) -> None:
    page = naval.serve()
    paths = [
        "/",
        "/games/naval/",
        "/games/naval/live",
        "/games/naval/summary.json",
        "/games/naval/picture.svg",
        "/static/page.js",
    ]
    for path in paths:
        assert requests.head(page.url + path, timeout=10).status_code == 200, path
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            answer = requests.request(method, page.url + path, data="x", timeout=10)
            assert answer.status_code == 405, (method, path)
    answer = requests.get(page.url + "/games/naval/", timeout=10)
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert requests.get(page.url + "/games/nope/", timeout=10).status_code == 404
    assert requests.get(page.url + "/static/..%2fapp.py", timeout=10).status_code == 404
    assert requests.get(page.url + "/static/../app.py", timeout=10).status_code == 404


def test_a_new_period_moves_the_mark_the_page_polls(naval) -> None:
    page = naval.serve()
    before = json.loads(fetch(page, "/games/naval/summary.json"))
    naval.post("＜攻撃＞ABC-DD-A-02、XYZ-DD-X-02", name=played.ALICE)
    naval.tick(minutes=1)
    naval.clock.now = naval.clock.now.replace(hour=22, minute=1)
    naval.tick()
    after = json.loads(fetch(page, "/games/naval/summary.json"))
    assert after["mark"] != before["mark"] and after["status"] == "finished"
    live = fetch(page, "/games/naval/live")
    assert (
        'id="resolved">2<' in live
        and "【ピリオド2 更新】" in live
        and naval.bot.setup.rules_secret.hex() in live
    )


def test_a_game_without_a_picture_shows_its_status_table(tmp_path: Path) -> None:
    game = played.dice(tmp_path)
    game.post("2D6 <img src=x onerror=alert(1)>", name=played.HOSTILE)
    game.tick(minutes=1)
    page = game.serve()
    text = fetch(page, "/games/dice/")
    assert "このゲームには図がありません" in text and "&gt;&gt;" in text
    assert requests.get(page.url + "/games/dice/picture.svg", timeout=10).status_code == 404
    game.close()


def test_a_receipt_rebuilds_the_page_without_folding_the_game_again(naval, monkeypatch) -> None:
    import web.view

    folds: list[str] = []
    original = web.view.periods
    monkeypatch.setattr(
        web.view, "periods", lambda *args, **kw: folds.append("fold") or original(*args, **kw)
    )
    views = web.view.Views(naval.store, [(naval.config, naval.bot.setup)])
    assert views.view("naval").senders == [] and folds == ["fold"]
    naval.post("＜攻撃＞ABC-DD-A-02、XYZ-DD-X-02", name=played.ALICE)
    naval.tick(minutes=1)
    assert views.view("naval").senders == ["ABC"] and folds == ["fold"]  # the order: no fold
    naval.clock.now = naval.clock.now.replace(hour=22, minute=1)
    naval.tick()
    assert views.view("naval").status == "finished" and folds == ["fold", "fold"]  # the period: one


def test_a_hidden_mastermind_stays_hidden_on_every_page(tmp_path: Path) -> None:
    game = played.battle_royale(tmp_path, periods=2, mastermind=True)
    state = json.loads(game.store.last_resolution("br").state)
    mastermind = state["mastermind"]
    assert mastermind["name"] and not mastermind["revealed"], "the seed must leave the mastermind hidden"
    for path, text in every_page(game).items():
        for secret in (
            "黒幕は『",
            "協力者に",
            "（GM）",
            f"黒幕『{mastermind['name']}』",
            game.bot.setup.rules_secret.hex(),
        ):
            assert secret not in text, (path, secret)
        for name in mastermind["collaborators"]:
            assert f"協力者『{name}』" not in text, path
    game.close()


def test_the_status_is_said_in_japanese_on_every_page(naval) -> None:
    page = naval.serve()
    for path in ("/", "/games/naval/", "/games/naval/live"):
        text = fetch(page, path)
        assert "進行中" in text, path
        assert not re.search(r">\s*(running|paused|finished|not started)\s*<", text), path
