"""Fillable score sheets written by our own field writer (`formfields`) against ReportLab's generic
`acroForm.textfield`: every fillable sheet of every game, on both papers, read back with pypdf
(names, rectangles, tooltips, lengths, flags, colours, scripts, calculation order, appearances) and
rendered with pdfium, with and without its form filler, pixel for pixel the same."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator
from typing import Any

import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from reportlab.lib import colors
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFDocument, PDFName, PDFString

from generator.load import load_game
from generator.project import Project
from generator.render.documents.formfields import FormField, plain_string
from generator.render.documents.rulebook import parse_template
from generator.render.documents.sheets import (
    SheetLayout,
    draw_sheet,
    has_fields,
    lay_out_sheet,
    sheet_name,
    sheet_templates,
)

PAPERS = ("a4", "letter")


def generic_add_to(field: FormField, canvas: Any) -> None:
    """The field as ReportLab's own AcroForm code writes it (what the sheets did before `formfields`)."""
    canvas.acroForm.textfield(
        name=field.name, tooltip=field.tooltip, x=field.x, y=field.y, width=field.width, height=field.height,
        relative=False, borderWidth=0.6, borderColor=field.colour, fillColor=colors.white,
        textColor=colors.black, fontSize=0, maxlen=40,
    )
    if field.sums:
        form = canvas.acroForm
        ref = form.fields[-1]
        names = ", ".join(f'"{name}"' for name in field.sums)
        script = PDFString(f"AFSimple_Calculate(\"SUM\", new Array({names}));")
        canvas._doc.idToObject[ref.name].dict["AA"] = PDFDictionary(
            {"C": PDFDictionary({"S": PDFName("JavaScript"), "JS": script})})
        form.extras.setdefault("CO", PDFArray([])).sequence.append(ref)


@pytest.fixture(scope="module")
def fillable_pairs(project: Project) -> list[tuple[str, bytes, bytes]]:
    """(label, PDF from our writer, PDF from ReportLab's) for every fillable sheet and paper."""
    pairs = []
    for game_id in project.game_ids():
        game = load_game(project, game_id)
        for template in sheet_templates(game, project):
            parsed = parse_template(template, game, project)
            if not has_fields(parsed[1]):
                continue
            for paper in PAPERS:
                layout = lay_out_sheet(game, project, template, paper, parsed)
                pairs.append((f"{game_id} {sheet_name(template)} {paper}", draw_sheet(layout, fillable=True),
                              _generic(layout)))
    return pairs


@pytest.fixture(scope="module")
def read_back(fillable_pairs) -> list[tuple[str, PdfReader, PdfReader]]:
    """The same pairs read with pypdf, once for all the tests below (parsing is the slow part)."""
    return [(label, PdfReader(io.BytesIO(ours)), PdfReader(io.BytesIO(theirs)))
            for label, ours, theirs in fillable_pairs]


def _generic(layout: SheetLayout) -> bytes:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(FormField, "add_to", generic_add_to)
        return draw_sheet(layout, fillable=True)


def _plain(value: Any) -> Any:
    """A pypdf value as plain Python (numbers rounded as the PDF wrote them), references followed."""
    value = value.get_object() if hasattr(value, "get_object") else value
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items() if key not in ("/P", "/AP", "/Parent")}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, float):
        return round(value, 4)
    return value if isinstance(value, int) else str(value)


def widgets(document: PdfReader) -> Iterator[tuple[int, dict[str, Any], bytes, Any]]:
    """Each widget in page order: its page, its entries, its appearance stream's data and dictionary."""
    for number, page in enumerate(document.pages):
        for annotation in page.get("/Annots", []):
            widget = annotation.get_object()
            assert widget.raw_get("/P").idnum == page.indirect_reference.idnum  # each widget names its own page
            appearance = widget["/AP"]["/N"].get_object()
            shape = {key: _plain(appearance[key]) for key in ("/BBox", "/Matrix", "/Subtype", "/Type")}
            yield number, _plain(widget), appearance.get_data(), shape


