"""ReportLab's two costly import-time patterns are compiled on first use, and match as compiled ones do."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys

import pytest

from generator.render.deferred_patterns import DEFERRED, DeferredPattern

URI = DEFERRED["reportlab.platypus.paragraph"][0]
CJK = DEFERRED["reportlab.lib.textsplit"][0]

# What a fresh process that drew a rulebook finds: run in a new interpreter, where ReportLab is not imported yet.
FRESH = """
import inspect, json, re, sys
import generator.render.documents.rulebook, generator.render.documents.sheets
from generator.render.deferred_patterns import DeferredPattern, _Finder
import reportlab.platypus.paragraph as paragraph, reportlab.lib.textsplit as textsplit
deferred = {"uri": paragraph.uri_pat, "cjk": textsplit.rx}
before = {name: isinstance(p, DeferredPattern) and not p.compiled for name, p in deferred.items()}
split = paragraph._uri_split_pairs("https://example.com/rules/pirate-tricks/print.pdf")
print(json.dumps({
    "deferred_and_not_compiled": before,
    "compiled_after_use": paragraph.uri_pat.compiled,
    "split": split,
    "re_compile_restored": re.compile.__module__ == "re",
    "finder_gone": not any(isinstance(f, _Finder) for f in sys.meta_path),
    "source": inspect.getsource(paragraph._uri_split_pairs).startswith("def _uri_split_pairs"),
}))
"""


def test_a_fresh_process_defers_both_patterns_until_used_and_leaves_re_as_it_was() -> None:
    done = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    # fails when a ReportLab upgrade changes either pattern's text: update DEFERRED to the new text
    assert found["deferred_and_not_compiled"] == {"uri": True, "cjk": True}
    assert found["compiled_after_use"] is True
    assert [tuple(pair) for pair in found["split"]] == [
        ("https://example.com/rules/pirate-tricks/", "print.pdf"),
        ("https://example.com/rules/", "pirate-tricks/print.pdf"),
        ("https://example.com/", "rules/pirate-tricks/print.pdf"),
        ("https://", "example.com/rules/pirate-tricks/print.pdf"),
    ]
    assert found["re_compile_restored"] is True
    assert found["finder_gone"] is True
    assert found["source"] is True  # the module's loader still gives its source (tracebacks, inspect)


@pytest.mark.parametrize("text", [
    "https://example.com/a/b", "HTTP://Example.COM:8080/x?y=1#z", "ftp://user:pw@192.168.0.1/file",
    "http://[::1]/", "http://localhost/", "http://xn--bcher-kva.example/", "http://-bad-.example/",
    "not a uri", "", "https://ünïcödé.example/päth", "www.example.com/no-scheme",
])
def test_the_deferred_address_pattern_matches_as_the_compiled_one(text: str) -> None:
    compiled = re.compile(*URI)
    deferred = DeferredPattern(*URI)
    expected = compiled.match(text)
    got = deferred.match(text)
    assert (got is None) == (expected is None)
    if expected is not None and got is not None:
        assert got.groups() == expected.groups() and got.span() == expected.span()


def test_the_deferred_cjk_pattern_substitutes_as_the_compiled_one() -> None:
    text = "Pirate 海賊 Tricks トリック"
    assert DeferredPattern(*CJK).sub(r"\1\0 ", text) == re.compile(*CJK).sub(r"\1\0 ", text)


def test_a_deferred_pattern_compiles_once_on_first_use() -> None:
    pattern = DeferredPattern(r"\d+", 0)
    assert not pattern.compiled
    assert pattern.pattern == r"\d+" and pattern.flags == re.compile(r"\d+").flags
    assert pattern.compiled
    assert pattern.findall("3 ports, 10 tricks") == ["3", "10"]
    assert copy.copy(pattern).findall("7") == ["7"]  # dunders are not forwarded: copy makes a plain copy


def test_install_does_nothing_for_modules_already_imported() -> None:
    import reportlab.platypus.paragraph  # noqa: F401  (imported by now in any case)

    from generator.render.deferred_patterns import install

    assert install({"reportlab.platypus.paragraph": (URI,)}) is None
