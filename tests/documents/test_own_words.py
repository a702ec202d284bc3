"""The rulebooks are written in the studio's own words: no run of eight words from the rule texts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.load import load_game
from generator.project import Project
from generator.render.documents.rulebook import rulebook_template
from generator.render.documents.templating import render_template, template_context

ROOT = Path(__file__).resolve().parents[2]
# the rule texts sit beside the checkout (/work/shared beside /work/main), or one level up from a worktree
SEEDS = next((p / "shared" / "seeds" for p in ROOT.parents if (p / "shared" / "seeds").is_dir()),
             ROOT.parent / "shared" / "seeds")
RUN = 8


def shingles(text: str) -> set[tuple[str, ...]]:
    runs: set[tuple[str, ...]] = set()
    for part in text.split("|"):  # a '|' ends a run: what stands on either side is not one sentence
        words = re.findall(r"[a-z0-9']+", part.lower().replace("’", "'"))
        runs |= {tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}
    return runs


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule texts (shared/seeds) are not beside this checkout")
@pytest.mark.parametrize("game_id", ["counterattack", "pirate-tricks", "all-hands-on-deck", "pirates-under-fire"])
def test_no_sentence_of_the_rule_texts_is_copied(game_id: str) -> None:
    project = Project.at(ROOT)
    seed_runs: set[tuple[str, ...]] = set()
    for seed in SEEDS.glob("*.txt"):
        seed_runs |= shingles(seed.read_text(encoding="utf-8"))
    game = load_game(project, game_id)
    path = rulebook_template(game, project)
    text = " ".join(line for _, line in render_template(path, project.display(path), template_context(game),
                                                            gate=project.gate))
    for credit in game.credits:  # credits are names and roles, facts to keep as they are
        for words in (credit.role, *credit.names):
            text = re.sub(re.escape(words), " | ", text, flags=re.I)
    copied = sorted(" ".join(run) for run in shingles(text) & seed_runs)
    assert copied == [], f"{game_id} rulebook repeats the rule texts: {copied}"
