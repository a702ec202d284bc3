"""CMYK and PDF/X: turn one of our RGB PDFs into a PDF/X-1a-style CMYK file a print shop's preflight accepts.

`--colour cmyk` sends every PDF of a game through it: card sheets and face PDFs (`exports.registry`),
rulebooks, score sheets, screens and boards (`build.plan.in_colour`).

Why a post-pass over the finished PDF (with pikepdf) rather than a second
drawing path: every face, sheet and deck is drawn by the same code, and a
conversion that reads the content streams catches every colour that code
(or a later layout) can set. The pass:

- converts every DeviceRGB colour operator (`rg`/`RG`, and `sc`/`scn` after a
  DeviceRGB `cs`) to `k`/`K` through the shipped profile
  (`icc/PiratePress-FOGRA39L-TAC240.icc`, see its LICENSE.txt), relative
  colorimetric from sRGB. Exact greys (r = g = b) become black ink only, the
  print-shop habit that keeps text sharp (no four-plate registration);
- caps the total ink of every colour at the limit (the profile is built with
  the same 240 % limit; the cap catches interpolation overshoot), scaling
  C, M and Y down and keeping K;
- converts RGB images to CMYK pixels through the same profile; a one-colour
  picture over transparency (a rulebook's inline icon) becomes a stencil
  mask painted in its colour, and any other image with transparency, which
  PDF/X-1a cannot hold, is refused in one line;
- converts fillable fields too: appearance streams, /MK border and
  background colours, the text colour of /DA;
- adds the OutputIntent (GTS_PDFX, FOGRA39 condition, the profile embedded),
  the PDF/X version keys, and TrimBox/BleedBox on any page lacking them.

Fonts are embedded TrueType subsets already (ReportLab, `fonts.py`); the
tests check that no font is left unembedded. Output is deterministic.
"""

from __future__ import annotations

import io
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROFILE = Path(__file__).with_name("icc") / "PiratePress-FOGRA39L-TAC240.icc"
PROFILE_INK_LIMIT = 240  # the total ink limit the profile was built with (colprof -l240), used by --colour cmyk
OUTPUT_CONDITION = "FOGRA39"
OUTPUT_CONDITION_INFO = "Coated FOGRA39 (ISO 12647-2:2004), total ink limit 240 %"
REGISTRY = "http://www.color.org"
PDFX_VERSION = "PDF/X-1a:2003"
RGB_FILL, RGB_STROKE = "rg", "RG"
SET_COLOUR = {"sc": "k", "scn": "k", "SC": "K", "SCN": "K"}
EDGE_SHARE = 0.3  # designed: an icon's anti-aliased rim is 10-15 % of its inked pixels; more is real transparency


@dataclass
class ColourConverter:
    """sRGB to CMYK through the shipped profile, with a total ink cap; remembers colours it has converted."""

    ink_limit: int | None = 240
    _transform: Any = None
    _seen: dict[tuple[float, float, float], tuple[float, float, float, float]] = field(default_factory=dict)

    def transform(self) -> Any:
        if self._transform is None:
            from PIL import ImageCms

            self._transform = ImageCms.buildTransform(
                ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(PROFILE)), "RGB", "CMYK",
                renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        return self._transform

    def cmyk(self, r: float, g: float, b: float) -> tuple[float, float, float, float]:
        """One RGB colour (0..1 each) as CMYK (0..1 each), total ink within the limit."""
        key = (round(r, 4), round(g, 4), round(b, 4))
        found = self._seen.get(key)
        if found is None:
            found = self._seen[key] = self._convert(*key)
        return found

    def _convert(self, r: float, g: float, b: float) -> tuple[float, float, float, float]:
        if r == g == b:
            return 0.0, 0.0, 0.0, round(1.0 - r, 4)
        from PIL import Image, ImageCms

        pixel = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in (r, g, b)))
        converted: Any = ImageCms.applyTransform(pixel, self.transform())
        c, m, y, k = (v / 255 for v in converted.getpixel((0, 0)))
        return self.capped(c, m, y, k)

    def capped(self, c: float, m: float, y: float, k: float) -> tuple[float, float, float, float]:
        """Scale C, M, Y down (K kept) until C+M+Y+K is within the limit; rounded to 4 places."""
        if self.ink_limit is not None:
            limit = self.ink_limit / 100 - 0.0005
            colour = c + m + y
            if colour + k > limit and colour > 0:
                factor = max(0.0, limit - k) / colour
                c, m, y = c * factor, m * factor, y * factor
        return tuple(float(f"{v:.4f}") for v in (c, m, y, k))  # type: ignore[return-value]

    def image(self, picture: Any) -> Any:
        """An RGB PIL image as CMYK pixels (same profile, relative colorimetric)."""
        from PIL import ImageCms

        return ImageCms.applyTransform(picture.convert("RGB"), self.transform())


