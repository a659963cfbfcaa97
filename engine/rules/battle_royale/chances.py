"""Who is likely to win the 都道府県バトロワ from where it stands: quick simulations (`fast_sim.py`, a fast
PRNG, not verifiable) played on from a position, for 状態 in the thread and `threadgm simulate --from`.

The in-thread table is cheap and deterministic: `STATUS_RUNS` games (`STATUS_RUNS_SPECIAL` in seasons
with 地区復活 or a タッグマッチ, as HELP tells players) on a seed derived from the state itself, so the
same position always shows the same figures. It is left out in seasons with a 黒幕: games played with the
truth would tell who it is.
"""

from __future__ import annotations

import hashlib
import json

from engine.report import Block, Table, heading, line, table
from engine.rules.battle_royale.common_steps import BattleRoyaleError
from engine.rules.battle_royale.fast_sim import plain_rules
from engine.rules.battle_royale.sim import SimulationResult, simulate_from
from engine.rules.battle_royale.state import State, contenders, state_to_dict

STATUS_RUNS = 1000
# 地区復活, タッグマッチ: fewer games from when the step machine played these seasons (1.2 CPU-s for 200 in a
# タッグマッチ). The quick game now plays them as fast as plain ones; the figure stays, as HELP states it
# and a position's 状態 answers the same as it did.
STATUS_RUNS_SPECIAL = 200
STATUS_ROWS = 10


def position_seed(state: State) -> str:
    """A seed that only the position decides (the same 状態 answers the same)."""
    text = json.dumps(state_to_dict(state), ensure_ascii=False, sort_keys=True)
    return "status-" + hashlib.sha256(text.encode()).hexdigest()[:16]


def shows_chances(state: State) -> bool:
    """Whether 状態 may show win chances: a game under way since its first battle (before it, everyone
    stands alike), in a season without 黒幕 (games played with the truth would point at it, and once it
    is out the final battle decides the game)."""
    return state.setup_done and state.battles >= 1 and state.ending is None and not state.options.mastermind


def status_runs(state: State) -> int:
    return STATUS_RUNS if plain_rules(state) else STATUS_RUNS_SPECIAL


def chance_table(result: SimulationResult, limit: int | None = None) -> Table:
    """Everyone who won at least one game, most wins first (ties in roster order)."""
    ranked = [name for name in result.roster if result.wins[name]]
    ranked.sort(key=lambda name: -result.wins[name])
    rows = [
        (str(n), name, f"{result.wins[name] * 100 / result.runs:.1f}%")
        for n, name in enumerate(ranked[:limit], start=1)
    ]
    rest = ranked[limit:] if limit is not None else []
    if rest:
        share = sum(result.wins[name] for name in rest) * 100 / result.runs
        rows.append(("", f"その他{len(rest)}名", f"{share:.1f}%"))
    return table(rows, ("順位", "都道府県", "優勝率"))


def status_blocks(state: State) -> list[Block]:
    """The 優勝予想 block of 状態 (nothing when it may not or need not be shown)."""
    if not shows_chances(state) or len(contenders(state)) < 2:
        return []
    runs = status_runs(state)
    try:
        result = simulate_from(state, runs, position_seed(state))
    except BattleRoyaleError:  # a position the rules cannot play on: 状態 answers without the table
        return []
    return [
        heading(f"優勝予想（この局面から{runs:,}ゲームを試算）"),
        chance_table(result, STATUS_ROWS),
        line("※高速な疑似乱数による目安です（実際のダイスとは無関係で、検証用の乱数ではありません）"),
    ]
