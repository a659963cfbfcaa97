"""海戦ルール（TRPG戦闘処理）: the naval combat game, one folder.

| module | holds |
|---|---|
| `orders.py` | the order grammar (＜攻撃＞＜インターセプト＞＜移動＞), ORDERS.txt and RANDOMS.txt |
| `hexgrid.py` | the hex map's geometry |
| `state.py` | the state, the scenario TOML and its JSON form |
| `resolve.py` | one period's resolution: the pure function of the rules (attacks, interceptions) |
| `movement.py` | the moving part of it: ＜移動＞, a lost carrier's fighters evacuating, what a removal strands |
| `results.py` | what a period produces: 勝利 / 敗戦 / 無効 / 移動, `OrderResult`, `Resolution` |
| `randoms.py` | a period's random numbers: drawn per island, handed out in order to battles |
| `combat.py` | a battle's arithmetic: strengths, the page's threshold, who wins, the judgement in words |
| `report.py` | the period's report and its JSON form |
| `help.py` | HELP: the rules as the bot applies them |
| `core.py` | the pure period function and the checks made when an order is posted |
| `ruleset.py` | the game's face to the bot and the tools (`RULESET`) |
| `verify.py` | a published period report checked against the revealed key |
| `cases/` | case files: PRESTATE / ORDERS / RANDOMS / RESULTS / POSTSTATE |
"""

from engine.rules.naval import core
from engine.rules.naval.core import *  # noqa: F403 - the pure game, as `naval.…`
from engine.rules.naval.ruleset import RULESET, NavalRuleset

__all__ = [*core.__all__, "RULESET", "NavalRuleset"]  # the pure game, plus its face to the bot
