"""HELP: the DH rules as the bot applies them (the seed's names, every default, the submission format
with examples), and `SEED_NOTE`: how each statement of the seed page 「キャラクターの行動」 is carried out
or why it is left out."""

from __future__ import annotations

HELP = """\
【ダンゲロス・ハルマゲドン（DH 2.1 キャラクターの行動）】
■フェイズ
・1ターンは先手陣営のフェイズ→後手陣営のフェイズ。フェイズごとに自陣営の「行動提出」をしてください。
・提出できるのはそのフェイズの陣営の提出者（シナリオの trips の名前◆トリップ）だけです（trips が空の陣営は誰でも提出でき、準備完了での早期更新はありません）。同じキャラクターの行は最後に書いた行が有効。
・締切（GMの延長・即時更新も可）で処理します。陣営の提出者が「準備完了」と書けば早めに処理します（設定で早期更新ありのとき）。
・行のないキャラクターは待機です。
・締切を過ぎて書かれた行は次のフェイズ（相手陣営のフェイズ）の分になり、無効です。次の陣営は更新（盤面）が出てから提出してください。

■行動提出の書式（1キャラクター1行、全角・半角どちらでも：Ｃ４＝C4）
　名前 C7移動　　　　　　　　（移動して待機）
　名前: C3 攻撃 相手　　　　　（C3へ移動して相手に通常攻撃。「名前 C3へ移動 相手を攻撃」も可）
　名前: D3で能力使用 対象は相手（特殊能力の使用。能力が複数なら 能力「能力名」）
　名前 能力「結界」 対象はC4　（フィールドを置くマス）
　名前 能力 対象は相手1、相手2（対象を複数とれる能力：シナリオの targets、既定1人）
　名前 C3 能力 対象は相手 移動先はC5（強制移動の行き先）
　名前 待機
　名前 再行動 C4 攻撃 相手　　（再行動を得たときの2回目の行動）
・いないキャラクター、MAPの外のマス、相手陣営のキャラクター、自分自身への通常攻撃、持っていない能力は受付で理由を示して受け付けません。

■行動（移動1回→動作1回。間に他のキャラクターの行動は挟まりません。行は書かれた順に処理）
・行動の前提条件：1.自陣営のフェイズ 2.自陣営が操作権を持つ（敵は動かせない） 3.このフェイズの2つ前のフェイズからMAP上にいる（スタメンはゲーム開始時の例外、戦線離脱中はMAP上にいたとみなす） 4.行動できる状態（死亡・行動不能・戦線離脱中でない） 5.このフェイズにまだ行動していない
・移動：2マスまで（移動力）。斜めは2マス分。壁（■）は通れません。1マスに何人でも入れます。
・ZoC：1マス以上移動して敵のいるマスに入ったら移動はそこで終了（ZoC無視の状態を除く）。敵のマスから出るのは自由。
　指定マスへのすべての道が途中で敵のマスを通るときは、最初の道（縦→横の順）で敵のマスに止まります（既定。zoc_cancels=true なら行動キャンセル）。
・移動不可能なマスを指定すると、その行動はキャンセル（0マス移動後に待機）。瀕死（体力1、選択ルール）のキャラクターは移動できません。
・動作：通常攻撃・特殊能力の使用・待機のどれか1回。

■通常攻撃
・同マスのキャラクター1人（味方も可、自分自身は不可）。
・命中判定：命中率＝(攻撃力－防御力)×5＋50。d100の出目が命中率以下で命中。命中率100以上は自動命中、0以下は自動失敗（ダイスなし）。
・ダメージ処理：攻撃力－防御力（0以下でも1ダメージ保障）だけ体力を減らします。

■特殊能力の使用
・アクティブ／パッシブ：1.対象決定（対象がない・不適正なら発動キャンセル。空撃ち可能なら空撃ち）→2.発動判定（発動率）→3.成功判定（成功率、対象ごと）→4.効果の適用（複数の対象に同時。死亡はここでDPと味方の精神減少）→5.制約の支払い・能力休み→6.終了。再行動は6の直後。
・複数の効果を持つ能力は効果ごとに1～4（発動処理：対象決定・発動判定・成功判定・効果の適用）を行い、最後に5。カウンターは効果ごとに1～2（発動判定・カウンター待受状態）を行い、待受になった効果ごとに成功判定と効果。
・発動判定に成功すると消費制約の支払いが確定。効果の適用前に消費制約が一部でも支払えなくなっていたら効果は現れず、それでも可能な限り支払い、能力休みにもなります。
・消費制約が最初から支払えない、特殊能力無効、能力休み中のときは発動キャンセル（待機）。
・カウンター：1.発動判定（対象はとらない）→2.カウンター待受状態→3.制約の支払い・能力休み。以後、条件（被攻撃：通常攻撃を受けた／敵侵入：敵が同マスに入った）を満たすたびに成功判定、成功でその相手に効果。待受は wait ターン（既定1：次の自陣営フェイズ開始まで、0は永続）。
・フィールド：発動判定→設置（範囲のマス）→範囲内の敵ごとに成功判定→制約・能力休み。以後「敵の範囲内への侵入時」「自軍フェイズ開始時」に成功判定（新たな制約・能力休みなし）。置くマスは 対象は（マスかキャラクター）、なければ自分のマス。wait ターン（既定1、0は永続）で消え、持ち主が死亡しても消えます。
・パッシブはゲーム開始時（スタメン）または初登場時（増援）にアクティブと同じ処理をします。
・精神攻撃の成功率は対象の精神で決まります（既定 mental_rates=[100,50,25]：精神0→100%、1→50%、2→25%、3以上→0%）。

■範囲（既定の読み方）
・同マス／隣接n（上下左右のまっすぐnマス）／半径n（縦横の歩数n以内、斜めは2）／周囲n（斜めも含むnマス四方）／MAP全体。自分のマスを含みます（include_own=false で除外）。壁は範囲外。

■効果（一覧）
体力ダメージn・精神ダメージn・即死・瀕死（体力1に）・回復n（初期体力まで）・能力値増減（攻撃力／防御力／精神／移動力±n、nターンまたは永続）・特殊能力無効・ZoC無視・行動不能・戦線離脱（nターンで元のマスに復帰、または永続）・強制移動n（移動先のマスへ、縦横n歩以内）・再行動。
・「nターン」は、効果を受けたフェイズからnターン後の同じ陣営のフェイズ開始時に終わります。0は永続。
・能力休み：使った後の自陣営のフェイズ rest 回（既定1）使えません。

■死亡・DP・勝敗
・体力0で死亡。敵陣営にDP（既定 dp_per_kill=1）。MAP上の味方全員の精神が減少（既定 ally_death_mind=1、0未満にはならない）。
・毎フェイズ後に勝敗判定：敵のスタメンが全員いなくなった（死亡・永続の戦線離脱）陣営の勝利（同時なら引き分け）。最終ターン（既定 turn_limit=8）終了時はDPの多い陣営の勝利（同じなら引き分け）。降参はGMが 設定 winner=陣営名。
・能力値は0未満になりません。

■選択ルール（シナリオの options、既定は括弧内）
・先手ペナルティ first_penalty（false）：第1ターンの先手は敵を通常攻撃できず、精神攻撃以外の能力で敵を対象にできず、敵のいるマスにフィールドを置けません。
・増援 [[reinforcements]]：指定ターンのその陣営のフェイズ開始時に控えから count 人を抽選（ダイス）し zone の空いたマスに登場。2つ前のフェイズからいないのでそのターンは行動できません。
・半必中 half_hit（false）：通常攻撃が外れても1ダメージ。必中 sure_hit（false）：命中判定なし。
・瀕死 dying（true）：体力1のキャラクターは移動できません。
・failed_activation_pays（false）：発動判定に失敗しても制約・能力休みを払う。
・stat_budget（0＝上限なし）：攻撃力＋防御力＋体力＋精神＋FSの上限。超えるキャラクターのシナリオは受け付けません。
・移動力 move（2）。フェイズの制限時間は締切まで（ボットの更新スケジュールで決まり、開始の書き込みと各更新に書きます）。

■遅刻ペナルティ
・GMが 設定 late=秒数（例：設定 late=75 ／ late=1分15秒）でそのフェイズの陣営の遅刻を記録すると、1～60秒の遅刻で late_first（既定1）人、以後60秒ごとに late_per_minute（既定1）人ずつ多く（61秒で2人）行動が失われます。誰が失うかは行動できるキャラクターからダイスで抽選し、結果に書きます。

■ダイスと検証
・判定はすべてd100（出目が目標以下で成功）。増援と遅刻の抽選は候補の数の面のダイス（候補1人ならダイスなし）。キャラクターごとに「dh/フェイズ/名前/n」のストリームを使い、ピリオドの鍵で HMAC-SHA256 から棄却法で求めます。結果の【判定】にすべての出目を書き、threadgm verify で誰でも再計算できます。
・状態 で盤面と一覧を表示します。"""

