"""Client library, bots, terminal client and the `lantable` CLI."""
