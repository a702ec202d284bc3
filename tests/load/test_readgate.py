"""The read gate's freshness answers: an edit is seen however its times look, and a link leading out of the
project is refused at every check, not only at the first read."""

from __future__ import annotations

import os
from pathlib import Path

from generator.readgate import ABSENT, OUTSIDE, ReadGate

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
