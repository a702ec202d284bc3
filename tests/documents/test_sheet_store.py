"""Score sheets saved through the session's store (each font subset cut and compressed once, for the
printed and the fillable file, both papers and the next build) are byte for byte what ReportLab's own
save writes: every sheet of every game (copies repeated as forms, fillable copies stamped), on a fresh
store and on one that already holds every subset."""

from __future__ import annotations

import pytest
from reportlab.pdfbase.ttfonts import TTFontFile

from generator.project import Project
from generator.render.documents.sheets import draw_sheet, lay_out_sheet, sheet_name, sheet_templates
from generator.render.faces.stamps import FormStore
from tests.documents.conftest import GAMES


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_sheets_saved_through_the_store_are_reportlabs_bytes(project: Project, games, monkeypatch,  # type: ignore[no-untyped-def]
                                                             game_id: str) -> None:
    game = games[game_id]
    store = FormStore()
    made: list[int] = []
    make_subset = TTFontFile.makeSubset
    monkeypatch.setattr(TTFontFile, "makeSubset", lambda face, subset: made.append(1) or make_subset(face, subset))
    for template in sheet_templates(game, project):
        for paper in ("a4", "letter"):
            layout = lay_out_sheet(game, project, template, paper)
            for fillable in (False, True):
                label = f"{game_id} {sheet_name(template)} {paper} {'fillable' if fillable else 'printed'}"
                first = draw_sheet(layout, fillable, store=store)
                made.clear()
                again = draw_sheet(layout, fillable, store=store)
                assert not made, label  # every subset came from the store the second time
                own = draw_sheet(layout, fillable)  # ReportLab's own save
                assert first == own and again == own, label
                assert own.startswith(b"%PDF") and b"/FontFile2" in own
