"""Dice outside any game: the dice commands of a post (BBS `diceNdM=`, BCDice, labelled tables), their
verifiable answers, the BCDice evaluator, and when a period's key is committed and disclosed.

| module | holds |
|---|---|
| `post.py` | every dice command of one post answered in reading order (`answer_post`) |
| `answers.py` | the answer post of plain dice, from the period key and the post's streams |
| `disclosure.py` | when the bot publishes a day's commitment and its key, and how that reads |
| `bcdice/` | BCDice's system-independent dice language, evaluated |
"""
