"""A naval receipt is a promise (issue 25): an order that will be 無効 as the period stands is taken
with a warning that says why, in the words the period's report will use, and forced defeat A is
foretold. Written from seed 002: 「空母は自ら攻撃を行うことはできず」, 「戦闘機を直接攻撃目標ユニットに指定して
＜攻撃＞コマンドを実行することはできない」, 「同海域に存在するユニットに対してのみ」, 「配属基地…より4Hex以内」, 強制敗戦A."""

from __future__ import annotations

import random
import re

import pytest

from tests.referee_harness import PureGame, open_scenario, posted

_RECEIPT_LINE = re.compile(r"^>>(\d+) (＜[^（\n→]+?)(?:（(.*)）)?$", re.MULTILINE)  # taken, not refused (→)
_REPORT_LINE = re.compile(r"^>>(\d+) \d+\.[A-Z]+:(＜\S+?) → (.*)$", re.MULTILINE)


def _void(verdict: str) -> bool:
    """A report line's verdict is 無効 (a void order's line has no battle part: one arrow)."""
    return "無効" in verdict and " → " not in verdict


def _receipt(game: PureGame, body: str) -> str:
    texts = posted(game.poll([game.post(body)]))
    return "\n".join(texts)


@pytest.mark.parametrize(
    ("order", "warning"),
    [
        ("＜攻撃＞ABC-CV-A-01、XYZ-DD-X-01", "このままなら無効：空母は攻撃できません"),
        ("＜攻撃＞ABC-F-A-01、XYZ-F-X-01", "このままなら無効：戦闘機は＜攻撃＞の目標にできません"),
        (
            "＜攻撃＞ABC-DD-A-01、XYZ-DD-X-01",
            "このままなら無効：同海域にいません（ABC-DD-A-01は(5,3)、XYZ-DD-X-01は(6,3)）",
        ),
        (
            "＜攻撃＞XYZ-F-X-01、ABC-DD-A-01",
            "このままなら無効：戦闘機の行動範囲外（配属基地XYZから9Hex、4Hex以内のみ攻撃可能）",
        ),
        ("＜攻撃＞ABC-DD-A-01、ABC-CV-A-01", "このままなら無効：自軍のユニットABC-CV-A-01は攻撃できません"),
        (
            "＜インターセプト＞ABC-F-A-01、XYZ-F-X-01",
            "このままなら無効：XYZ-F-X-01はこの命令より前に＜攻撃＞も退避もしていません",
        ),
        (
            "＜インターセプト＞ABC-DD-A-01、XYZ-F-X-01",
            "このままなら無効：＜インターセプト＞できるのは戦闘機だけです",
        ),
        ("＜移動＞ABC-CV-A-01、(9,9)", "このままなら無効：移動できるのは1Hexまで（(4,4)から7Hex）"),
        ("＜移動＞ABC-CV-A-01、(4,4)", "このままなら無効：ABC-CV-A-01は既に(4,4)にいます"),
    ],
)
def test_an_order_void_as_the_period_stands_is_taken_with_why(order: str, warning: str) -> None:
    game = PureGame("naval")
    game.poll()
    receipt = _receipt(game, order)
    game.close()
    assert f">>2 {order}（{warning}" in receipt
    assert "受け付けられなかった" not in receipt  # taken: the page enters such an order, then finds it 無効


@pytest.mark.parametrize(
    ("order", "answer"),
    [
        (
            "＜攻撃＞ABC-F-A-01、XYZ-DD-Y-01",
            "目標のユニットXYZ-DD-Y-01は存在しません（もしかして: XYZ-DD-X-01）",
        ),
        ("＜攻撃＞ABC-F-B-01、XYZ-DD-X-01", "ユニットABC-F-B-01は存在しません（もしかして: ABC-F-A-01）"),
        (
            "＜攻撃＞ABC-F-A-01、XYZ-D-X-01",
            "目標のユニットXYZ-D-X-01は存在しません\n",
        ),  # DD, CV or F: no guess
        ("＜攻撃＞ABC-F-A-01、QQQ-DD-X-01", "目標のユニットQQQ-DD-X-01は存在しません\n"),
    ],
)
def test_a_mistyped_unit_is_refused_with_the_one_unit_it_can_be(order: str, answer: str) -> None:
    game = PureGame("naval")
    game.poll()
    receipt = _receipt(game, f"{order}\nよろしく")
    game.close()
    assert f">>2 {order} → {answer}" in receipt + "\n"


