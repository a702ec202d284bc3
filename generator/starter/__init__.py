"""`pnp init` and `pnp new`: a designer's own project, and games in it, so nobody works in a clone of Pirate Press.

The starter files are package data beside this module: `project/` (what `pnp init` writes, the shipped
icon set `templates/icons/*.svg` among them: a project owns its icons, as it owns its layouts), `game/`
plus `game-yaml/` or `game-csv/` (what `pnp new` writes: game.yaml, one component with a few cards,
its layouts, a rulebook with its contents table). In their paths and texts `__GAME__` stands for the
new game's id, `__TITLE__` (game.yaml's title, written as a quoted YAML string) for its title and
`__PROJECT__` for the project folder's name. The result builds and validates as it is.

`pnp new GAME --from OTHER` copies a game of the project, or one of the shipped games when Pirate
Press runs from its repository, under the new id: its data, layouts, rulebook, sheets and art (with
the art's licence file), with the game's id, every layout reference (`front:`, `back:`, `extends:`)
and every layout's `path:` into its art folder (`art/<game>/...`) renamed in the YAML, found by
parsing it (comments and formatting stay as they were).

Nothing is half-made: every path is checked before the first file is written, each file is written
atomically, and a failure part-way removes what this run made.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from generator.errors import DataError, Location, UsageError
from generator.project import GAME_IDS, Project, write_atomic

if TYPE_CHECKING:
    from yaml import Node, ScalarNode

STARTER = Path(__file__).resolve().parent
GAME, TITLE, PROJECT = "__GAME__", "__TITLE__", "__PROJECT__"
GAME_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")  # a folder name and the first part of layout names
MAX_ID = 40
PROJECT_FOLDERS = ("data", "templates/layouts", "templates/rulebooks", "templates/sheets", "fonts", "art")
RENAMED_KEYS = ("front", "back", "extends")  # YAML keys whose values name layouts as "<game>/<layout>"
RENAMES = {"gitignore": ".gitignore"}  # starter files stored under another name (setuptools skips dotfiles)


@dataclass(frozen=True)
class Made:
    """What a run wrote: the files (relative to `root`), for the command to list."""

    root: Path
    files: tuple[str, ...]


def init_project(folder: Path) -> Made:
    """A new project in `folder` (made if missing; it must be empty): data/, templates/, fonts/, art/,
    a README and a .gitignore, the rulebooks' shared last page (how to print) and the icon set."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file; pnp init makes a project in a new or empty folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise UsageError(f"{folder} is not empty; pnp init makes a project in a new or empty folder "
                         "(to add a game to a project, run pnp new GAME in it)")
    files = {relative: data.replace(PROJECT.encode(), folder.resolve().name.encode())
             for relative, data in _starter_files("project")}
    return _write(folder, files, PROJECT_FOLDERS)


def new_game(project: Project, game_id: str, title: str | None = None, csv: bool = False) -> Made:
    """The starter game under `game_id`: game.yaml, a component of cards (in YAML, or in a CSV file),
    its front and back layouts, and a rulebook with its contents table."""
    _refuse_taken(project, _checked_id(game_id))
    quoted = json.dumps(_checked_title(title) if title is not None else titled(game_id), ensure_ascii=False)
    files = {}
    for part in ("game", "game-csv" if csv else "game-yaml"):
        for relative, data in _starter_files(part):
            text = data.decode("utf-8").replace(TITLE, quoted).replace(GAME, game_id)
            files[relative.replace(GAME, game_id)] = text.encode("utf-8")
    return _write(project.root, files, ())


def copy_game(project: Project, game_id: str, source: str, title: str | None = None) -> Made:
    """Game `source` (of the project, or shipped) copied as `game_id`, its id and layout names renamed."""
    _refuse_taken(project, _checked_id(game_id))
    origin = _source_root(project, source)
    files = {}
    for relative, path in _game_files(origin, source):
        data = path.read_bytes()
        if relative.endswith(".yaml") and relative.startswith(("data/", "templates/layouts/")):
            where = _display(origin, path)
            text = renamed(data.decode("utf-8"), source, game_id, where, title=title)
            data = text.encode("utf-8")
        files[_retarget(relative, source, game_id)] = data
    return _write(project.root, files, ())


