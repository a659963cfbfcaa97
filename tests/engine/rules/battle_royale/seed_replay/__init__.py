"""The seed-000 reader behind test_transcript_by_the_seed.py: the seed's tables, the transcript cut
into posts, and a replay of the game that checks each post against the seed's rule text.

It imports nothing from engine/: the point is to read the bot's thread the way a player with the seed
open beside it would, not the way the engine does."""