def test_the_receipt_names_the_units_as_the_scenario_and_the_report_do() -> None:
    game = PureGame("naval")
    game.poll()
    receipt = _receipt(game, "＜攻撃＞abc-f-a-1、ｘｙｚ－ｄｄ－ｘ－１")
    report = "\n".join(posted(game.poll(minutes=62)))
    game.close()
    assert receipt.endswith(">>2 ＜攻撃＞ABC-F-A-01、XYZ-DD-X-01")
    assert ">>2 1.ABC:＜攻撃＞ABC-F-A-01、XYZ-DD-X-01 → " in report


def test_an_order_that_can_run_has_no_warning() -> None:
    game = PureGame("naval")
    game.poll()
    receipt = _receipt(game, "＜攻撃＞ABC-F-A-01、XYZ-DD-X-01\n＜移動＞ABC-DD-A-01、(6,3)")
    game.close()
    assert ">>2 ＜攻撃＞ABC-F-A-01、XYZ-DD-X-01\n" in receipt
    assert receipt.endswith(">>2 ＜移動＞ABC-DD-A-01、(6,3)")


def test_a_move_after_an_attack_on_the_unit_foretells_forced_defeat_a() -> None:
    """強制敗戦A: 先に入力されている＜攻撃＞コマンドで攻撃対象にされている自軍ユニットを＜移動＞…したとき."""
    game = PureGame("naval")
    game.poll()
    _receipt(game, "＜攻撃＞ABC-F-A-01、XYZ-DD-X-01")
    receipt = _receipt(game, "＜移動＞XYZ-DD-X-01、(7,3)")
    report = "\n".join(posted(game.poll(minutes=62)))
    game.close()
    assert "このままなら強制敗戦A：XYZ-DD-X-01は先に入力されたABC-F-A-01の＜攻撃＞の攻撃対象のため" in receipt
    assert "＜移動＞は無効になり、その＜攻撃＞が有効ならXYZ-DD-X-01の敗戦です" in receipt
    assert "XYZ-DD-X-01の敗戦 → ABC-F-A-01勝利（XYZ-DD-X-01消滅）" in report
    assert (
        ">>3 2.XYZ:＜移動＞XYZ-DD-X-01、(7,3) → 強制敗戦A：1番目の＜攻撃＞の攻撃対象となっていたため＜移動＞は無効"
        in report
    )


def test_an_attack_on_an_escorted_carrier_and_the_carriers_move_foretell_forced_defeat_b() -> None:
    """強制敗戦B: 空母と同一の海域に、その空母の友軍である制海ユニットが存在しているときに、空母に対して＜攻撃＞
    したとき; and the page's ※: A and B at once, B first — the carrier's ＜移動＞ is void, it stays."""
    escorted = (
        open_scenario("naval").replace('id = "ABC-DD-A-01"\nhex = [5, 3]', 'id = "ABC-DD-A-01"\nhex = [4, 4]')
        + '\n[[units]]\nid = "XYZ-DD-X-02"\nhex = [4, 4]\nanti_air = 3\nanti_ship = 30\n'
    )
    game = PureGame("naval", escorted)
    game.poll()
    attack = _receipt(game, "＜攻撃＞XYZ-DD-X-02、ABC-CV-A-01")
    move = _receipt(game, "＜移動＞ABC-CV-A-01、(4,5)")
    report = "\n".join(posted(game.poll(minutes=62)))
    game.close()
    assert (
        "（このままなら強制敗戦B：空母ABC-CV-A-01と同海域に友軍の制海ユニットABC-DD-A-01がいるため、"
        in attack
    )
    assert "XYZ-DD-X-02の敗戦です（空母は敗戦しません）" in attack
    assert (
        "このままなら強制敗戦Bが優先：ABC-CV-A-01は先に入力されたXYZ-DD-X-02の＜攻撃＞の攻撃対象のため"
        in move
    )
    assert "この＜移動＞は無効で現海域から動けません" in move
    assert "→ XYZ-DD-X-02敗戦・消滅（ABC-CV-A-01勝利）" in report
    assert "＜移動＞は無効（強制敗戦Bが優先、ABC-CV-A-01は現海域から動けない）" in report


