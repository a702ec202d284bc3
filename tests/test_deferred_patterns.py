"""PyYAML's and ReportLab's costly import-time patterns are compiled on first use, and match as compiled ones do."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys

import pytest

from generator.deferred_patterns import DEFERRED, DeferredPattern
from generator.project import Project

URI = DEFERRED["reportlab.platypus.paragraph"][0]
CJK = DEFERRED["reportlab.lib.textsplit"][0]
NON_PRINTABLE = DEFERRED["yaml.reader"][0]

# What a fresh process that drew a rulebook finds: run in a new interpreter, where ReportLab is not imported yet.
FRESH = """
import inspect, json, re, sys
from pathlib import Path
import generator.render.documents.rulebook, generator.render.documents.sheets
from generator.deferred_patterns import DeferredPattern, _Finder
from generator.load import load_games
from generator.project import Project
import reportlab.platypus.paragraph as paragraph, reportlab.lib.textsplit as textsplit, yaml.reader
load_games(Project.at(Path(sys.argv[1])))  # with libyaml's parser, PyYAML's own reader is never asked
deferred = {"uri": paragraph.uri_pat, "cjk": textsplit.rx, "yaml": yaml.reader.Reader.NON_PRINTABLE}
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


def test_a_fresh_process_defers_the_patterns_until_used_and_leaves_re_as_it_was(project: Project) -> None:
    pytest.importorskip("yaml._yaml", reason="without libyaml PyYAML's own reader parses, and compiles its pattern")
    done = subprocess.run([sys.executable, "-c", FRESH, str(project.root)], capture_output=True, text=True,
                          check=True)
    found = json.loads(done.stdout)
    # fails when a ReportLab or PyYAML upgrade changes a pattern's text: update DEFERRED to the new text
    assert found["deferred_and_not_compiled"] == {"uri": True, "cjk": True, "yaml": True}
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


@pytest.mark.parametrize("text", ["name: Nassau", "tab\there", "bell \x07", "nul \x00", "emoji 🏴\u200d☠️", "\ufffe"])
def test_the_deferred_yaml_pattern_finds_what_the_compiled_one_finds(text: str) -> None:
    expected, got = re.compile(*NON_PRINTABLE).search(text), DeferredPattern(*NON_PRINTABLE).search(text)
    assert (got and got.span()) == (expected and expected.span())


def test_pyyamls_own_reader_still_refuses_a_control_character() -> None:
    import yaml

    with pytest.raises(yaml.reader.ReaderError, match="special characters are not allowed"):
        yaml.load("name: bell \x07", Loader=yaml.SafeLoader)  # the pure-Python reader, not libyaml's


def test_a_deferred_pattern_compiles_once_on_first_use() -> None:
    pattern = DeferredPattern(r"\d+", 0)
    assert not pattern.compiled
    assert pattern.pattern == r"\d+" and pattern.flags == re.compile(r"\d+").flags
    assert pattern.compiled
    assert pattern.findall("3 ports, 10 tricks") == ["3", "10"]
    assert copy.copy(pattern).findall("7") == ["7"]  # dunders are not forwarded: copy makes a plain copy


def test_install_does_nothing_for_modules_already_imported() -> None:
    import reportlab.platypus.paragraph  # noqa: F401  (imported by now in any case)

    from generator.deferred_patterns import install

    assert install({"reportlab.platypus.paragraph": (URI,)}) is None
