"""Dice language speed: BCDice's whole test corpus through threadgm, and threadgm beside d20.

1. Every `[[test]]` of `../shared/bcdice/*.toml`, each with its recorded dice (`RecordedDice`), as
   commands per second.
2. The corpus commands both libraries understand alike, evaluated by threadgm (recorded dice) and by
   d20 (Avrae's library, its own random dice). Chosen mechanically: the BCDice sums (xDy) with no
   target, no division (BCDice rounds, d20 does not), no D66, no implicit sides and no secret `S`, that
   d20 parses once written its way (lower case, `KH`→`kh`, `KL`→`kl`, `DH`→`ph`, `DL`→`pl`).

Both libraries cache parses (threadgm each line's parse and prepared evaluation, d20 its ASTs), so
repeating one corpus would measure the caches: figures are given warm (caches kept) and cold (caches
emptied before every command, as for a stream of posts that never repeat).

3. Plain NdM as the bot rolls them — each command on a fresh verifiable stream of its post
   (`SeededSource(key).stream(...)`: HMAC-SHA256 words, rejection sampling), through `roll_command` —
   beside d20 rolling the same sums with its own random dice (target: threadgm ≥ 1.5× d20). Both
   parse (from their caches), roll and total; threadgm's answer also has its text (`(2D6) ＞ 7[3,4] ＞
   7`), which d20 makes only when asked (`RollResult.result`): d20 is measured without it and with it.

4. With `--bcdice PATH` (a BCDice checkout and `ruby` on the PATH, with the `i18n` gem; `racc` too
   when the checkout's parsers were never generated): BCDice itself over the whole corpus, in a Ruby
   subprocess (`bcdice_runner.rb`) that first checks every answer against the corpus, then times
   itself in CPU time, start-up excluded. BCDice has no parse cache: its one rate is set against
   threadgm's warm and cold.

Rates are commands per CPU-second, each the median of `--rounds` (5) rounds, threadgm's and d20's
measured alternately so that a busy moment of the machine falls on both; the ratios are of medians.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

from bench.timing import per_second
from engine.dice.bcdice import clear_caches, evaluate
from engine.dice.post import roll_command
from engine.rng import RecordedDice, SeededSource
from parser.bcdice import parse_all
from parser.bcdice.add_dice import AddDice, DiceRoll
from parser.bcdice.arithmetic import DIVISIONS, Chain, Neg, Paren
from parser.bcdice.lexer import first_word

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "bcdice"
RUNNER = Path(__file__).with_name("bcdice_runner.rb")
SECONDS = 0.4  # per measurement; each of --rounds rounds measures every side once

Case = tuple[str, list[tuple[int, int]]]


def load_corpus(*, with_outputs: bool = False) -> list:
    """(input, rands) per `[[test]]`; with `with_outputs`, (input, rands, expected text) instead."""
    cases: list = []
    for path in sorted(CORPUS.glob("*.toml")):
        with path.open("rb") as file:
            for test in tomllib.load(file)["test"]:
                rands = [(r["sides"], r["value"]) for r in test["rands"]]
                cases.append(
                    (test["input"], rands, test["output"]) if with_outputs else (test["input"], rands)
                )
    return cases


def ours(cases: list[Case], *, cold: bool = False) -> Callable[[], None]:
    def run_once() -> None:
        for command, rands in cases:
            if cold:
                clear_caches()
            evaluate(command, RecordedDice(rands))

    return run_once


def as_d20(command: str) -> str | None:
    """The d20 spelling of a corpus command both libraries read alike, else None."""
    parsed = next(parse_all(command), None)
    if not isinstance(parsed, AddDice) or parsed.secret or parsed.cmp_op is not None:
        return None
    if not _comparable(parsed.lhs):
        return None
    word = first_word(command).lower()
    for bcdice, d20_spelling in (("kh", "kh"), ("kl", "kl"), ("dh", "ph"), ("dl", "pl")):
        word = word.replace(bcdice, d20_spelling)
    return word


def _comparable(node: object) -> bool:
    if isinstance(node, DiceRoll):
        return node.sides is not None and "66" not in repr(node.sides)
    if isinstance(node, Chain):
        return all(op not in DIVISIONS for op, _ in node.rest) and all(
            _comparable(part) for part in (node.first, *(operand for _, operand in node.rest))
        )
    if isinstance(node, Neg):
        return _comparable(node.body)
    if isinstance(node, Paren):
        return _comparable(node.inner)
    return True


def main(argv: list[str] | None = None) -> None:
    options = _options(argv or [])
    if options is None:
        return
    bcdice, rounds = options
    if not CORPUS.is_dir():
        print(f"{CORPUS} is absent: the BCDice corpus sits in ../shared beside the project")
        return
    cases = load_corpus()
    whole = {
        "warm": _median(rounds, lambda: _rate(ours(cases), len(cases))),
        "cold": _median(rounds, lambda: _rate(ours(cases, cold=True), len(cases))),
    }
    print(
        f"threadgm, whole BCDice corpus ({len(cases)} commands, recorded dice): "
        f"{whole['warm']:,.0f} commands/CPU-s warm, {whole['cold']:,.0f} cold"
    )
    _against_d20(cases, rounds)
    _plain_ndm(rounds)
    if bcdice is not None:
        _against_bcdice(bcdice, rounds, whole)


def _options(argv: list[str]) -> tuple[Path | None, int] | None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench dice")
    parser.add_argument("--bcdice", type=Path, metavar="PATH", help="a BCDice checkout to measure too")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per figure (the median is shown)")
    try:
        parsed = parser.parse_args(argv)
    except SystemExit:
        return None
    return parsed.bcdice, max(parsed.rounds, 1)


def _rate(run_once: Callable[[], None], per_run: int) -> float:
    return per_second(run_once, per_run, SECONDS, clock=time.process_time)


def _median(rounds: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(rounds))


def _against_d20(cases: list[Case], rounds: int) -> None:
    import d20

    pairs = []
    for command, rands in cases:
        spelled = as_d20(command)
        if spelled is None:
            continue
        try:
            d20.parse(spelled)
        except d20.RollSyntaxError:
            continue
        pairs.append(((command, rands), spelled))
    shared = [case for case, _ in pairs]
    d20_commands = [spelled for _, spelled in pairs]

    roller = d20.Roller()

    def d20_warm() -> None:
        for spelled in d20_commands:
            roller.roll(spelled)

    def d20_cold() -> None:
        for spelled in d20_commands:
            roller._parse_cache.clear()  # d20 has no public way to empty its parse cache
            roller.roll(spelled)

    sides = {
        ("threadgm", "warm"): ours(shared),
        ("d20", "warm"): d20_warm,
        ("threadgm", "cold"): ours(shared, cold=True),
        ("d20", "cold"): d20_cold,
    }
    samples: dict[tuple[str, str], list[float]] = {key: [] for key in sides}
    for _ in range(rounds):
        for key, run_once in sides.items():
            samples[key].append(_rate(run_once, len(shared)))
    rate = {key: statistics.median(values) for key, values in samples.items()}

    print(f"commands both understand: {len(pairs)} (e.g. {', '.join(d20_commands[:4])})")
    for name in ("threadgm", "d20"):
        print(f"  {name:<8}: {rate[name, 'warm']:,.0f} commands/CPU-s warm, {rate[name, 'cold']:,.0f} cold")
    print(
        f"  threadgm / d20: {rate['threadgm', 'warm'] / rate['d20', 'warm']:.2f}x warm, "
        f"{rate['threadgm', 'cold'] / rate['d20', 'cold']:.2f}x cold"
    )


PLAIN_NDM = ["2D6", "1D100", "3D6", "1D20", "4D6", "2D10", "10D6", "1D6"]
NDM_TARGET = 1.5


def _plain_ndm(rounds: int) -> None:
    import d20

    source = SeededSource(bytes(range(32)))
    purposes = [f"post/{n}" for n in range(len(PLAIN_NDM))]

    def verifiable() -> None:
        for command, purpose in zip(PLAIN_NDM, purposes, strict=True):
            roll_command(command, source.stream(purpose))

    roller = d20.Roller()
    spelled = [command.lower() for command in PLAIN_NDM]

    def d20_rolled() -> None:  # parse (cached), roll, total: d20 makes its text only when asked
        for command in spelled:
            _ = roller.roll(command).total

    def d20_answered() -> None:  # and the text, as threadgm's answer always has it
        for command in spelled:
            rolled = roller.roll(command)
            _ = rolled.total, rolled.result

    sides = {"threadgm": verifiable, "d20": d20_rolled, "d20 + text": d20_answered}
    samples: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(rounds):  # alternating
        for name, run_once in sides.items():
            samples[name].append(_rate(run_once, len(PLAIN_NDM)))
    rate = {name: statistics.median(values) for name, values in samples.items()}
    ours = rate["threadgm"]
    print(
        f"plain NdM ({', '.join(PLAIN_NDM)}) on the bot's verifiable streams (a fresh stream each, "
        f"parse cached, text and total made): {ours:,.0f} commands/CPU-s"
    )
    print(
        f"  d20 roll + total {rate['d20']:,.0f}: {ours / rate['d20']:.2f}x; "
        f"d20 roll + total + text {rate['d20 + text']:,.0f}: {ours / rate['d20 + text']:.2f}x "
        f"(target {NDM_TARGET}x)"
    )


def _against_bcdice(checkout: Path, rounds: int, whole: dict[str, float]) -> None:
    ruby = shutil.which("ruby")
    if ruby is None:
        print("BCDice: not measured — no `ruby` on the PATH (Debian: apt-get install ruby ruby-i18n)")
        return
    lib = checkout / "lib"
    if not (lib / "bcdice.rb").is_file():
        print(f"BCDice: not measured — {checkout} is not a BCDice checkout (no lib/bcdice.rb)")
        return
    request = {
        "cases": [
            {"input": command, "values": [value for _, value in rands], "output": output}
            for command, rands, output in load_corpus(with_outputs=True)
        ],
        "rounds": rounds,
        "min_seconds": SECONDS,
    }
    with tempfile.TemporaryDirectory() as generated:
        problem = _generate_parsers(lib, Path(generated))
        if problem is not None:
            print(f"BCDice: not measured — {problem}")
            return
        try:
            answer = subprocess.run(
                [ruby, "-I", generated, "-I", str(lib), str(RUNNER)],
                input=json.dumps(request),
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
        except subprocess.TimeoutExpired:
            print("BCDice: not measured — the Ruby run took over 10 minutes")
            return
    if answer.returncode != 0:
        first = (answer.stderr.strip().splitlines() or ["(no message)"])[0]  # Ruby's error comes first
        print(f"BCDice: not measured — ruby failed: {first}")
        return
    report = json.loads(answer.stdout)
    rate = statistics.median(report["rates"])
    count = len(request["cases"])
    print(
        f"BCDice {report['version']} (Ruby {report['ruby']}), whole corpus: "
        f"{rate:,.0f} commands/CPU-s; its own answers match the corpus for {report['matched']}/{count}"
    )
    print(f"  threadgm / BCDice: {whole['warm'] / rate:.2f}x warm, {whole['cold'] / rate:.2f}x cold")


def _generate_parsers(lib: Path, into: Path) -> str | None:
    """BCDice's parsers are racc grammars, generated at build time (`rake racc`): those a checkout
    lacks are generated into `into` (put before `lib` on Ruby's load path). None, or what is wrong."""
    missing = [
        grammar for grammar in sorted(lib.rglob("parser.y")) if not grammar.with_suffix(".rb").is_file()
    ]
    if not missing:
        return None
    racc = shutil.which("racc")
    if racc is None:
        return f"{len(missing)} parsers of the checkout are not generated and `racc` is not installed"
    for grammar in missing:
        target = into / grammar.relative_to(lib).with_suffix(".rb")
        target.parent.mkdir(parents=True, exist_ok=True)
        made = subprocess.run(
            [racc, "--no-line-convert", "-o", str(target), str(grammar)],
            capture_output=True,
            text=True,
            check=False,
        )
        if made.returncode != 0:
            return f"racc failed on {grammar}: {made.stderr.strip()[:200]}"
    return None
