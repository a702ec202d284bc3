"""A kept-together block measures once per width: asked again, at any width in any order, it gives
the size ReportLab's own KeepTogether gives (so the layout, and the PDF, are the same)."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import KeepTogether, ListFlowable, ListItem, Spacer

from generator.project import Project
from generator.render.documents import markup
from generator.render.documents.flowables import KeepWhole
from generator.render.documents.iconpara import IconParagraph
from generator.render.documents.styles import make_styles
from generator.render.faces.icons import icon_set
from tests.helpers import REPO

SHIPPED = icon_set(Project.at(REPO), "")  # :coin: draws the shipped icon

ITEMS = ["Take 1 :coin: per ship in **your** harbour", "Draw two cards", "A broadside hits every ship in range — "
         "even your own, when it sails in the line of fire"]


def block(style, kind, items):  # type: ignore[no-untyped-def]
    paragraphs = [IconParagraph(markup.inline_to_para(text), style, icons=SHIPPED) for text in items]
    if kind == "list":
        return [ListFlowable([ListItem(p) for p in paragraphs], bulletType="bullet", start="\u2022")]
    return [*paragraphs, Spacer(1, 6)]


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(kind=st.sampled_from(["list", "paragraphs"]), items=st.lists(st.sampled_from(ITEMS), min_size=1, max_size=5),
       widths=st.lists(st.sampled_from([90.0, 150.5, 300.0, 480.0]), min_size=1, max_size=6))
def test_measuring_again_gives_what_keeptogether_gives(games, kind, items, widths) -> None:  # type: ignore[no-untyped-def]
    style = make_styles(games["counterattack"]).item
    canvas = Canvas(io.BytesIO())
    kept = KeepWhole(block(style, kind, items))
    for width in widths:
        fresh = KeepTogether(block(style, kind, items))
        assert kept.wrapOn(canvas, width, 700) == fresh.wrapOn(canvas, width, 700)
        assert (kept._H, kept._H0, kept._wrapInfo) == (fresh._H, fresh._H0, fresh._wrapInfo)
        parts, fresh_parts = kept.splitOn(canvas, width, 20), fresh.splitOn(canvas, width, 20)
        assert [type(p) for p in parts] == [type(p) for p in fresh_parts]  # too tall for 20 pt: a frame break first
