"""海戦ルール（TRPG戦闘処理）: the naval combat game, one folder.

| module | holds |
|---|---|
| `grammar.py` | the order grammar (＜攻撃＞＜インターセプト＞＜移動＞), ORDERS.txt and RANDOMS.txt |
| `words.py` | the order words, the unit id's shape and the page's examples |
| `near_miss.py` | a line that looks like an order but cannot be read: the nearest form |
| `hexgrid.py` | the hex map's geometry |
| `state.py` | the state as plain data, unit ids, and its JSON form |
| `scenario.py` | the scenario TOML read and checked into the first state |
| `resolution.py` | one period's resolution: the pure function of the rules (attacks, interceptions) |
| `movement.py` | the moving part of it: ＜移動＞, a lost carrier's fighters evacuating, what a removal strands |
| `plan.py` | the period's orders as read before any is carried out: entries, look-ahead tables, flights |
| `results.py` | what a period produces: 勝利 / 敗戦 / 無効 / 移動, `OrderResult`, `Resolution` |
| `randoms.py` | a period's random numbers: drawn per island, handed out in order to battles |
| `combat.py` | a battle's arithmetic: strengths, the page's threshold, who wins, the judgement in words |
| `ending.py` | when the game is over, and what its last report says |
| `picture.py` | the hex map in 箱庭's coordinates (SVG) |
| `report.py` | the period's report and its JSON form |
| `help.py` | HELP: the rules as the bot applies them |
| `big_game.py` | a whole big game at once: the collector held off, the scenario read by rtoml |
| `foresight.py` | a receipt's warning: what voids an order as the period stands, forced defeat A foretold |
| `api.py` | the pure period function and the checks made when an order is posted |
| `ruleset.py` | the game's face to the bot and the tools (`RULESET`) |
| `verify.py` | a published period report checked against the revealed key |
| `cases/` | case files: PRESTATE / ORDERS / RANDOMS / RESULTS / POSTSTATE |
"""

from engine.rules.naval import api
from engine.rules.naval.api import *  # noqa: F403 - the pure game, as `naval.…`
from engine.rules.naval.ruleset import RULESET, NavalRuleset

__all__ = [*api.__all__, "RULESET", "NavalRuleset"]  # the pure game, plus its face to the bot
