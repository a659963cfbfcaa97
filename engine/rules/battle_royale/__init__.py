"""都道府県バトロワ: the 47-prefecture dice battle royale, one folder, two ways to play.

| module | holds |
|---|---|
| `tables.py` | the seed's dice tables, face for face |
| `state.py` / `scenario.py` | the state; the scenario TOML (roster, groups, special rules) |
| `steps.py` | the step machine: which die the rules need next, the faces taken, the steps run without a die |
| `selection.py` | rule (1): the selection dice, dead picks, the start of a battle |
| `battle.py` | one battle: policy, surprise, the battle die and what its outcome starts |
| `group_dice.py` | the group dice after a battle: drop-outs of winners and losers, the pair's die, group escapes |
| `infighting.py` | infighting: two members of one group picked, their fight and whether the group survives |
| `aftermath.py` | after the battle: revival, the survivor table, the end of the game or the next pick |
| `special.py` | the special rules: set-up dice, the mastermind and its final, 地区復活, タッグマッチ defeats |
| `ops.py`, `events.py` | the moves the steps share (eliminations, groups, the step queue) and the events they produce |
| `report.py` | events → markup-neutral report blocks |
| `assist.py`, `templates.py` | assisted play: the dice templates players post, and their checks |
| `sim.py` | whole games played offline (`threadgm simulate battle-royale`) |
| `help.py` | HELP: the rules as the bot applies them |
| `game.py` | the public API of the step machine |
| `ruleset.py` | the two faces to the bot: `AUTOMATIC` (on the clock) and `ASSISTED` (post by post) |
| `scenarios/` | the packaged 47-prefecture scenario |
"""

from engine.rules.battle_royale import game
from engine.rules.battle_royale.game import *  # noqa: F403 - the game's functions, as `br.…`
from engine.rules.battle_royale.ruleset import ASSISTED, AUTOMATIC

__all__ = [*game.__all__, "ASSISTED", "AUTOMATIC"]  # the game's functions, plus the two faces
