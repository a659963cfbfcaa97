"""Rules and state: dice evaluation, the verifiable RNG, one module per game, `Report`s. No I/O."""