def to_pdfx(pdf: bytes, ink_limit: int | None, title: str) -> bytes:
    """The PDF converted to CMYK with an OutputIntent and the PDF/X keys; see the module doc."""
    import pikepdf

    converter = ColourConverter(ink_limit)
    document = pikepdf.open(io.BytesIO(pdf))
    _stencil_one_colour_images(document, converter)
    _refuse_transparency(document, title)
    done: set[tuple[int, int]] = set()
    for page in document.pages:
        _convert_page(document, page, converter, done)
        _convert_widgets(page, converter, done)
        _boxes(page)
    if "/AcroForm" in document.Root and "/DA" in document.Root.AcroForm:
        document.Root.AcroForm.DA = pikepdf.String(_convert_da(str(document.Root.AcroForm.DA), converter))
    _output_intent(document, title or str(document.docinfo.get("/Title", "")))
    out = io.BytesIO()
    document.save(out, deterministic_id=True, compress_streams=True, min_version="1.4",
                  object_stream_mode=pikepdf.ObjectStreamMode.disable)  # PDF/X-1a: PDF 1.4, no object streams
    return out.getvalue()


def has_transparency(data: bytes) -> bool:
    """Does this image file hold a pixel that is not fully opaque (what ReportLab embeds as a soft mask)?"""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        if image.mode not in ("RGBA", "LA", "PA") and "transparency" not in image.info:
            return False
        low, _high = image.convert("RGBA").getchannel("A").getextrema()
        return isinstance(low, (int, float)) and low < 255


def _stencil_one_colour_images(document: Any, converter: ColourConverter) -> None:
    """A picture of one colour over transparency (a rulebook's inline icon) becomes that colour painted
    through a stencil mask: the same shape without transparency, which PDF/X-1a allows.

    Only a shape that is opaque inside, see-through outside and soft on its rim alone (`EDGE_SHARE`); a
    see-through picture (glass, a shadow) is refused by `_refuse_transparency`. The image object turns into a
    form over the unit square (where an image is drawn), so every `Do` that drew it draws the stencil in its
    place; the rim is cut at half opacity, sharp at the sizes icons print."""
    import pikepdf
    from pikepdf import PdfImage
    from PIL import Image

    for obj in list(document.objects):
        if not isinstance(obj, pikepdf.Stream) or obj.get("/Subtype") != pikepdf.Name.Image:
            continue
        soft_mask = obj.get("/SMask")
        if not isinstance(soft_mask, pikepdf.Stream):
            continue
        picture = PdfImage(obj).as_pil_image().convert("RGB")
        alpha = PdfImage(soft_mask).as_pil_image().convert("L")
        if alpha.size != picture.size:
            continue
        opacity = alpha.tobytes()
        inked = {rgb for rgb, a in zip(_pixels(picture), opacity) if a > 0}
        edges = sum(1 for a in opacity if 0 < a < 255)
        if len(inked) != 1 or edges > EDGE_SHARE * sum(1 for a in opacity if a > 0):
            continue  # more than one colour, or see-through inside (glass, a shadow): refused below
        r, g, b = next(iter(inked))
        stencil = alpha.point(lambda a: 0 if a >= 128 else 255).convert("1", dither=Image.Dither.NONE)
        mask = document.make_stream(zlib.compress(stencil.tobytes(), 9))
        mask.Type, mask.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
        mask.Width, mask.Height = alpha.size
        mask.ImageMask, mask.BitsPerComponent, mask.Filter = True, 1, pikepdf.Name.FlateDecode
        c, m, y, k = converter.cmyk(r / 255, g / 255, b / 255)
        obj.write(f"q {c:.4f} {m:.4f} {y:.4f} {k:.4f} k /Stencil Do Q".encode())
        for key in list(obj.keys()):
            if key not in ("/Type", "/Subtype", "/Length"):
                del obj[key]
        obj.Subtype, obj.FormType = pikepdf.Name.Form, 1
        obj.BBox = pikepdf.Array([0, 0, 1, 1])
        obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Stencil=mask))


