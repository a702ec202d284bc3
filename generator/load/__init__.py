"""Reading `data/` into the model, with every error pointing at file:line."""

from generator.load.game_loader import load_game, load_games

__all__ = ["load_game", "load_games"]
