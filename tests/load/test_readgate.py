"""The read gate's freshness answers: an edit is seen however its times look, and a link leading out of the
project is refused at every check, not only at the first read."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.readgate import ABSENT, CHANGED_WHILE_READ, OUTSIDE, ReadGate, ReadSet

OLD = 1_600_000_000_000_000_000  # 2020: long settled


def project_with_a_card(tmp_path: Path) -> tuple[ReadGate, Path]:
    (tmp_path / "data" / "game").mkdir(parents=True)
    card = tmp_path / "data" / "game" / "cards.yaml"
    card.write_text("name: Nassau\n")
    os.utime(card, ns=(OLD, OLD))
    return ReadGate(tmp_path), card


def read(gate: ReadGate, path: Path) -> dict[str, str]:
    with gate.recording() as reads:
        gate.read_bytes(path)
    return reads.as_dict()


def test_an_edit_of_the_same_size_with_its_old_time_put_back_is_seen(tmp_path: Path) -> None:
    gate, card = project_with_a_card(tmp_path)
    reads = read(gate, card)
    assert gate.changed(reads) == []
    card.write_text("name: Nassoo\n")  # same size
    os.utime(card, ns=(OLD, OLD))  # and the same modification time as when it was read
    assert gate.changed(reads) == ["data/game/cards.yaml"]  # this process's memo: the change time moved
    assert ReadGate(tmp_path).changed(reads) == ["data/game/cards.yaml"]  # a new process hashes


def test_a_file_hashed_while_its_time_was_recent_is_hashed_again(tmp_path: Path) -> None:
    gate, card = project_with_a_card(tmp_path)
    card.write_text("name: Nassau\n")  # written just now: its times cannot vouch for it yet
    reads = read(gate, card)
    assert gate._hashes == {}
    assert gate.changed(reads) == []


def test_a_folder_swapped_for_a_link_out_of_the_project_is_refused_at_the_next_check(tmp_path: Path) -> None:
    gate, card = project_with_a_card(tmp_path / "p")
    reads = read(gate, card)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "cards.yaml").write_text("name: Nassau\n")
    os.rename(tmp_path / "p" / "data" / "game", tmp_path / "p" / "data" / "old")
    os.symlink(outside, tmp_path / "p" / "data" / "game")
    assert gate.current("data/game/cards.yaml") == OUTSIDE
    assert gate.changed(reads) == ["data/game/cards.yaml"]


def test_a_file_swapped_for_a_link_is_followed_inside_and_refused_outside(tmp_path: Path) -> None:
    gate, card = project_with_a_card(tmp_path / "p")
    reads = read(gate, card)
    twin = tmp_path / "p" / "data" / "twin.yaml"
    twin.write_bytes(card.read_bytes())
    card.unlink()
    card.symlink_to(twin)
    assert gate.changed(reads) == []  # the same bytes, still inside the project
    card.unlink()
    card.symlink_to(tmp_path / "outside.yaml")
    assert gate.changed({**reads, "?data/game/cards.yaml": "file"}) == ["data/game/cards.yaml",
                                                                       "?data/game/cards.yaml"]


def test_a_missing_file_and_a_missing_folder_read_as_absent(tmp_path: Path) -> None:
    gate, _card = project_with_a_card(tmp_path)
    assert gate.changed({"?data/game/tiles.yaml": ABSENT, "?data/other/cards.yaml": ABSENT}) == []
    assert gate.changed({"data/game/tiles.yaml": ABSENT}) == []
    assert gate.changed({"data/game/tiles.yaml": "0" * 64}) == ["data/game/tiles.yaml"]


def test_the_plain_name_shortcut_answers_as_the_general_way_after_any_change(tmp_path: Path) -> None:
    """`changed` takes a shortcut for plain names whose files still have the stamp they were hashed with;
    after edits, removals, links swapped in (inside and out of the project) and odd names, it answers
    exactly as the general way."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.yaml").write_text("outside\n")
    root = tmp_path / "project"
    files = {name: root / name for name in ("a.yaml", "data/b.yaml", "data/game/c.yaml", "data/game/d.yaml",
                                            "data/game/e.yaml", "data/linked/f.yaml")}
    for path in files.values():
        if "linked" not in path.parts:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{path.name}\n")
            os.utime(path, ns=(OLD, OLD))
    (root / "data" / "linked").symlink_to(root / "data" / "game")
    (root / "data" / "game" / "f.yaml").write_text("f\n")
    os.utime(root / "data" / "game" / "f.yaml", ns=(OLD, OLD))
    gate = ReadGate(root)
    reads = {}
    for path in files.values():
        reads.update(read(gate, path))
    for path in ("data/game/c.yaml", "data/game/none.yaml", "data/linked/f.yaml", "data", "data/./b.yaml"):
        reads["?" + path] = gate.current("?" + path)  # what a folder listing or an existence check recorded
    reads["data/./game/c.yaml"] = reads["data/game/c.yaml"]  # odd names, as a hand-edited manifest may hold
    reads["data//b.yaml"] = reads["data/b.yaml"]
    reads["data/game/../b.yaml"] = reads["data/b.yaml"]

    def both() -> tuple[list[str], list[str]]:
        general = ReadGate(root)
        general._hashes = dict(gate._hashes)
        general._unchanged_digest = lambda name, folders: None  # type: ignore[method-assign]
        general._plain_state = lambda name, folders: None  # type: ignore[method-assign]
        return gate.changed(reads), general.changed(reads)

    fast, slow = both()
    assert fast == slow == []
    files["data/game/c.yaml"].write_text("edited\n")
    files["data/game/d.yaml"].unlink()
    files["data/game/e.yaml"].unlink()
    files["data/game/e.yaml"].symlink_to(outside / "x.yaml")  # a link out of the project in its place
    (root / "data" / "game" / "f.yaml").unlink()
    (root / "data" / "game" / "f.yaml").symlink_to(root / "a.yaml")  # a link inside the project
    (root / "data" / "game" / "none.yaml").mkdir()  # a folder where nothing was
    fast, slow = both()
    assert fast == slow
    assert {"data/game/c.yaml", "data/game/d.yaml", "data/game/e.yaml", "data/./game/c.yaml",
            "?data/game/none.yaml"} <= set(fast)
    assert gate.current("data/game/e.yaml", {}) == OUTSIDE and gate.current("data/game/d.yaml", {}) == ABSENT


names = st.sampled_from(["data/a.yaml", "data/b.yaml", "templates/c.j2", "?data/d.yaml"])
digests = st.sampled_from(["d1", "d2", CHANGED_WHILE_READ])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(names, digests, max_size=4), max_size=5))
def test_merging_a_read_set_is_adding_each_of_its_reads(merges: list[dict[str, str]]) -> None:
    """A name read with two different digests never matches again (CHANGED_WHILE_READ), whether its reads
    came one by one or merged from a cached object's reads."""
    merged, added = ReadSet(), ReadSet()
    for reads in merges:
        merged.merge(reads)
        for name, digest in reads.items():
            added.add(name, digest)
        assert merged.entries == added.entries
