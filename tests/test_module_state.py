"""No module-wide mutable state in the package: every cache or registry lives in a value that is passed along
(a build session, a read gate, a registry), so two sessions, two tests or a forked worker never see each
other's leftovers.

Read from the source (AST), so a new module is covered without being listed. What counts as state:
- a `global` statement anywhere;
- a module-level container (dict, list, set, bytearray, deque, defaultdict, Counter, OrderedDict) that a
  function of the module changes (item assignment or deletion, augmented assignment, a mutating method).
Module-level tables that nothing changes stay allowed (they are constants, if not typed as such), and so do
`functools` caches of pure functions (their results depend on their arguments alone).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "generator"
CONTAINER_CALLS = {"dict", "list", "set", "bytearray", "deque", "defaultdict", "Counter", "OrderedDict"}
MUTATORS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault", "add",
            "discard", "appendleft", "extendleft", "sort", "reverse", "__setitem__", "__delitem__"}


def _mutable_value(node: ast.expr | None) -> bool:
    if isinstance(node, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(node, ast.Call):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in CONTAINER_CALLS
    return False


def _module_containers(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and _mutable_value(node.value):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and _mutable_value(node.value):
            names.add(node.target.id)
    return names


def _changed_names(function: ast.AST) -> set[str]:
    """Names a function body changes in place: `NAME[k] = ...`, `del NAME[k]`, `NAME += ...`, `NAME.pop(...)`."""
    changed = set()
    for node in ast.walk(function):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            base = target.value if isinstance(target, ast.Subscript) else target if isinstance(node, ast.AugAssign) \
                else None
            if isinstance(base, ast.Name):
                changed.add(base.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS \
                and isinstance(node.func.value, ast.Name):
            changed.add(node.func.value.id)
    return changed


def _shadowed(function: ast.AST) -> set[str]:
    """Names a function binds itself (parameters, assignments): those are its own, not the module's."""
    own = set()
    if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        args = function.args
        own.update(a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs])
        own.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            own.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.AnnAssign, ast.For, ast.comprehension)) and isinstance(node.target, ast.Name):
            own.add(node.target.id)
    return own


def module_state(source: str) -> list[str]:
    """What in `source` is module-wide mutable state, one line each (empty when none)."""
    tree = ast.parse(source)
    found = [f"line {node.lineno}: global {', '.join(node.names)}" for node in ast.walk(tree)
             if isinstance(node, ast.Global)]
    containers = _module_containers(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for name in sorted((_changed_names(node) & containers) - _shadowed(node)):
                found.append(f"line {node.lineno}: {getattr(node, 'name', 'lambda')} changes the module's {name}")
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.slow
@pytest.mark.parametrize("path", MODULES, ids=[p.relative_to(PACKAGE).as_posix() for p in MODULES])
def test_no_module_wide_mutable_state(path: Path) -> None:
    assert module_state(path.read_text(encoding="utf-8")) == []


def test_the_check_sees_state() -> None:
    """The detector itself: each kind of module state is caught, a constant table and a local are not."""
    source = """
BUILT = {}
TABLE = {"a": 1}
COUNT = 0
def build(key):
    BUILT[key] = 1
def count():
    global COUNT
    COUNT += 1
def read():
    return TABLE["a"]
def local():
    BUILT = {}
    BUILT["x"] = 1
"""
    assert module_state(source) == ["line 8: global COUNT", "line 5: build changes the module's BUILT"]