def test_an_attack_that_cannot_stand_foretells_no_forced_defeat() -> None:
    """Only a valid attack forces a defeat: after an attack out of range, a move is just a move."""
    game = PureGame("naval")
    game.poll()
    _receipt(game, "＜攻撃＞XYZ-F-X-01、ABC-DD-A-01")
    receipt = _receipt(game, "＜移動＞ABC-DD-A-01、(6,3)")
    game.close()
    assert receipt.endswith(">>3 ＜移動＞ABC-DD-A-01、(6,3)")


_UNITS = [
    *("ABC-DD-A-01", "ABC-DD-A-02", "ABC-CV-A-01", "ABC-F-A-01", "ABC-F-A-02"),
    *("XYZ-DD-X-01", "XYZ-DD-X-02", "XYZ-DD-X-03", "XYZ-CV-X-01", "XYZ-F-X-01", "XYZ-F-X-02"),
]


def _random_order(rng: random.Random) -> str:
    unit, other = rng.sample(_UNITS, 2)
    kind = rng.choice(["攻撃", "攻撃", "インターセプト", "移動", "退避", "撃沈"])
    if kind == "撃沈":  # XYZ-DD-X-02 shares ABC-CV-A-01's hex: the carrier may sink, its fighters stranded;
        # ABC-DD-A-02 shares XYZ-CV-X-01's, escorted by XYZ-DD-X-03 (forced defeat B) unless it moves
        return rng.choice(["＜攻撃＞XYZ-DD-X-02、ABC-CV-A-01", "＜攻撃＞ABC-DD-A-02、XYZ-CV-X-01"])
    if kind == "移動":
        return f"＜移動＞{unit}、({rng.randint(3, 12)},{rng.randint(2, 5)})"
    if kind == "退避":
        fighter = rng.choice(["ABC-F-A-01", "ABC-F-A-02", "XYZ-F-X-01", "XYZ-F-X-02"])
        return f"＜移動＞{fighter}、{rng.choice(['ABC', 'XYZ', 'ABC-CV-A-01', 'XYZ-CV-X-01'])}"
    return f"＜{kind}＞{unit}、{other}"


_SCENARIO = (
    open_scenario("naval")
    + '\n[[units]]\nid = "ABC-F-A-02"\nbase = "ABC-CV-A-01"\nanti_air = 7\nanti_ship = 4\n'
    + '\n[[units]]\nid = "XYZ-F-X-02"\nbase = "XYZ-CV-X-01"\nanti_air = 7\nanti_ship = 4\n'
    + '\n[[units]]\nid = "XYZ-DD-X-02"\nhex = [4, 4]\nanti_air = 3\nanti_ship = 30\n'
    + '\n[[units]]\nid = "ABC-DD-A-02"\nhex = [11, 4]\nanti_air = 3\nanti_ship = 30\n'
    + '\n[[units]]\nid = "XYZ-DD-X-03"\nhex = [11, 4]\nanti_air = 3\nanti_ship = 5\n'
)


@pytest.mark.parametrize("seed", range(40))
def test_every_warning_of_a_played_period_is_borne_out_by_its_report(seed: int) -> None:
    """Random periods on the template's map (with a carrier that can sink, stranding two fighters for
    the next period): every order the receipt calls 無効 as it stands is 無効 in the report, with the
    reason it gave; every foretold forced defeat A happens or its attack fails."""
    rng = random.Random(seed)
    game = PureGame("naval", _SCENARIO)
    game.poll()
    for _ in range(3):
        _borne_out(game, rng)
    game.close()


# What the period did before an order, which voids it first: its unit or target gone, its carrier sunk,
# the unit's orders used, forced defeat A.
_EARLIER_REASONS = ("強制敗戦", "回まで（先行入力優先", "存在せず無効", "母艦を失っている", "消滅しています")


