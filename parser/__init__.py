"""Text to typed commands: dice language, BBS dice, game order grammars, GM lines. Pure, no I/O."""
