"""The on-disk cache of compiled template code: a hit renders exactly as a fresh compile, keeps every
sandbox limit, and anything that could change the code (source, filters, settings) misses."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest

from generator.render.base.sandbox import LimitedEnvironment, TemplateLimit
from generator.render.base.template_cache import CodeCache
from generator.user_cache import user_folder

SOURCE = "{% for n in names %}{{ n|upper }}{{ ',' if not loop.last }}{% endfor %} {{ 6 * 7 }}"


def environment(folder: Path, **options: object) -> LimitedEnvironment:
    return LimitedEnvironment(code_cache=CodeCache(folder), undefined=jinja2.StrictUndefined, **options)


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.code"))


def no_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the template was compiled again instead of read from the cache")

    monkeypatch.setattr(jinja2.Environment, "_generate", refuse)


def test_a_second_process_reads_the_code_instead_of_compiling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = environment(tmp_path).from_string(SOURCE).render(names=["anne", "mary"])
    assert first == "ANNE,MARY 42"
    assert len(entries(tmp_path)) == 1
    no_compiler(monkeypatch)
    assert environment(tmp_path).from_string(SOURCE).render(names=["anne", "mary"]) == first


def test_cached_code_keeps_the_sandbox_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runaway = "{% for a in range(5000) %}{% for b in range(5000) %}x{% endfor %}{% endfor %}"
    with pytest.raises(TemplateLimit):
        environment(tmp_path).from_string(runaway).render()
    no_compiler(monkeypatch)
    with pytest.raises(TemplateLimit):  # the loop counting is part of the stored code
        environment(tmp_path).from_string(runaway).render()


def test_an_edited_template_misses(tmp_path: Path) -> None:
    environment(tmp_path).from_string(SOURCE).render(names=[])
    edited = environment(tmp_path).from_string(SOURCE.replace("upper", "lower")).render(names=["ANNE"])
    assert edited == "anne 42"
    assert len(entries(tmp_path)) == 2


def test_a_different_filter_or_setting_misses(tmp_path: Path) -> None:
    custom = environment(tmp_path)
    custom.filters["upper"] = lambda value: f"<{value}>"  # folded into constants at compile time
    assert custom.from_string("{{ 'x'|upper }}").render() == "<x>"
    assert environment(tmp_path).from_string("{{ 'x'|upper }}").render() == "X"
    trimmed = environment(tmp_path, trim_blocks=True)
    assert trimmed.from_string("{% if true %}\nA{% endif %}").render() == "A"
    assert environment(tmp_path).from_string("{% if true %}\nA{% endif %}").render() == "\nA"


def test_a_damaged_entry_is_compiled_again(tmp_path: Path) -> None:
    environment(tmp_path).from_string(SOURCE).render(names=[])
    [entry] = entries(tmp_path)
    entry.write_bytes(entry.read_bytes()[:40] + b"\x00garbage")
    assert environment(tmp_path).from_string(SOURCE).render(names=["x"]) == "X 42"
    entry.write_bytes(b"not ours at all")
    assert environment(tmp_path).from_string(SOURCE).render(names=["y"]) == "Y 42"


def test_syntax_errors_still_point_at_the_line_and_are_not_stored(tmp_path: Path) -> None:
    for _ in range(2):
        with pytest.raises(jinja2.TemplateSyntaxError) as error:
            environment(tmp_path).from_string("ok\n{% if %}")
        assert error.value.lineno == 2
    assert entries(tmp_path) == []


@pytest.mark.skipif(os.name != "posix", reason="folder permissions are POSIX")
def test_a_folder_others_may_write_to_is_not_used(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    assert CodeCache(shared).folder is None
    assert environment(shared).from_string(SOURCE).render(names=["z"]) == "Z 42"
    assert entries(shared) == []
    fresh = tmp_path / "made"
    assert CodeCache(fresh).folder == fresh
    assert fresh.stat().st_mode & 0o777 == 0o700


def test_where_the_cache_lives(tmp_path: Path) -> None:
    assert user_folder({"PIRATE_PRESS_CACHE_DIR": "off"}) is None
    assert user_folder({"PIRATE_PRESS_CACHE_DIR": str(tmp_path)}) == tmp_path
    assert user_folder({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "pirate-press" / "templates"
    assert CodeCache(None).folder is None


def test_an_expression_is_read_from_the_cache_as_a_template_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expression = "card.rank * 2 if card.suit == 'skull' else missing"
    plain = LimitedEnvironment(undefined=jinja2.StrictUndefined).compile_expression(expression, undefined_to_none=False)
    first = environment(tmp_path).compile_expression(expression, undefined_to_none=False)
    assert first(card={"rank": 4, "suit": "skull"}) == plain(card={"rank": 4, "suit": "skull"}) == 8
    for warm in (False, True):  # compiled, then (the compiler refused) read from the cache
        if warm:
            no_compiler(monkeypatch)
        again = environment(tmp_path).compile_expression(expression, undefined_to_none=False)
        assert again(card={"rank": 5, "suit": "skull"}) == 10
        missing = again(card={"rank": 5, "suit": "coin"})  # undefined_to_none=False: the Undefined itself
        assert isinstance(missing, jinja2.StrictUndefined)
        assert environment(tmp_path).compile_expression("nothing")(other=1) is None  # undefined_to_none's default
        with pytest.raises(TemplateLimit):  # the sandbox's counted operators are in the stored code
            environment(tmp_path).compile_expression("'x' * 10 ** 9")()
    assert isinstance(plain(card={"rank": 5, "suit": "coin"}), jinja2.StrictUndefined)
    assert len(entries(tmp_path)) == 3


def test_a_bad_expression_is_refused_as_jinja_refuses_it_and_not_stored(tmp_path: Path) -> None:
    for source in ("a +", "a b"):
        with pytest.raises(jinja2.TemplateSyntaxError) as cached:
            environment(tmp_path).compile_expression(source)
        with pytest.raises(jinja2.TemplateSyntaxError) as plain:
            LimitedEnvironment().compile_expression(source)
        assert cached.value.message == plain.value.message
    assert entries(tmp_path) == []


def test_plain_values_are_kept_made_again_when_damaged_and_keyed_by_fingerprint(tmp_path: Path) -> None:
    made: list[str] = []

    def make() -> tuple[tuple[str, str], ...]:
        made.append("x")
        return (("card", "rank"),)

    def valid(value: object) -> bool:
        return isinstance(value, tuple)

    cache = CodeCache(tmp_path)
    assert cache.plain(("refs", "a"), b"one", make, valid) == (("card", "rank"),)
    assert CodeCache(tmp_path).plain(("refs", "a"), b"one", make, valid) == (("card", "rank"),)
    assert len(made) == 1  # the second process read it
    CodeCache(tmp_path).plain(("refs", "a"), b"two", make, valid)  # other code that made it: a miss
    assert len(made) == 2
    for entry in tmp_path.glob("*.plain"):
        entry.write_bytes(entry.read_bytes()[:-3])  # damaged: made again, not trusted
    assert CodeCache(tmp_path).plain(("refs", "a"), b"one", make, valid) == (("card", "rank"),)
    assert len(made) == 3
    assert CodeCache(tmp_path).plain(("refs", "a"), b"one", make, lambda value: False) == (("card", "rank"),)
    assert len(made) == 4  # an entry of the wrong shape is made again
    assert CodeCache(None).plain(("refs", "b"), b"one", make, valid) == (("card", "rank"),)
