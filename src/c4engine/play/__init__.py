"""Players and games: human, random, engine and perfect players, skill levels, the game loop, game records."""
