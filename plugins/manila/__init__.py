"""Manila (Zoch / Z-Man), 3-5 seats. Work in progress: not yet a game (no hooks)."""
