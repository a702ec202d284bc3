"""Reading `data/` into the model, with every error pointing at file:line.

Safe YAML with line numbers and size caps (`yamlsrc`), strict sections declared once (`schema`, read by
`reader`), components and items (`items`; CSV/XLSX in `sheets`), --set overrides (`overrides`), and
`game_loader`, which reads a game through the read gate. It may import the model and the ground floor.
"""

from generator.load.game_loader import load_game, load_games

__all__ = ["load_game", "load_games"]
