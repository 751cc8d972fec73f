"""Kaiser's Pirates (I Pirati del Kaiser), 1-4 seats. Work in progress: not yet a game (no hooks)."""
