"""Issue 32, finding 8: `--colour cmyk` converts every PDF of a game, not only its card sheets.

Was: boards, screens, score sheets and rulebooks stayed RGB. Read back from the built files."""

from __future__ import annotations

import shutil

import pikepdf
import pytest
from test_cmyk import RGB_OPERATORS, colour_report

from generator.build.options import BuildOptions
from generator.project import Project
from tests.helpers import REPO

GAMES = ("pirates-under-fire", "pirate-tricks")  # a board, a screen, score sheets (fillable too), rulebooks


def _appearances(document: pikepdf.Pdf):
    """Every form field's appearance stream, border and background colour, and text colour."""
    for page in document.pages:
        for annotation in page.obj.get("/Annots", []):
            for state in annotation.get("/AP", {}).values():
                yield from ([state] if isinstance(state, pikepdf.Stream) else state.values())
            for key in ("/BC", "/BG"):
                colour = annotation.get("/MK", {}).get(key)
                if colour is not None:
                    assert len(colour) in (1, 4), (key, list(colour))  # grey or CMYK, never RGB
            assert " rg" not in str(annotation.get("/DA", ""))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Project:
    from generator.build.session import build

    root = tmp_path_factory.mktemp("cmyk-documents")
    for folder in ("data", "templates"):
        shutil.copytree(REPO / folder, root / folder)
    project = Project.at(root)
    build(project, list(GAMES), BuildOptions(papers=("a4",), colour="cmyk"))
    return project


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_every_pdf_of_the_game_is_cmyk_within_240_percent_ink(built, game_id) -> None:
    pdfs = sorted((built.output_dir / game_id).glob("*.pdf"))
    kinds = {kind for kind in ("rules", "sheet", "board", "screen", "ledger", "pad", "fillable", "tokens")
             if any(kind in path.name for path in pdfs)}
    assert {"rules", "fillable", "tokens"} <= kinds and kinds & {"board", "screen"}
    for path in pdfs:
        document = pikepdf.open(path)
        operators, max_ink, spaces = colour_report(document)
        assert not operators & RGB_OPERATORS and not any("RGB" in s for s in spaces), path.name
        assert 0 < max_ink <= 240.0 + 1e-9, (path.name, max_ink)
        assert document.Root.OutputIntents[0].S == pikepdf.Name.GTS_PDFX, path.name
        for stream in _appearances(document):
            used = {str(op) for _, op in pikepdf.parse_content_stream(stream)}
            assert not used & RGB_OPERATORS, path.name
        assert str(document.docinfo["/Title"]) not in ("", "Pirate Press"), path.name  # keeps its own title


@pytest.mark.slow
def test_the_rulebooks_inline_icons_print_as_stencils_in_their_colour(built) -> None:
    """PDF/X-1a allows no soft mask: a one-colour icon over transparency becomes a stencil mask painted in CMYK."""
    document = pikepdf.open(built.output_dir / "pirates-under-fire" / "pirates-under-fire-rules-a4.pdf")
    stencils = [o for o in document.objects if isinstance(o, pikepdf.Stream) and o.get("/ImageMask") is True]
    assert stencils and all(int(o.Width) >= 64 for o in stencils)
    assert not [o for o in document.objects if isinstance(o, pikepdf.Stream) and "/SMask" in o]
