"""A rulebook paragraph breaks its lines once per width: asked again, at any width, in any order,
it gives the lines and height a fresh paragraph gives (so laying out once more is free, not different)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.project import Project
from generator.render.documents import markup
from generator.render.documents.iconpara import IconParagraph
from generator.render.documents.styles import make_styles
from generator.render.faces.icons import icon_set
from tests.helpers import REPO

SHIPPED = icon_set(Project.at(REPO), "")  # :coin: draws the shipped icon

WORDS = ["Take", "1", ":coin:", "per", "**ship**", "in", "*your*", "harbour", "broadside", "—", "and", "a"]


def lines(paragraph: IconParagraph) -> list[tuple[list[str], float]]:
    """Each line's words and its spare width, as drawn."""
    out = []
    for line in paragraph.blPara.lines:
        if isinstance(line, tuple):  # one font throughout: (spare width, words)
            out.append(([str(w) for w in line[1]], round(line[0], 6)))
        else:  # runs of several fonts (or pictures): a FragLine
            out.append(([repr(getattr(w, "text", w)) for w in line.words], round(line.extraSpace, 6)))
    return out


@settings(max_examples=30, deadline=None)
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=40),
       widths=st.lists(st.sampled_from([60.0, 95.5, 180.0, 400.0]), min_size=1, max_size=6))
def test_wrapping_again_gives_what_a_fresh_paragraph_gives(games, words, widths) -> None:
    style = make_styles(games["pirate-tricks"]).body
    text = markup.inline_to_para(" ".join(words))
    reused = IconParagraph(text, style, icons=SHIPPED)
    for width in widths:
        fresh = IconParagraph(text, style, icons=SHIPPED)
        assert reused.wrap(width, 1000) == fresh.wrap(width, 1000)
        assert lines(reused) == lines(fresh)
        assert reused.height == fresh.height and reused.width == fresh.width
