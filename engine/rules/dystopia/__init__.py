"""DysTopiA (seed 001): a scene-based TRPG answered post by post — sheets, checks with C値/F値, HP/MP,
BP and emotions, 戦闘不能 and とどめ, and back handouts committed at the start.

| module | holds |
|---|---|
| `state.py` | the state: sheets, connections, handouts, the last checks, requests, options |
| `sheets.py` | sheets from the scenario; a posted 【キャラシート】 block as a patch; sheets written as posts |
| `intake.py` | a posted sheet taken in: who may post it, what a re-post changes, what stops it |
| `creation.py` | the seed's キャラクター作成 rules as a list of breaches; the breaches that stop play |
| `grammar.py` | the commands players and the GM type |
| `checks.py` | 3D6 checks, C値/F値, the BCDice-style line, opposed checks |
| `context.py` | who may act for which character; the answer being built |
| `resolution.py` | checks, damage, MP, 戦闘不能 (the one downing path), とどめを刺す, the result phase |
| `bp.py` | the BP uses, each tied to the check it changes |
| `scenes.py` | scenes and the 感情ロール |
| `handouts.py` | 裏ハンドアウト: commitments, the three paths, `verify_handout` |
| `verify.py` | every published handout of a thread checked against its commitment (`audit_handouts`) |
| `combat.py` | the count-based turn order and 移動コスト |
| `ccfolia.py` | ココフォリア character JSON (one line or split over many) as a sheet patch |
| `settings.py` | 設定 PATH=VALUE |
| `picture.py` | the party sheet: HP and MP as bars, BP, rows (SVG) |
| `help.py` | HELP and SUMMARY |
| `ruleset.py` | the face to the bot: `RULESET` |
| `scenarios/template.toml` | the scenario `threadgm new dystopia` writes |
"""

from engine.rules.dystopia.handouts import verify_handout
from engine.rules.dystopia.ruleset import RULESET, DystopiaRuleset
from engine.rules.dystopia.verify import HandoutAudit, audit_handouts

__all__ = ["RULESET", "DystopiaRuleset", "HandoutAudit", "audit_handouts", "verify_handout"]