def _pixels(picture: Any) -> list[bytes]:
    """An RGB picture's pixels, each as its three bytes."""
    data = picture.tobytes()
    return [data[i:i + 3] for i in range(0, len(data), 3)]


def _refuse_transparency(document: Any, title: str) -> None:
    """PDF/X-1a allows no transparency; flattening it here would guess the background, so say so instead."""
    from generator.errors import UsageError

    for obj in document.objects:
        soft_mask = getattr(obj, "get", lambda key, default=None: default)("/SMask")
        if soft_mask is not None and str(soft_mask) != "/None":
            raise UsageError(f"{title}: an image with transparency cannot go into CMYK PDF/X-1a; give the image an "
                             "opaque background, or build with --colour rgb")


def _convert_page(document: Any, page: Any, converter: ColourConverter, done: set[tuple[int, int]]) -> None:
    import pikepdf

    instructions = pikepdf.parse_content_stream(page)
    page.Contents = document.make_stream(pikepdf.unparse_content_stream(_convert_ops(instructions, converter)))
    _convert_resources(page.obj.get("/Resources"), converter, done)


def _convert_resources(resources: Any, converter: ColourConverter, done: set[tuple[int, int]]) -> None:
    """Forms (their content and their own resources) and images, each object once."""
    import pikepdf

    if resources is None or "/XObject" not in resources:
        return
    for _, xobject in resources.XObject.items():
        ident = xobject.objgen
        if ident in done and ident != (0, 0):
            continue
        done.add(ident)
        if xobject.get("/Subtype") == pikepdf.Name.Form:
            ops = _convert_ops(pikepdf.parse_content_stream(xobject), converter)
            xobject.write(pikepdf.unparse_content_stream(ops))
            _convert_resources(xobject.get("/Resources"), converter, done)
        elif xobject.get("/Subtype") == pikepdf.Name.Image:
            _convert_image(xobject, converter)


def _convert_widgets(page: Any, converter: ColourConverter, done: set[tuple[int, int]]) -> None:
    """A fillable sheet's fields: their appearance streams, border and background colours (/MK) and the
    colour their typed text takes (/DA), so a form filled on screen prints in CMYK too."""
    import pikepdf

    for annotation in page.obj.get("/Annots", []):
        appearances = annotation.get("/AP")
        for key in ("/N", "/D", "/R"):
            stream = appearances.get(key) if appearances is not None else None
            states = [stream] if isinstance(stream, pikepdf.Stream) else \
                list(stream.values()) if isinstance(stream, pikepdf.Dictionary) else []
            for state in states:
                if state.objgen in done and state.objgen != (0, 0):
                    continue
                done.add(state.objgen)
                state.write(pikepdf.unparse_content_stream(_convert_ops(pikepdf.parse_content_stream(state),
                                                                        converter)))
                _convert_resources(state.get("/Resources"), converter, done)
        looks = annotation.get("/MK")
        for key in ("/BC", "/BG"):
            colour = looks.get(key) if looks is not None else None
            if colour is not None and len(colour) == 3:
                looks[key] = pikepdf.Array([float(v) for v in converter.cmyk(*(float(c) for c in colour))])
        if "/DA" in annotation:
            annotation.DA = pikepdf.String(_convert_da(str(annotation.DA), converter))


