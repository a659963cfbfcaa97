"""都道府県バトロワ: the 47-prefecture dice battle royale, one folder, two ways to play.

| module | holds |
|---|---|
| `tables.py` | the seed's dice tables, face for face |
| `state.py` / `scenario.py` | the state; the scenario TOML (roster, groups, special rules) |
| `resolution.py` | the step machine: which die the rules need next, the faces taken, the steps run without a die |
| `selection.py` | rule (1): the selection dice, dead picks, the start of a battle |
| `battle.py` | one battle: policy, surprise, the battle die and what its outcome starts |
| `group_dice.py` | the group dice after a battle: drop-outs of winners and losers, the pair's die, group escapes |
| `infighting.py` | infighting: two members of one group picked, their fight and whether the group survives |
| `newcomers.py` | 新規参入者: a prefecture the GM adds between battles (`設定 newcomer=…`) |
| `tag_mutual.py` | タッグマッチの相打ち between the last two teams |
| `aftermath.py` | after the battle: revival, the survivor table, the end of the game or the next pick |
| `season_rules.py` | the special rules: set-up dice, the mastermind and its final, 地区復活, タッグマッチ defeats |
| `common_steps.py`, `events.py` | the moves the steps share (eliminations, groups, the step queue) and the events they produce |
| `report.py` | events → markup-neutral report blocks |
| `assist.py`, `grammar.py` | assisted play: the dice templates players post, and their checks |
| `fast_sim.py` | quick play for simulations: a fast PRNG (not verifiable), every season on integer indexes |
| `fast_position.py` | where quick play starts (between battles, before the set-up dice) and how a game ended |
| `fast_game.py`, `fast_tag.py` | the quick game: the rules again on indexes, in place; the タッグマッチ's teams |
| `fast_seasons.py`, `fast_tables.py` | the quick game's set-up dice, 黒幕's final and 地区復活; its tables |
| `chances.py` | who is likely to win from a position (quick simulations, for 状態 and the tools) |
| `sim.py` | whole games played offline (`threadgm simulate battle-royale`) |
| `picture.py` | the prefectures as tiles: alive, fallen, in which group (SVG) |
| `verify.py` | a published period checked against its revealed key |
| `help.py` | HELP: the rules as the bot applies them |
| `api.py` | the public API of the step machine |
| `ruleset.py` | the two faces to the bot: `AUTOMATIC` (on the clock) and `ASSISTED` (post by post) |
| `scenarios/` | the packaged 47-prefecture scenario |
"""

from engine.rules.battle_royale import api
from engine.rules.battle_royale.api import *  # noqa: F403 - the game's functions, as `br.…`
from engine.rules.battle_royale.ruleset import ASSISTED, AUTOMATIC

__all__ = [*api.__all__, "ASSISTED", "AUTOMATIC"]  # the game's functions, plus the two faces