@pytest.mark.slow
def test_every_fillable_sheet_is_covered(fillable_pairs) -> None:
    labels = [label for label, _, _ in fillable_pairs]
    games = {label.split(" ")[0] for label in labels}
    assert games == {"all-hands-on-deck", "counterattack", "pirate-tricks", "pirates-under-fire"}
    assert len(labels) == 2 * len(games)


@pytest.mark.slow
def test_fields_read_back_as_reportlab_writes_them(read_back) -> None:
    """Names, rectangles, tooltips, maxlen, /DA, /MK, /BS, flags, values and calculate scripts, page by
    page in the same order; every widget has an appearance drawing the same box."""
    for label, ours, theirs in read_back:
        mine, reference = list(widgets(ours)), list(widgets(theirs))
        assert len(mine) == len(reference) > 0, label
        for (page, entries, stream, shape), (ref_page, ref_entries, ref_stream, ref_shape) in zip(
                mine, reference, strict=True):
            assert (page, entries) == (ref_page, ref_entries), label
            assert stream == ref_stream and shape == ref_shape, (label, entries["/T"])
            assert entries["/MaxLen"] == 40 and entries["/FT"] == "/Tx" and entries["/TU"], label
        assert list(ours.get_fields()) == list(theirs.get_fields()), label  # /Fields order


@pytest.mark.slow
def test_calculation_order_and_form_defaults_match(read_back) -> None:
    totals = 0
    for label, ours, theirs in read_back:
        forms = [document.trailer["/Root"]["/AcroForm"] for document in (ours, theirs)]
        order = [[str(ref.get_object()["/T"]) for ref in form.get("/CO", [])] for form in forms]
        assert order[0] == order[1], label
        totals += len(order[0])
        assert forms[0]["/DA"] == forms[1]["/DA"] == "/Helv 0 Tf 0 g", label
        assert forms[0]["/DR"]["/Font"]["/Helv"].get_object()["/BaseFont"] == "/Helvetica", label
    assert totals >= 2 * (6 + 2)  # all-hands: a total per copy; under fire: one per captain


@pytest.mark.slow
def test_one_form_font_and_an_appearance_object_per_field(read_back) -> None:
    """One form font per document (ReportLab made one a field); each field keeps an appearance object of
    its own, since a filler may rewrite it in place (the filling test below)."""
    for label, document, theirs in read_back:
        appearances, fonts, count = set(), set(), 0
        for page in document.pages:
            for annotation in page.get("/Annots", []):
                appearance = annotation.get_object()["/AP"].raw_get("/N")
                appearances.add(appearance.idnum)
                fonts.add(appearance.get_object()["/Resources"]["/Font"].raw_get("/Helv").idnum)
                count += 1
        assert len(fonts) == 1, label
        assert len(appearances) == count, label
        objects = int(document.trailer["/Size"])
        assert objects == int(theirs.trailer["/Size"]) - (count - 1), label


def _pixels(data: bytes, forms: bool) -> list[str]:
    document = pdfium.PdfDocument(data)
    try:
        if forms:
            document.init_forms()
        return [hashlib.sha256(bytes(page.render(scale=1, may_draw_forms=True).buffer)).hexdigest()
                for page in document]
    finally:
        document.close()


@pytest.mark.slow
@pytest.mark.parametrize("forms", [False, True], ids=["appearances", "form-filler"])
def test_renders_pixel_identical_to_reportlabs_fields(fillable_pairs, forms) -> None:
    """At 72 dpi here (tests/bench/compare_renders.py --forms checks 72, 150 and 300 dpi over a whole build)."""
    for label, ours, theirs in fillable_pairs:
        assert _pixels(ours, forms) == _pixels(theirs, forms), label


def test_fillable_sheets_are_deterministic(project: Project) -> None:
    game = load_game(project, "pirates-under-fire")
    template = next(t for t in sheet_templates(game, project) if sheet_name(t) == "score-pad")
    layout = lay_out_sheet(game, project, template, "a4")
    assert draw_sheet(layout, fillable=True) == draw_sheet(layout, fillable=True)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x2FF), max_size=40))