def _convert_da(appearance: str, converter: ColourConverter) -> str:
    """`r g b rg` inside a default-appearance string becomes `c m y k k`."""
    words = appearance.split()
    for i, word in enumerate(words):
        if word == "rg" and i >= 3:
            try:
                rgb = [float(v) for v in words[i - 3:i]]
            except ValueError:
                continue
            words[i - 3:i + 1] = [*(f"{v:.4f}".rstrip("0").rstrip(".") or "0" for v in converter.cmyk(*rgb)), "k"]
            return _convert_da(" ".join(words), converter)
    return " ".join(words)


def _convert_ops(instructions: list[Any], converter: ColourConverter) -> list[Any]:
    import pikepdf

    out = []
    rgb_space = {"fill": False, "stroke": False}
    for operands, operator in instructions:
        op = str(operator)
        if op in (RGB_FILL, RGB_STROKE) and len(operands) == 3:
            cmyk = converter.cmyk(*(float(v) for v in operands))
            out.append(pikepdf.ContentStreamInstruction(list(cmyk), pikepdf.Operator("k" if op == "rg" else "K")))
            continue
        if op in ("cs", "CS"):
            which = "fill" if op == "cs" else "stroke"
            rgb_space[which] = len(operands) == 1 and operands[0] == pikepdf.Name.DeviceRGB
            if rgb_space[which]:
                continue  # the k/K that replaces the colour sets the space too
        if op in SET_COLOUR and len(operands) == 3 and rgb_space["fill" if op.islower() else "stroke"]:
            cmyk = converter.cmyk(*(float(v) for v in operands))
            out.append(pikepdf.ContentStreamInstruction(list(cmyk), pikepdf.Operator(SET_COLOUR[op])))
            continue
        out.append(pikepdf.ContentStreamInstruction(operands, operator))
    return out


def _convert_image(image: Any, converter: ColourConverter) -> None:
    import pikepdf
    from pikepdf import PdfImage

    space = image.get("/ColorSpace")
    is_rgb = space == pikepdf.Name.DeviceRGB or (
        isinstance(space, pikepdf.Array) and len(space) == 2 and space[0] == pikepdf.Name.ICCBased
        and int(space[1].get("/N", 0)) == 3)
    if not is_rgb:
        return
    picture = PdfImage(image).as_pil_image()
    cmyk = converter.image(picture)
    image.write(zlib.compress(cmyk.tobytes(), 9), filter=pikepdf.Name.FlateDecode)
    image.ColorSpace = pikepdf.Name.DeviceCMYK
    image.BitsPerComponent = 8
    if "/DecodeParms" in image:
        del image["/DecodeParms"]
    if "/Decode" in image:
        del image["/Decode"]


def _boxes(page: Any) -> None:
    """PDF/X needs a TrimBox (or ArtBox) and keeps a BleedBox: the media box where the page sets none."""
    for box in ("/TrimBox", "/BleedBox"):
        if box not in page.obj:
            page.obj[box] = page.obj.MediaBox


def _output_intent(document: Any, title: str) -> None:
    import pikepdf

    profile = document.make_stream(PROFILE.read_bytes())
    profile.N = 4
    intent = pikepdf.Dictionary(
        Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
        OutputConditionIdentifier=pikepdf.String(OUTPUT_CONDITION),
        OutputCondition=pikepdf.String(OUTPUT_CONDITION_INFO),
        RegistryName=pikepdf.String(REGISTRY), Info=pikepdf.String(OUTPUT_CONDITION_INFO),
        DestOutputProfile=profile)
    document.Root.OutputIntents = pikepdf.Array([document.make_indirect(intent)])
    info = document.docinfo
    info["/Title"] = pikepdf.String(title or "Pirate Press")
    info["/GTS_PDFXVersion"] = pikepdf.String(PDFX_VERSION)
    info["/GTS_PDFXConformance"] = pikepdf.String("PDF/X-1a:2003")
    info["/Trapped"] = pikepdf.Name("/False")