def titled(game_id: str) -> str:
    """A title from an id: 'my-game' -> 'My Game'."""
    return " ".join(word.capitalize() for word in game_id.split("-"))


def shipped_root() -> Path | None:
    """The Pirate Press repository this package runs from, when it does (an editable install or a
    checkout): where the four shipped games' data and templates are. None for an installed wheel."""
    root = STARTER.parents[1]
    return root if all((root / "data" / game_id / "game.yaml").is_file() for game_id in GAME_IDS) else None


def renamed(text: str, source: str, target: str, where: str, title: str | None = None) -> str:
    """YAML `text` with the game id `source` renamed `target`: the value of `game: id:`, the game part
    of every layout name under front:, back: and extends:, and the game's art folder in every `path:`
    that starts `art/<source>/`. With `title`, game: title: too. The values
    are found by parsing, and only their own characters change."""
    import yaml

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        raise DataError(f"not valid YAML ({getattr(exc, 'problem', None) or exc}); fix it before copying the game",
                        Location(where, line)) from None
    edits: set[tuple[int, int, str]] = set()
    for path, node in _scalars(root, ()):
        value = node.value
        raw = text[node.start_mark.index:node.end_mark.index]
        if path[-1:] and path[-1] in RENAMED_KEYS and value.startswith(source + "/"):
            edits.add((node.start_mark.index, node.end_mark.index, raw.replace(source + "/", target + "/", 1)))
        elif path[-1:] == ("path",) and value.startswith(f"art/{source}/"):  # a layout's art, copied along
            edits.add((node.start_mark.index, node.end_mark.index,
                       raw.replace(f"art/{source}/", f"art/{target}/", 1)))
        elif path == ("game", "id") and value == source:
            edits.add((node.start_mark.index, node.end_mark.index, raw.replace(source, target, 1)))
        elif path == ("game", "title") and title is not None:
            edits.add((node.start_mark.index, node.end_mark.index, json.dumps(_checked_title(title), ensure_ascii=False)))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _scalars(node: Node | None, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], ScalarNode]]:
    """Every scalar node of a composed YAML tree with the mapping keys that lead to it (a list's
    entries mark their list's key: `front:` inside an entry of `components:` has the path ('components[]', 'front'))."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else ""
            yield from _scalars(value, (*path, name))
    elif isinstance(node, yaml.SequenceNode):
        for value in node.value:
            yield from _scalars(value, path if not path else (*path[:-1], path[-1] + "[]"))
    elif isinstance(node, yaml.ScalarNode):
        yield path, node


def _checked_id(game_id: str) -> str:
    if len(game_id) > MAX_ID or not GAME_ID.match(game_id):
        raise UsageError(f"game id {game_id!r} must be lower-case letters and digits in words joined by '-', "
                         f"starting with a letter, at most {MAX_ID} characters (like 'treasure-hunt')")
    return game_id


def _checked_title(title: str) -> str:
    if not title.strip() or any(ord(c) < 32 for c in title) or len(title) > 120:
        raise UsageError(f"--title {title!r} must be one line of at most 120 characters")
    return title.strip()


def _targets(game_id: str) -> tuple[str, ...]:
    return (f"data/{game_id}", f"templates/layouts/{game_id}", f"templates/rulebooks/{game_id}.md.j2",
            f"templates/sheets/{game_id}", f"templates/art/{game_id}")


def _refuse_taken(project: Project, game_id: str) -> None:
    if not (project.data_dir.is_dir() or project.templates_dir.is_dir()):
        raise UsageError(f"{project.root} is not a Pirate Press project (no data/ or templates/ folder): make one "
                         "with 'pnp init DIR', or give its folder with --root")
    for relative in _targets(game_id):
        if os.path.lexists(project.root / relative):
            raise UsageError(f"{relative} already exists: game {game_id!r} is taken; choose another id or remove it")


def _source_root(project: Project, source: str) -> Path:
    """Where game `source` lives: the project first, then the shipped games."""
    if (project.data_dir / source / "game.yaml").is_file():
        return project.root
    shipped = shipped_root()
    if shipped is not None and source in GAME_IDS:
        return shipped
    known = sorted(set(project.game_ids()) | (set(GAME_IDS) if shipped is not None else set()))
    more = "" if shipped is not None else " (the shipped games can be copied only where Pirate Press runs from its repository)"
    raise UsageError(f"--from {source!r}: no such game (games: {', '.join(known) or 'none'}){more}")


def _game_files(root: Path, game_id: str) -> Iterator[tuple[str, Path]]:
    """(path relative to `root`, file) for each file of a game: data, layouts, rulebook, sheets, art."""
    for folder in (f"data/{game_id}", f"templates/layouts/{game_id}", f"templates/sheets/{game_id}",
                   f"templates/art/{game_id}"):
        yield from _files_under(root, root / folder)
    rulebook = root / "templates" / "rulebooks" / f"{game_id}.md.j2"
    if rulebook.is_file():
        yield f"templates/rulebooks/{game_id}.md.j2", rulebook


def _files_under(root: Path, folder: Path) -> Iterator[tuple[str, Path]]:
    if not folder.is_dir():
        return
    for current, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith((".", "__pycache__")))
        for name in sorted(names):
            path = Path(current) / name
            if name.startswith("."):
                continue
            if path.is_symlink() or not path.is_file():
                raise UsageError(f"{_display(root, path)} is not a plain file (a link or a device); "
                                 "pnp new --from copies plain files only: replace it with a copy")
            yield path.relative_to(root).as_posix(), path


def _retarget(relative: str, source: str, target: str) -> str:
    parts = list(PurePosixPath(relative).parts)
    if parts[:2] == ["templates", "rulebooks"]:
        parts[2] = f"{target}.md.j2"
    else:
        index = 1 if parts[0] == "data" else 2  # data/<game>/..., templates/<kind>/<game>/...
        parts[index] = target
    return "/".join(parts)


def _display(root: Path, path: Path) -> str:
    return Project.at(root).display(path)


def _starter_files(part: str) -> Iterator[tuple[str, bytes]]:
    """(relative path, bytes) of every starter file of `part`, in a fixed order."""
    base = STARTER / part
    for current, folders, names in os.walk(base):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(names):
            path = Path(current) / name
            relative = path.relative_to(base).as_posix()
            yield RENAMES.get(relative, relative), path.read_bytes()


def _write(root: Path, files: Mapping[str, bytes], folders: tuple[str, ...]) -> Made:
    """Write every file under `root` (none may exist yet) and make `folders`; undo all on failure."""
    for relative in files:
        if os.path.lexists(root / relative):
            raise UsageError(f"{root / relative} already exists; pnp writes new files only here")
    made: list[Path] = []  # files and folders this run created, to remove should a later one fail
    try:
        for relative in [*folders, *(str(PurePosixPath(f).parent) for f in files)]:
            _make_folder(root / relative, made)
        for relative, data in sorted(files.items()):
            write_atomic(root / relative, data)
            made.append(root / relative)
    except BaseException:
        for path in reversed(made):
            with suppress(OSError):
                path.rmdir() if path.is_dir() else path.unlink()
        raise
    return Made(root, tuple(sorted(files)))


def _make_folder(folder: Path, made: list[Path]) -> None:
    missing = [p for p in [folder, *folder.parents] if not p.exists()]
    for path in reversed(missing):
        try:
            path.mkdir()
        except OSError as exc:
            from generator.project import write_error

            raise write_error(exc, path) from None
        made.append(path)