SUMMARY = """\
行動提出は自陣営のフェイズに1キャラクター1行：
名前 C7移動 ／ 名前: C3 攻撃 相手 ／ 名前: D3で能力使用 対象は相手 ／ 名前 待機
行のないキャラクターは待機。同じキャラクターは最後の行が有効。"""

SEED_NOTE = """\
How each statement of the seed page 「キャラクターの行動」 is carried out (module) or left out:

- 行動提出 per phase: orders.py (grammar), control.py (who submits), ruleset.py (phases as periods).
- 行動 = 移動 1 + 動作 1, 移動 → 動作, nothing in between: action.act.
- 行動の前提条件 1–5 and both exceptions: action.precondition, phase._controlled (2), stats.present_since.
- 移動 2 squares, sharing squares, 斜め 2, ZoC, 移動不可能なマス → cancel: board.plan_move, action.move.
- 動作: 通常攻撃 / 特殊能力の使用 / 待機: action.act.
- 通常攻撃 (同マス, 味方可, 自分不可, 命中判定, ダメージ処理 min 1, the worked example): action.attack.
- 特殊能力: 発動判定 and 成功判定, 対象 cancel and 空撃ち, 制約 cancel: powers.cancelled, choose_targets.
- アクティブ / パッシブ steps 1–6, 再行動 after 6, 制約 paid as far as possible: powers.use_active, pay.
- カウンター steps 1–4 and its later 成功判定: powers.use_counter, fire_counters.
- フィールド: powers.use_field, field_check, phase._on_enter, phase.start_phase.
- 複数効果 (発動処理 1–4 per effect, then 制約; a counter's 1–2 per effect): powers.use_active,
  powers._process, powers.use_counter.
- パッシブ at the start or on first appearance: phase._passives.
- 待機, and no line = 待機: phase._waiting.
Left out: nothing of the page. Readings chosen where it is silent are options (zoc_cancels,
failed_activation_pays, dying) or defaults named in HELP: the range shapes, durations in turns, the
counter conditions (被攻撃 / 敵侵入), a field ending with its owner, 強制移動 to the square the line
names, reinforcements placed on the zone's first free squares.
Beyond the page (DH 2.1's other pages, seed-gaps.md): how late a side was is entered by the GM
(設定 late=秒), since the bot's resolution is not told when each line was written.
"""
