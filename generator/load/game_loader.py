"""Turn `data/<game>/*.yaml` into a checked, immutable `Game`.

Every file of a game folder may hold any of the top-level sections; each
section except `components` may appear once per game. `game.yaml` must exist
and hold the `game:` section.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from generator.errors import DataError, Location
from generator.load import schema
from generator.load.items import check_shared_sheets, parse_component
from generator.load.overrides import Override, apply_overrides, describe
from generator.load.reader import Section, list_entries
from generator.load.sheets import SheetReader, sheet_reader
from generator.load.yamlsrc import MAX_FILE_BYTES, YList, YMap, parse_yaml_bytes, read_yaml
from generator.model import (
    Component,
    ContentsEntry,
    Credit,
    DesignDecision,
    Filter,
    Game,
    PlayerCount,
)
from generator.model.game import Condition
from generator.project import Project

TOP_LEVEL = schema.FILE.names
MARK_CORNERS = ("top left", "top right", "bottom left", "bottom right")  # the corners layouts can put a mark in
MAX_FILES = 64
KEEP_PARSED = 64 * 1024  # a session keeps the parse of files up to this size (a big deck's would weigh on memory)


def load_game(project: Project, game_id: str, overrides: tuple[Override, ...] = ()) -> Game:
    """The game in data/<game_id>/; `overrides` (`--set PATH=VALUE`) change its raw YAML before it is checked."""
    folder = project.data_dir / game_id
    gate = project.gate  # every read is checked (inside the project, regular files) and recorded
    if not gate.exists(folder / "game.yaml", Location(f"data/{game_id}")):
        known = ", ".join(project.game_ids()) or "none"
        raise DataError(f"no game {game_id!r}: {project.display(folder)}/game.yaml not found (games: {known})")
    files = sorted(gate.listdir(folder, "*.yaml"), key=lambda p: (p.name != "game.yaml", p.name))
    if len(files) > MAX_FILES:
        raise DataError(f"too many YAML files in {project.display(folder)} (at most {MAX_FILES})")
    sections: dict[str, tuple[Any, Location]] = {}
    components_raw: list[tuple[Any, Location]] = []
    # Parsed files kept by the session (`pnp watch`: a one-card edit parses only the file it changed). Overrides
    # change the parsed YAML in place, so a load with them parses its own.
    docs: dict[str, tuple[bytes, Any]] | None = None if overrides else gate.derived(("parsed-yaml",), dict)
    for path in files:
        name = gate.name(path)
        doc = read_yaml(path, name, gate) if docs is None else _parsed(path, name, gate, docs)
        where = Location(name, 1)
        if doc is None:
            raise DataError("empty file: it holds no YAML (a mapping such as 'components:' is expected); "
                            "fill it in or delete it", where)
        top = Section(doc, f"{name}", where, schema.FILE)
        top.done(TOP_LEVEL)
        for key in list(top.data):
            value_where = top.where(key)
            if key == "components":
                components_raw.extend(list_entries(top.data[key], "components", value_where))
            elif key in sections:
                raise DataError(f"section '{key}' is given twice (also at {sections[key][1]})", value_where)
            else:
                sections[key] = (top.data[key], value_where)
    if "game" not in sections:
        raise DataError("game.yaml must have a 'game:' section", Location(project.display(folder / "game.yaml"), 1))
    sheets = sheet_reader(gate, folder)
    if not overrides:
        return _build_game(game_id, sections, components_raw, tuple(project.display(p) for p in files), sheets)
    apply_overrides(sections, components_raw, overrides)
    try:
        return _build_game(game_id, sections, components_raw, tuple(project.display(p) for p in files), sheets)
    except DataError as exc:
        raise DataError(exc.message + describe(overrides), exc.location) from None


def _parsed(path: Any, name: str, gate: Any, docs: dict[str, tuple[bytes, Any]]) -> Any:
    """`read_yaml`, the parse reused while the file's bytes are the ones it was made from (read and recorded
    each time; the parsed YAML is only read by the loader, never changed)."""
    data = gate.read_bytes(path, Location(name), limit=MAX_FILE_BYTES)
    known = docs.get(name)
    if known is not None and known[0] == data:
        return known[1]
    doc = parse_yaml_bytes(data, name)
    if len(data) <= KEEP_PARSED:
        docs[name] = (data, doc)
    return doc


def load_games(project: Project, game_ids: list[str] | tuple[str, ...] | None = None) -> list[Game]:
    ids = list(game_ids) if game_ids else project.game_ids()
    if not ids:
        raise DataError(f"no games found under {project.display(project.data_dir)}/ (is --root right?)")
    return [load_game(project, game_id) for game_id in ids]


def _build_game(
    game_id: str,
    sections: dict[str, tuple[Any, Location]],
    components_raw: list[tuple[Any, Location]],
    files: tuple[str, ...],
    read_sheet: SheetReader | None = None,
) -> Game:
    decisions: list[tuple[Location, str]] = []
    meta_raw, meta_where = sections["game"]
    meta = Section(meta_raw, "game", meta_where, schema.GAME)
    declared_id = meta.take("id", str)
    if declared_id != game_id:
        raise DataError(f"game id {declared_id!r} must match its folder name {game_id!r}", meta.where("id"))
    title = meta.take("title", str)
    players = Section(meta.take("players", dict), "game 'players'", meta.where("players"), schema.PLAYERS)
    players_min = players.take_int("min", lo=1, hi=12)
    players_max = players.take_int("max", lo=players_min, hi=12)
    players.done()
    play_time = _minutes(meta.take("play_time", (int, dict)), meta.where("play_time"))
    age = meta.take_int("age", lo=0, hi=99)
    credits = tuple(
        _credit(entry, where)
        for entry, where in list_entries(meta.take("credits", list, []), "credits", meta.where("credits"))
    )
    notes = tuple(str(n) for n in meta.take("design_notes", list, []))
    note = meta.take("designed", str, None)
    if note:
        decisions.append((meta.where("designed"), note))
    subtitle = meta.take("subtitle", str, "")
    tagline = meta.take("tagline", str, "")
    story = meta.take("story", str, "")
    meta.done()

    components: list[Component] = []
    seen: dict[str, Location] = {}
    for entry, where in components_raw:
        component = parse_component(entry, where, decisions, read_sheet)
        if component.id in seen:
            raise DataError(f"duplicate component id {component.id!r} (first at {seen[component.id]})",
                            component.location)
        seen[component.id] = component.location
        components.append(component)
    by_id = {c.id: c for c in components}
    check_shared_sheets(components)

    contents: list[ContentsEntry] = []
    if "contents" in sections:
        raw, where = sections["contents"]
        for entry, entry_where in list_entries(raw, "contents", where):
            contents.append(_contents_entry(entry, entry_where, by_id))

    player_counts: dict[int, PlayerCount] = {}
    if "player_counts" in sections:
        raw, where = sections["player_counts"]
        table = Section(raw, "player_counts", where, schema.PLAYER_COUNTS)
        for key in list(table.data):
            key_where = table.where(key)
            if not isinstance(key, int) or not players_min <= key <= players_max:
                raise DataError(
                    f"player_counts key {key!r} must be a player count {players_min}..{players_max}", key_where
                )
            player_counts[key] = _player_count(key, table.take(key, dict), key_where, by_id)  # type: ignore[arg-type]  # int keys
        table.done()

    rules: Any = {}
    rule_locations: dict[str, Location] = {}
    if "rules" in sections:
        raw, where = sections["rules"]
        if not isinstance(raw, dict):
            raise DataError("rules must be a mapping", where)
        rule_locations[""] = where
        rules = _plain(raw, "", rule_locations, decisions)
    theme: Any = {}
    theme_locations: dict[str, Location] = {}
    if "theme" in sections:
        raw, where = sections["theme"]
        if not isinstance(raw, dict):
            raise DataError("theme must be a mapping", where)
        theme_locations[""] = where
        theme = _plain(raw, "", theme_locations, decisions)
        _check_theme(theme, theme_locations)

    return Game(
        id=game_id,
        title=title,
        players_min=players_min,
        players_max=players_max,
        play_time=play_time,
        age=age,
        components=tuple(components),
        contents=tuple(contents),
        player_counts=MappingProxyType(player_counts),
        rules=rules,
        rule_locations=MappingProxyType(rule_locations),
        location=meta.location,
        files=files,
        subtitle=subtitle,
        tagline=tagline,
        story=story.strip(),
        credits=credits,
        design_notes=notes,
        decisions=tuple(DesignDecision(w, t.strip()) for w, t in decisions),
        theme=theme,
        theme_locations=MappingProxyType(theme_locations),
    )


def _check_theme(theme: Any, locations: dict[str, Location]) -> None:
    """The theme is free-form, but the values code acts on must be ones it understands: a mark corner that
    names no corner would otherwise put the mark top left without a word."""
    corner = theme.get("mark_corner")
    if corner is not None and corner not in MARK_CORNERS:
        raise DataError(f"theme.mark_corner {corner!r} is not a corner: use one of {', '.join(MARK_CORNERS)}",
                        locations.get("mark_corner", locations[""]))


def _minutes(value: Any, where: Location) -> tuple[int, int]:
    if isinstance(value, int):
        if value <= 0:
            raise DataError(f"game 'play_time' must be positive minutes, got {value}", where)
        return (value, value)
    section = Section(value, "game 'play_time'", where, schema.PLAY_TIME)
    lo = section.take_int("min", lo=1)
    hi = section.take_int("max", lo=lo)
    section.done()
    return (lo, hi)


def _credit(entry: Any, where: Location) -> Credit:
    section = Section(entry, "credit", where, schema.CREDIT)
    role = section.take("role", str)
    names = section.take("names", (list, str))
    section.done()
    return Credit(role, tuple([names] if isinstance(names, str) else (str(n) for n in names)))


def _filter(section: Section, what: str, by_id: dict[str, Component]) -> Filter:
    """Read `component:` and optional `where:` from a section (the caller calls `done()`)."""
    comp_id = section.take("component", str)
    if comp_id not in by_id:
        raise DataError(
            f"{what} names unknown component {comp_id!r} (components: {', '.join(by_id)})", section.where("component")
        )
    component = by_id[comp_id]
    conditions: list[Condition] = []
    cond_section = Section(section.take("where", dict, {}), f"{what} 'where'", section.where("where"), schema.CONDITION)
    for field_name in list(cond_section.data):
        field_where = cond_section.where(field_name)
        if component.field_spec(field_name) is None:
            fields = ", ".join(f.name for f in component.fields)
            raise DataError(f"{what} tests unknown field {field_name!r} of {comp_id} (fields: {fields})", field_where)
        test = cond_section.take(field_name, (dict, list, str, int, float, bool))
        if isinstance(test, dict):
            bounds = Section(test, f"condition on '{field_name}'", field_where, schema.BOUNDS)
            lo = bounds.take("min", float, None)
            hi = bounds.take("max", float, None)
            bounds.done()
            conditions.append(Condition(field_name, min=lo, max=hi))
        elif isinstance(test, list):
            conditions.append(Condition(field_name, values=tuple(test)))
        else:
            conditions.append(Condition(field_name, values=(test,)))
    return Filter(comp_id, tuple(conditions), section.location)


def _contents_entry(entry: Any, where: Location, by_id: dict[str, Component]) -> ContentsEntry:
    section = Section(entry, "contents entry", where, schema.CONTENTS)
    label = section.take("label", str)
    count = section.take_int("count", lo=0)
    select = _filter(section, "contents entry", by_id)
    section.done()
    return ContentsEntry(label, count, select, section.location)


def _player_count(players: int, raw: Any, where: Location, by_id: dict[str, Component]) -> PlayerCount:
    section = Section(raw, f"player_counts {players}", where, schema.PLAYER_COUNT)
    removals = []
    for entry, entry_where in list_entries(section.take("remove", list, []), "remove", section.where("remove")):
        removal = Section(entry, f"player_counts {players} removal", entry_where, schema.REMOVAL)
        removals.append(_filter(removal, f"player_counts {players} removal", by_id))
        removal.done()
    note = section.take("note", str, "")
    section.done()
    return PlayerCount(players, tuple(removals), section.location, note)


def _plain(value: Any, path: str, locations: dict[str, Location], decisions: list[Any]) -> Any:
    """Free-form data as read-only plain values, with every dotted path's line recorded.

    `designed:` notes are lifted out into the list of design decisions.
    """
    if isinstance(value, dict):
        out = {}
        for key, child in value.items():
            where = value.where(key) if isinstance(value, YMap) else locations.get(path, Location(""))
            if key == "designed" and isinstance(child, str):
                decisions.append((where, child))
                continue
            child_path = f"{path}.{key}" if path else str(key)
            locations[child_path] = where
            out[key] = _plain(child, child_path, locations, decisions)
        return MappingProxyType(out)
    if isinstance(value, list):
        out_list = []
        for index, child in enumerate(value):
            child_path = f"{path}.{index}"
            if isinstance(value, YList):
                locations[child_path] = value.where(index)
            out_list.append(_plain(child, child_path, locations, decisions))
        return tuple(out_list)
    return value
