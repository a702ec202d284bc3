"""Dataclass method code kept between `pnp` processes: classes behave the same, and a warm process compiles none."""

from __future__ import annotations

import dataclasses
import inspect
import json
import marshal
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator import dataclass_code
from generator.dataclass_code import HEADER, MethodCode, file_name, install


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[MethodCode]:
    folder = tmp_path / "cache"
    cache = install(folder)
    assert cache is not None
    try:
        yield cache
    finally:
        cache.uninstall()


def make_classes() -> tuple[type, type]:
    """A frozen class and a plain one with defaults and a factory: every method dataclasses writes."""

    @dataclasses.dataclass(frozen=True)
    class Port:
        name: str
        tricks: int = 3
        tags: tuple[str, ...] = ()

    @dataclasses.dataclass(order=True)
    class Tally:
        wins: int
        seen: list[int] = dataclasses.field(default_factory=list)

    return Port, Tally


def behaviour(port: type, tally: type) -> dict[str, object]:
    a, b = port("Nassau", 4), port("Nassau", 4)
    frozen = None
    try:
        a.name = "Tortuga"  # type: ignore[misc]
    except dataclasses.FrozenInstanceError as exc:
        frozen = type(exc).__name__
    t = tally(2)
    t.seen.append(1)
    return {
        "repr": (repr(a), repr(t)), "eq": a == b, "hash": hash(a) == hash(b), "frozen": frozen,
        "order": tally(1) < tally(2), "fresh default": tally(3).seen,
        # the generated __init__'s annotations are the fields' own: no __future__ flag of the caching module leaks in
        "annotations": (port.__init__.__annotations__, tally.__init__.__annotations__),
        "signature": (str(inspect.signature(port)), str(inspect.signature(tally))),
        "init args": port.__init__.__code__.co_varnames,
    }


def test_classes_made_from_kept_code_behave_as_classes_made_without(kept: MethodCode) -> None:
    kept.uninstall()
    plain = behaviour(*make_classes())
    dataclasses.exec = kept.exec  # type: ignore[attr-defined]
    compiled = behaviour(*make_classes())  # compiles and keeps
    reused = behaviour(*make_classes())  # runs the kept code
    assert compiled == plain and reused == plain
    assert kept.made and kept.used >= set(kept.made)


def test_save_writes_what_was_compiled_and_a_new_cache_reads_it(kept: MethodCode) -> None:
    make_classes()
    kept.save()
    assert kept.path is not None and kept.path.name == file_name()
    data = kept.path.read_bytes()
    assert data.startswith(HEADER) and len(marshal.loads(data[len(HEADER):])) >= 7
    kept.uninstall()
    again = install(kept.path.parent)
    assert again is not None
    try:
        make_classes()
        assert again.made == {} and again.used  # nothing compiled: every method came from the file
    finally:
        again.uninstall()


def test_a_damaged_file_is_ignored_and_written_anew(tmp_path: Path) -> None:
    path = tmp_path / file_name()
    for damage in (b"not ours", HEADER + b"\x00garbage", HEADER + marshal.dumps(["a", "list"])):
        path.write_bytes(damage)
        cache = MethodCode(path)
        cache.exec("def f():\n return 1\n", {}, namespace := {})
        assert namespace["f"]() == 1 and list(cache.made) == ["def f():\n return 1\n"]
        cache.save()
        assert MethodCode(path)._known().keys() == {"def f():\n return 1\n"}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is what build workers use; without it, none is forked")
def test_a_forked_worker_never_writes(tmp_path: Path) -> None:
    cache = MethodCode(tmp_path / file_name())
    child = os.fork()
    if child == 0:  # the worker: it compiled something, and even if its exit handlers ran, it writes nothing
        try:
            cache.exec("x = 1\n", {}, {})
            cache.save()
        finally:
            os._exit(0)
    os.waitpid(child, 0)
    assert not (tmp_path / file_name()).exists()
    cache.exec("y = 1\n", {}, {})  # the process that made the cache does write
    cache.save()
    assert set(MethodCode(tmp_path / file_name())._known()) == {"y = 1\n"}


def test_save_keeps_what_another_process_wrote_meanwhile(tmp_path: Path) -> None:
    first, second = MethodCode(tmp_path / file_name()), MethodCode(tmp_path / file_name())
    first.exec("a = 1\n", {}, {})
    second.exec("b = 1\n", {}, {})  # both started before either wrote
    first.save()
    second.save()
    assert set(MethodCode(tmp_path / file_name())._known()) == {"a = 1\n", "b = 1\n"}


def test_past_the_cap_only_what_this_process_used_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / file_name()
    path.write_bytes(HEADER + marshal.dumps({f"old{i} = 1\n": compile(f"old{i} = 1\n", "<string>", "exec")
                                               for i in range(5)}))
    monkeypatch.setattr(dataclass_code, "MAX_ENTRIES", 4)
    cache = MethodCode(path)
    cache.exec("old0 = 1\n", {}, {})  # used again
    cache.exec("new = 1\n", {}, {})  # compiled here
    cache.save()
    assert set(MethodCode(path)._known()) == {"old0 = 1\n", "new = 1\n"}


def test_no_cache_when_turned_off_homeless_or_the_folder_is_not_private(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIRATE_PRESS_CACHE_DIR", "off")
    assert install() is None
    monkeypatch.delenv("PIRATE_PRESS_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: (_ for _ in ()).throw(RuntimeError("no home"))))
    assert install() is None  # a command still runs, without the cache
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)  # anyone may write there: code read from it would not be this user's
    assert install(shared) is None
    assert "exec" not in vars(dataclasses)


PROCESS = """
import dataclasses, json, sys
import generator.model, generator.render.build
print(json.dumps({"hooked": "exec" in vars(dataclasses)}))
"""


def test_only_the_pnp_process_keeps_code_and_a_second_one_compiles_none(tmp_path: Path) -> None:
    env = {**os.environ, "PIRATE_PRESS_CACHE_DIR": str(tmp_path / "cache")}
    # importing generator as a library leaves dataclasses alone and writes nothing
    done = subprocess.run([sys.executable, "-c", PROCESS], env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {"hooked": False}
    assert not (tmp_path / "cache" / file_name()).exists()
    # the pnp process keeps what it compiled, at exit
    subprocess.run([sys.executable, "-m", "generator", "-q", "validate"], env=env, check=True, capture_output=True)
    kept = MethodCode(tmp_path / "cache" / file_name())._known()
    assert len(kept) > 100  # the classes of the model, the loader, validation and rendering
    stamp = (tmp_path / "cache" / file_name()).stat().st_mtime_ns
    subprocess.run([sys.executable, "-m", "generator", "-q", "validate"], env=env, check=True, capture_output=True)
    assert (tmp_path / "cache" / file_name()).stat().st_mtime_ns == stamp  # nothing new compiled: not written
