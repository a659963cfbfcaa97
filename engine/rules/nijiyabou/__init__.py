"""にじ野望 (seed 003, ルールver2.0): a Sengoku strategy game over the 47 prefectures, one season a
period, one folder.

| module | holds |
|---|---|
| `names.py` | troop types, stats, terrains, the 47 areas and regions, name matching |
| `scenario.py` | the scenario TOML (packaged default in `scenarios/default.toml`), `Rules`, adjacency |
| `state.py` | livers, areas, countries, the calendar; the JSON form |
| `grammar.py` | the order grammar (外交 内政 徴兵 移動 出陣 配信, 編成 救援 委任, 参加 引き抜き 寝返り 下克上) |
| `authority.py` | who may order what (the receipt's checks, and again at resolution) |
| `home.py` | 内政, 徴兵, 配信, 移動 and the designations |
| `diplomacy.py` | 同盟, 降伏, 引き抜き・寝返り, 下克上 |
| `battle.py` | one battle: 先攻, 攻撃順, 攻撃対象, multipliers, rounds |
| `war.py` | 出陣: cancellation, 共同攻撃, 救援, the battles, 占領 and what passes to the victor |
| `changes.py` | changes of allegiance shared by the rules: merges, occupation, 処断 |
| `resolution.py` | one season, in the order of §10 |
| `receipts.py` | what the receipt promises for an accepted order (`remark`) |
| `report.py` | the season's report, standings and text map; `meta["result"]` |
| `picture.py` | the prefectures as tiles coloured by the country that holds them (SVG) |
| `verify.py` | a posted season's dice recomputed from the revealed key |
| `replay.py` | every season replayed from the thread (receipts, 設定 echoes, keys) for `verify` |
| `sim.py` | whole games by random lords (`threadgm simulate`) |
| `help.py` | HELP |
| `ruleset.py` | the game's face to the bot and the tools (`RULESET`), 設定, 状態 |
| `cases/` | case files (checks: `tests/engine/rules/nijiyabou/case_checks.py`) |
| `README.md` | sources, defaults, where each rule lives, readings, what is left out |
"""

from engine.rules.nijiyabou.ruleset import RULESET, NijiyabouRuleset
from engine.rules.nijiyabou.state import State

__all__ = ["RULESET", "NijiyabouRuleset", "State"]