def test_plain_strings_are_written_as_reportlab_writes_them(text: str) -> None:
    """The writer escapes names, tooltips and scripts itself when they are printable ASCII; otherwise
    ReportLab formats them (None here)."""
    escaped = plain_string(text)
    if text.isascii() and text.isprintable():
        assert escaped == PDFString(text).format(PDFDocument())
    else:
        assert escaped is None


def test_filling_one_field_leaves_the_alike_boxes_empty(fillable_pairs) -> None:
    """pypdf fills a field by rewriting its appearance object in place: alike boxes (the same appearance
    bytes) must not share that object, or each would show the value."""
    from pypdf import PdfWriter

    label, ours, _ = next(pair for pair in fillable_pairs if pair[0].startswith("pirates-under-fire"))
    page = PdfReader(io.BytesIO(ours)).pages[0]
    sharing: dict[bytes, list[str]] = {}
    for annotation in page["/Annots"]:
        widget = annotation.get_object()
        sharing.setdefault(widget["/AP"]["/N"].get_data(), []).append(str(widget["/T"]))
    filled, neighbour = next(names for names in sharing.values() if len(names) > 1)[:2]
    writer = PdfWriter(clone_from=io.BytesIO(ours))
    writer.update_page_form_field_values(writer.pages[0], {filled: "Anne Bonny"}, auto_regenerate=False)
    written = io.BytesIO()
    writer.write(written)
    after = {str(a.get_object()["/T"]): a.get_object() for a in PdfReader(written).pages[0]["/Annots"]}
    before = {str(a.get_object()["/T"]): a.get_object() for a in page["/Annots"]}
    assert b"(Anne Bonny) Tj" in after[filled]["/AP"]["/N"].get_data(), label
    assert after[neighbour]["/V"] == ""
    assert after[neighbour]["/AP"]["/N"].get_data() == before[neighbour]["/AP"]["/N"].get_data()
    assert b" Tj" not in after[neighbour]["/AP"]["/N"].get_data()


@pytest.mark.parametrize("encrypt", [None, "secret"], ids=["plain", "encrypted"])
def test_fields_read_back_from_a_canvas_of_their_own(encrypt) -> None:
    """Two alike boxes and a total, on a bare canvas: names (ASCII and not), tooltips, script and order read
    back, encrypted too (strings and streams are then encrypted per object, not formatted once)."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, encrypt=encrypt)
    blue = colors.Color(0.1, 0.2, 0.3)
    boxes = [FormField("a", "Row (a) · first", 10, 20, 50, 14, blue), FormField("b", "Row b", 10, 40, 50, 14, blue),
             FormField("total", "Total − all", 10, 60, 50, 14, blue, sums=("a", "b"))]
    for box in boxes:
        box.add_to(canvas)
    canvas.showPage()
    canvas.save()
    document = PdfReader(io.BytesIO(buffer.getvalue()))
    if encrypt:
        assert document.is_encrypted and document.decrypt(encrypt)
    fields = document.get_fields()
    assert list(fields) == ["a", "b", "total"]
    assert [fields[box.name]["/TU"] for box in boxes] == [box.tooltip for box in boxes]
    form = document.trailer["/Root"]["/AcroForm"]
    assert [str(ref.get_object()["/T"]) for ref in form["/CO"]] == ["total"]
    total = form["/CO"][0].get_object()
    assert total["/AA"]["/C"]["/JS"] == 'AFSimple_Calculate("SUM", new Array("a", "b"));'
    widgets = [a.get_object() for a in document.pages[0]["/Annots"]]
    assert [[round(float(v), 3) for v in w["/Rect"]] for w in widgets] == [[10, 20, 60, 34], [10, 40, 60, 54],
                                                                            [10, 60, 60, 74]]
    streams = [w["/AP"]["/N"].get_data() for w in widgets]
    assert streams[0] == streams[1] == streams[2] and b"re" in streams[0]  # alike boxes, alike appearances
    assert len({w["/AP"].raw_get("/N").idnum for w in widgets}) == 3  # each its own object
