"""Development harness, not on the bot's request path: the local system and scripted players for
``dorehami sandbox``, the tests and the benchmarks. Only this package imports ``sandbox``."""
