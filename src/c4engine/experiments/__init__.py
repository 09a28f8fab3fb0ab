"""Experiments over many games: matches with Elo, self-play tuning of evaluation weights, datasets."""
