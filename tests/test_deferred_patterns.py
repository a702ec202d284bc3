"""PyYAML's and ReportLab's costly import-time patterns are compiled on first use, and match as compiled ones do."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import threading

import pytest

from generator.deferred_patterns import DEFERRED, DeferredPattern, _Deferring
from generator.project import Project

URI = DEFERRED["reportlab.platypus.paragraph"][0]
CJK = DEFERRED["reportlab.lib.textsplit"][0]
NON_PRINTABLE = DEFERRED["yaml.reader"][0]

# What the `pnp` process finds once it loaded the games and drew a rulebook (run in a new interpreter, where
# neither ReportLab nor PyYAML is imported yet); then each library's own use of its pattern, on the deferred one.
FRESH = """
import inspect, json, re, sys
from pathlib import Path
import generator
from generator import deferred_patterns
from generator.deferred_patterns import DeferredPattern, _Finder
library_hooked = any(isinstance(f, _Finder) for f in sys.meta_path)  # importing generator alone
deferred_patterns.install()  # as cli.main does in the pnp process
import generator.render.documents.rulebook, generator.render.documents.sheets
from generator.load import load_games
from generator.project import Project
import reportlab.platypus.paragraph as paragraph, reportlab.lib.textsplit as textsplit, yaml, yaml.reader
load_games(Project.at(Path(sys.argv[1])))  # with libyaml's parser, PyYAML's own reader is never asked
deferred = {"uri": paragraph.uri_pat, "cjk": textsplit.rx, "yaml": yaml.reader.Reader.NON_PRINTABLE}
before = {name: isinstance(p, DeferredPattern) and not p.compiled for name, p in deferred.items()}
split = paragraph._uri_split_pairs("https://example.com/rules/pirate-tricks/print.pdf")  # uri_pat.match
wrapped = textsplit.rx.sub(r"\\1\\0 ", "海賊のトリック")  # cjkwrap's use (cjkwrap itself fails: no reduce)
try:
    yaml.load("name: bell \\x07", Loader=yaml.SafeLoader)  # NON_PRINTABLE.search, PyYAML's own reader
    refused = None
except yaml.reader.ReaderError as exc:
    refused = str(exc)
print(json.dumps({
    "library_hooked": library_hooked,
    "deferred_and_not_compiled": before,
    "compiled_after_use": {name: p.compiled for name, p in deferred.items()},
    "split": split, "wrapped": wrapped, "refused": refused,
    "re_compile_restored": re.compile is re.__dict__["compile"] and re.compile.__module__ == "re",
    "finder_gone": not any(isinstance(f, _Finder) for f in sys.meta_path),
    "source": inspect.getsource(paragraph._uri_split_pairs).startswith("def _uri_split_pairs"),
}))
"""


def test_the_pnp_process_defers_the_patterns_until_used_and_leaves_re_as_it_was(project: Project) -> None:
    pytest.importorskip("yaml._yaml", reason="without libyaml PyYAML's own reader parses, and compiles its pattern")
    done = subprocess.run([sys.executable, "-c", FRESH, str(project.root)], capture_output=True, text=True,
                          check=True)
    found = json.loads(done.stdout)
    assert found["library_hooked"] is False  # only the pnp process installs it
    # fails when a ReportLab or PyYAML upgrade changes a pattern's text: update DEFERRED to the new text
    assert found["deferred_and_not_compiled"] == {"uri": True, "cjk": True, "yaml": True}
    assert found["compiled_after_use"] == {"uri": True, "cjk": True, "yaml": True}
    assert [tuple(pair) for pair in found["split"]] == [
        ("https://example.com/rules/pirate-tricks/", "print.pdf"),
        ("https://example.com/rules/", "pirate-tricks/print.pdf"),
        ("https://example.com/", "rules/pirate-tricks/print.pdf"),
        ("https://", "example.com/rules/pirate-tricks/print.pdf"),
    ]
    assert found["wrapped"] == re.compile(*CJK).sub(r"\1\0 ", "海賊のトリック") == "海\0 賊\0 の\0 ト\0 リ\0 ッ\0 ク\0 "
    assert "special characters are not allowed" in found["refused"]
    assert found["re_compile_restored"] is True
    assert found["finder_gone"] is True
    assert found["source"] is True  # the module's loader still gives its source (tracebacks, inspect)


def test_re_compile_defers_only_in_the_thread_running_a_listed_module_and_is_restored_after() -> None:
    deferring = _Deferring()
    original = re.compile
    inside, release, seen = threading.Event(), threading.Event(), {}

    def module_a() -> None:  # runs while another thread compiles the same pattern
        seen["a"] = re.compile(*CJK)
        inside.set()
        release.wait(5)

    def other_thread() -> None:
        inside.wait(5)
        seen["other"] = re.compile(*CJK)  # not running a listed module: compiled as usual
        deferring.run(frozenset({URI}), lambda: seen.setdefault("b", re.compile(*URI)))  # a second module at once
        release.set()

    thread = threading.Thread(target=other_thread)
    thread.start()
    deferring.run(frozenset({CJK}), module_a)
    thread.join(5)
    assert isinstance(seen["a"], DeferredPattern) and isinstance(seen["b"], DeferredPattern)
    assert isinstance(seen["other"], re.Pattern)
    assert re.compile is original  # both done, in either order: the real one is back


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


def test_a_deferred_pattern_compiles_once_on_first_use() -> None:
    pattern = DeferredPattern(r"\d+", 0)
    assert not pattern.compiled
    assert pattern.pattern == r"\d+" and pattern.flags == re.compile(r"\d+").flags
    assert pattern.compiled
    assert pattern.findall("3 ports, 10 tricks") == ["3", "10"]
    assert copy.copy(pattern).findall("7") == ["7"] and isinstance(copy.deepcopy(pattern), re.Pattern)


def test_install_does_nothing_for_modules_already_imported() -> None:
    import reportlab.platypus.paragraph  # noqa: F401  (imported by now in any case)

    from generator.deferred_patterns import install

    assert install({"reportlab.platypus.paragraph": (URI,)}) is None
