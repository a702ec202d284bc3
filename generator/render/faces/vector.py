"""SVG art, checked before svglib (ReportLab's own SVG reader) turns it into vector drawing commands.

An SVG file is untrusted data that can point elsewhere: it is parsed here with
lxml set never to load a DTD, expand an entity or touch the network, after the
bytes were refused outright when they declare a DOCTYPE or ENTITY (an entity
bomb, or a file: entity). The tree must then keep to what prints the same on
every machine, else one line names the file and the reason:

* references only inside the file (`href="#id"`) or inline (`data:` URIs);
  a `file:`, `http:` or relative reference would be fetched, and never is;
* no scripts, no `foreignObject` (HTML), no animation;
* no filters, masks or patterns, which svglib cannot draw (it would leave them out);
* no text: svglib looks up the font on this system, so the same SVG would print
  differently elsewhere; outline it (Inkscape: Path > Object to Path).

The checked tree is drawn by svglib as ReportLab paths, so the PDF holds vectors
(an inline `data:` raster inside the SVG stays a raster).
"""

from __future__ import annotations

import re
from typing import Any

from generator.errors import DataError, Location

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
MAX_ELEMENTS = 200_000  # designed: a detailed map traced in Inkscape has a few tens of thousands
REFUSED_ELEMENTS = {
    "script": "a script",
    "foreignObject": "foreignObject (embedded HTML)",
    "text": "text (svglib would draw it with this machine's fonts); convert it to paths (Inkscape: Path > Object "
            "to Path)",
    "filter": "a filter, which svglib cannot draw",
    "mask": "a mask, which svglib cannot draw",
    "pattern": "a pattern fill, which svglib cannot draw",
    "animate": "animation", "animateMotion": "animation", "animateTransform": "animation", "set": "animation",
    "iframe": "embedded HTML",
}
_DECLARATION = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)", re.IGNORECASE)
_IMPORT = re.compile(r"@import", re.IGNORECASE)


def looks_like_svg(data: bytes) -> bool:
    """Whether `data` starts like an SVG document (after a BOM, space, an XML declaration or comments)."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith((b"<?xml", b"<svg")) or (head.startswith(b"<!--") and b"<svg" in head)


def checked_tree(data: bytes, name: str, where: Location) -> Any:
    """The SVG's root element, parsed safely and checked (see the module doc); a DataError at `where`."""
    from lxml import etree

    if _DECLARATION.search(data):
        raise DataError(f"SVG {name!r} declares a DOCTYPE or ENTITY, which is refused (entities can read other "
                        "files or expand without end); save it again as plain SVG", where)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                             huge_tree=False, remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise DataError(f"SVG {name!r} is not well-formed XML ({exc.msg}); export it again", where) from None
    if root is None or etree.QName(root).localname != "svg":
        raise DataError(f"{name!r} is not an SVG image (its root element is not <svg>)", where)
    for count, node in enumerate(root.iter()):
        if count > MAX_ELEMENTS:
            raise DataError(f"SVG {name!r} has more than {MAX_ELEMENTS} elements; simplify it", where)
        if not isinstance(node.tag, str):
            continue
        problem = _problem(node)
        if problem:
            raise DataError(f"SVG {name!r} {problem}", where)
    return root


def _problem(node: Any) -> str | None:
    """What makes one element unsafe or unprintable here, or None."""
    from lxml import etree

    local = etree.QName(node).localname
    if local in REFUSED_ELEMENTS:
        return f"contains {REFUSED_ELEMENTS[local]}"
    if local == "style" and node.text and (_IMPORT.search(node.text) or _external_url(node.text)):
        return "has a style sheet that loads another file (@import or url()); put the styles in the SVG itself"
    for key, value in node.attrib.items():
        attribute = etree.QName(key).localname
        if attribute.lower().startswith("on"):
            return f"has an event handler ({attribute}), a script"
        if attribute == "href":
            target = value.strip()
            if not (target.startswith("#") or target.lower().startswith("data:")):
                return (f"refers to {target[:80]!r}, outside the file; it is never fetched: embed it "
                        "(a data: URI) or copy it into the SVG")
        elif _external_url(value):
            return f"refers to {_external_url(value)!r} in {attribute!r}, outside the file; it is never fetched"
    return None


def _external_url(text: str) -> str | None:
    """The first url(...) in `text` that is not a reference inside the file (`url(#id)`) or `data:`."""
    for match in _URL.finditer(text):
        target = match.group(1)
        if not (target.startswith("#") or target.lower().startswith("data:")):
            return target or "url()"
    return None


def drawing(root: Any, name: str, where: Location) -> Any:
    """svglib's ReportLab `Drawing` of a checked SVG tree (vector paths)."""
    import io

    from svglib.svglib import SvgRenderer

    try:  # a stream, not a path: svglib then never resolves a reference against the file system
        made = SvgRenderer(io.BytesIO(b"")).render(root)
    except Exception as exc:  # svglib meets odd but well-formed SVG with any kind of error
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise DataError(f"SVG {name!r} cannot be drawn ({reason}); simplify it or export it again", where) from None
    if not (made.width > 0 and made.height > 0):
        raise DataError(f"SVG {name!r} has no size; give its <svg> a width and height or a viewBox", where)
    return made