def _borne_out(game: PureGame, rng: random.Random) -> None:
    warned: dict[tuple[str, str], str] = {}
    for _ in range(rng.randint(2, 5)):
        body = "\n".join(_random_order(rng) for _ in range(rng.randint(1, 4)))
        for post, order, note in _RECEIPT_LINE.findall(_receipt(game, body)):
            if note:
                warned[(post, order)] = note
    report = "\n".join(posted(game.poll(minutes=62)))
    verdicts = {(post, order): verdict for post, order, verdict in _REPORT_LINE.findall(report)}
    assert set(warned) <= set(verdicts)
    for key, note in warned.items():
        verdict = verdicts[key]
        if note.startswith("このままなら無効："):
            assert _void(verdict), (key, note, verdict)
            expected = note.removeprefix("このままなら無効：").split("（")[0]
            other_reason = any(why in verdict for why in _EARLIER_REASONS)
            assert expected.replace("いません", "いない") in verdict or other_reason, (note, verdict)
        if "このままなら強制敗戦B：" in note:
            escort = re.search(r"友軍の制海ユニット(\S+?)がいるため", note)[1]
            gone = f"{escort}消滅" in report or f"{escort}敗戦" in report
            assert "強制敗戦B" in verdict or _void(verdict) or gone, (key, note, verdict)
        if "このままなら強制敗戦A" in note:
            unit, attacker = re.search(r"強制敗戦A：(\S+?)は先に入力された(\S+?)の＜攻撃＞", note).groups()
            attacks = [v for k, v in verdicts.items() if k[1] == f"＜攻撃＞{attacker}、{unit}"]
            assert attacks and (
                "強制敗戦A" in verdict or any("強制敗戦A" in a or _void(a) for a in attacks)
            ), (key, note, verdict, attacks)


_LOST_CARRIER = """
[map]
width = 16
height = 10
[kinds]
DD = "sea-control"
CV = "carrier"
F = "fighter"
[[islands]]
code = "ABC"
home = [1, 3]
[[islands]]
code = "XYZ"
home = [14, 3]
[[units]]
id = "ABC-DD-A-01"
hex = [6, 3]
anti_air = 4
anti_ship = 50
[[units]]
id = "ABC-F-A-01"
base = "ABC"
anti_air = 9
anti_ship = 4
[[units]]
id = "XYZ-CV-X-01"
hex = [6, 3]
anti_air = 2
anti_ship = 2
[[units]]
id = "XYZ-CV-X-02"
hex = [8, 3]
anti_air = 2
anti_ship = 2
[[units]]
id = "XYZ-F-X-01"
base = "XYZ-CV-X-01"
anti_air = 7
anti_ship = 4
[[units]]
id = "XYZ-F-X-02"
base = "XYZ-CV-X-01"
anti_air = 7
anti_ship = 4
"""


def test_an_evacuation_past_the_half_too_far_or_out_of_an_interceptors_reach_is_foretold() -> None:
    """空母が戦闘で敗れた場合、当該空母の艦載戦闘機の半数までを、周囲4Hex以内の自軍の空母・基地に…退避させる
    ことができる: with two fighters stranded, the second evacuation, one to a base 8 hexes off, and an
    interception whose fighter's base is 5 hexes from the flight are each 無効 as they stand."""
    game = PureGame("naval", _LOST_CARRIER)
    game.poll()
    _receipt(game, "＜攻撃＞ABC-DD-A-01、XYZ-CV-X-01")
    assert "空母XYZ-CV-X-01喪失" in "\n".join(posted(game.poll(minutes=62)))
    receipt = _receipt(
        game,
        "＜移動＞XYZ-F-X-01、XYZ-CV-X-02\n＜移動＞XYZ-F-X-02、XYZ-CV-X-02\n＜インターセプト＞ABC-F-A-01、XYZ-F-X-01",
    )
    far = _receipt(game, "＜移動＞XYZ-F-X-02、XYZ")
    report = "\n".join(posted(game.poll(minutes=62)))
    game.close()
    assert ">>3 ＜移動＞XYZ-F-X-01、XYZ-CV-X-02\n" in receipt
    assert (
        "＜移動＞XYZ-F-X-02、XYZ-CV-X-02（このままなら無効：XYZ-CV-X-01の艦載機が退避できるのは半数の1機までです"
        in receipt
    )
    assert (
        "＜インターセプト＞ABC-F-A-01、XYZ-F-X-01（このままなら無効：迎撃範囲外（ABC-F-A-01の基地から"
        in receipt
    )
    assert "このままなら無効：退避先が遠すぎます（XYZ-CV-X-01の喪失地点(6,3)から8Hex、4Hex以内のみ）" in far
    assert "XYZ-F-X-01はXYZ-CV-X-02へ退避（1/1機目）" in report
    assert (
        "＜移動＞XYZ-F-X-02、XYZ-CV-X-02 → 無効：XYZ-CV-X-01の艦載機が退避できるのは半数の1機までです"
        in report
    )
    assert "＜インターセプト＞ABC-F-A-01、XYZ-F-X-01 → 無効：迎撃範囲外" in report
