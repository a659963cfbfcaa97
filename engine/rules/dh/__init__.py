"""ダンゲロス・ハルマゲドン (DH 2.1, seed 004 「キャラクターの行動」): two sides take turns in phases on a
5×7 map; in its phase a side posts a 行動提出 and the bot moves, rolls every d100 and reports the board.

| module | holds |
|---|---|
| `geometry.py` | squares, walls, the move (2 squares, diagonal 2, ZoC) and the range shapes |
| `state.py` | the state (characters, powers as data, states, fields, options, phase, DP) and its JSON form |
| `scenario.py` | the scenario TOML read into the initial state, with every problem named |
| `grammar.py` | the 行動提出 grammar |
| `control.py` | who submits for which side, and the checks made when a line is received |
| `forecast.py` | the receipt's promise: what a line will do at the deadline as things stand |
| `reading.py` | a line read with the game's own words: an order-like line answered (もしかして), chat left alone |
| `submission.py` | which lines of a phase count: one per character, a repeat, a correction by anchor, a void second line |
| `stats.py` | effective stats and what the states (状態) allow |
| `context.py` | a phase being resolved: its verifiable d100 checks, lines, deaths, DP and 精神減少 |
| `effects.py` | the catalogue of effects, one function each |
| `powers.py` | 特殊能力の使用 by style: active / passive / counter / field |
| `action.py` | one character's 行動: preconditions, 移動, 通常攻撃, the deed |
| `resolution.py` | one phase: game start, 遅刻ペナルティ, the actions, victory, the next phase's start |
| `report.py` | the report (actions, text map, status table, DP, 【判定】) and its JSON result |
| `picture.py` | the board with its walls, characters and fields (SVG) |
| `verify.py` | a published phase checked against its key |
| `help.py` | HELP and the note on every statement of the seed |
| `sim.py` | `threadgm simulate dh`: whole games played by a plain policy |
| `ruleset.py` | the game's face to the bot and the tools (`RULESET`) |
| `scenarios/` | the packaged example scenario |
| `cases/` | case files |
"""

from engine.rules.dh.ruleset import RULESET, DHRuleset
from engine.rules.dh.state import DHState

__all__ = ["RULESET", "DHRuleset", "DHState"]
