"""Hostile values in YAML and on the command line end in one line, never a hang, a traceback or gigabytes.

`--set` values are read by the data files' own reader (`load/yamlsrc.py`): the same caps on nesting,
number length and the nodes aliases expand to (issue 30).
"""

from __future__ import annotations

import pytest

from generator.errors import DataError
from generator.load.yamlsrc import MAX_DEPTH, MAX_NODES, MAX_NUMBER_CHARS, parse_yaml
from generator.project import Project
from tests.helpers import edit, run_pnp

# 9 ** 7 (4.8 million) leaves from 54 aliases: under the alias cap, far over the node cap once expanded
LAUGHS = "{" + ", ".join(
    [f"l0: &l0 [{', '.join(['x'] * 9)}]"]
    + [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]" for n in range(1, 7)]) + "}"


def test_nesting_numbers_and_expanded_aliases_are_capped_in_files() -> None:
    with pytest.raises(DataError) as info:
        parse_yaml("a:\n  b: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n", "deep.yaml")
    assert str(info.value).startswith("deep.yaml:2: nested too deeply")
    with pytest.raises(DataError) as info:
        parse_yaml("ok: 1\nbig: " + "9" * 5000 + "\n", "big.yaml")
    assert str(info.value) == (f"big.yaml:2: a number of 5000 characters (at most {MAX_NUMBER_CHARS}); "
                               "write a smaller number, or quote it to make it text")
    assert parse_yaml("id: '" + "9" * 5000 + "'\n", "text.yaml") == {"id": "9" * 5000}  # quoted: text
    with pytest.raises(DataError) as info:
        parse_yaml("top:\n  " + LAUGHS.replace(", l6", ",\n   l6") + "\n", "laughs.yaml")
    assert str(info.value).startswith(f"laughs.yaml:3: the aliases ('*' references) expand to more than {MAX_NODES}")
    assert parse_yaml("a: &a [1, 2]\nb: *a\n", "fine.yaml") == {"a": [1, 2], "b": [1, 2]}


@pytest.mark.parametrize(("value", "wanted"), [
    ("9" * 5000, "not a readable value: a number of 5000 characters"),
    ("[" * 3000 + "]" * 3000, "not a readable value: "),
    (LAUGHS, "not a readable value: the aliases ('*' references) expand to more than"),
])
def test_set_values_pass_the_same_guards(project: Project, capsys: pytest.CaptureFixture[str], value: str,
                                         wanted: str) -> None:
    path = "theme.colours" if value.startswith("{") else "hand_size"
    code, out, err = run_pnp(capsys, "--root", str(project.root), "simulate", "counterattack", "-n", "1",
                             "--set", f"{path}={value}")
    assert code == 2 and not out and "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert line.startswith(f"pnp: --set {path}=") and wanted in line
    assert len(line) < 400  # the value is clipped, not echoed whole


def test_a_nul_byte_is_reported_at_its_own_line() -> None:
    with pytest.raises(DataError) as info:
        parse_yaml("a: 1\nb: 2\nc: x\x00y\n", "nul.yaml")
    assert str(info.value) == "nul.yaml:3: not valid YAML: the character U+0000 is not allowed in YAML text; delete it"


def test_a_300_character_item_id_is_refused_at_load(project_copy: Project, capsys: pytest.CaptureFixture[str]) -> None:
    cards = project_copy.data_dir / "counterattack" / "cards.yaml"
    edit(cards, "{id: tortuga, ", "{id: " + "a" * 300 + ", ")
    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "build", "counterattack", "--only", "port")
    assert code == 2 and "Traceback" not in out + err
    (line,) = err.strip().splitlines()
    assert line.startswith("pnp: data/counterattack/cards.yaml:19: port card id 'aaaa")
    assert line.endswith("… (302 characters) is longer than 64 characters (it names files); shorten it")


@pytest.mark.slow
def test_a_100000_character_name_is_not_echoed_whole(project_copy: Project, capsys: pytest.CaptureFixture[str]) -> None:
    cards = project_copy.data_dir / "counterattack" / "cards.yaml"
    edit(cards, "name: Tortuga, ", "name: " + "N" * 100_000 + ", ")
    code, out, err = run_pnp(capsys, "--root", str(project_copy.root), "validate", "counterattack")
    assert code == 1 and "Traceback" not in out + err
    assert "data/counterattack/cards.yaml:19: layout counterattack/port (port front) element 'title' fits" in out
    assert "N" * 200 not in out + err and len(out + err) < 20_000  # it was 420 KB
