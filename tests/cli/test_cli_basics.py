"""The `pnp` command itself: help, version, list/show, and errors as one line with no traceback."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import __version__
from generator.cli import cli
from generator.project import Project
from tests.helpers import edit


def run_pnp(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run `python -m generator` as a user would, in a given folder."""
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True, check=False)


def test_version_and_help(project: Project) -> None:
    runner = CliRunner()
    assert runner.invoke(cli, ["--version"]).output.strip() == f"pnp, version {__version__}"
    helped = runner.invoke(cli, ["--help"]).output
    for command in ("list", "show", "validate"):
        assert f"  {command} " in helped


def test_bare_pnp_shows_its_help_not_an_error_line(tmp_path: Path) -> None:
    result = run_pnp(cwd=tmp_path)
    shown = result.stdout + result.stderr
    assert shown.startswith("Usage: pnp [OPTIONS] COMMAND") and "  build " in shown
    assert "pnp: Usage" not in shown and "see 'pnp --help'" not in shown and "Traceback" not in shown
    assert result.returncode in (0, 2)  # click 8.1 exits 0 after the help, 8.2+ with 2 (no command is a usage error)


def test_list_shows_every_game_with_component_counts(project: Project) -> None:
    result = CliRunner().invoke(cli, ["--root", str(project.root), "list", "--json"])
    assert result.exit_code == 0, result.output
    listed = {g["id"]: g for g in json.loads(result.output)}
    assert set(listed) == set(project.game_ids())
    counterattack = listed["counterattack"]
    assert sum(c["count"] for c in counterattack["components"].values()) == 54
    table = CliRunner().invoke(cli, ["--root", str(project.root), "list"]).output
    assert "Pirates Port: Counterattack" in table and "44 crew cards" in table


def test_show_lists_components_and_design_decisions(project: Project) -> None:
    result = CliRunner().invoke(cli, ["--root", str(project.root), "show", "counterattack"])
    assert result.exit_code == 0
    assert "exposed-port" in result.output
    assert "Design decisions" in result.output and "data/counterattack/cards.yaml:" in result.output


def test_bad_data_is_one_line_without_traceback(project_copy: Project) -> None:
    edit(project_copy.data_dir / "counterattack" / "cards.yaml", "tricks: 4}", "tricks: four}")
    result = run_pnp("show", "counterattack", cwd=project_copy.root)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "pnp: data/counterattack/cards.yaml:20: port card 'nassau' 'tricks' must be an integer 0..10, got 'four'"
    ]
    assert "Traceback" not in result.stderr


def test_unknown_game_and_bad_root(tmp_path: Path, project: Project) -> None:
    result = run_pnp("show", "treasure-island", cwd=project.root)
    assert result.returncode == 2
    assert result.stderr.startswith("pnp: unknown game 'treasure-island' (games: counterattack")
    missing = run_pnp("--root", str(tmp_path / "nowhere"), "list", cwd=project.root)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_help_summaries_are_each_commands_own_first_line() -> None:
    """`pnp --help` lists commands from SUMMARIES; each must say what the command's own help says."""
    import click

    from generator.cli import COMMANDS, SUMMARIES, LazyGroup

    assert set(SUMMARIES) == set(COMMANDS)
    for name in COMMANDS:
        command = LazyGroup._find(name)
        for limit in (40, 60, 80, 200):
            listed = click.Command(name, help=SUMMARIES[name]).get_short_help_str(limit)
            assert listed == command.get_short_help_str(limit), name


def test_help_imports_no_command_and_no_reportlab(tmp_path: Path) -> None:
    """`pnp --help` costs little more than importing click: no subcommand, engine or ReportLab is loaded."""
    probe = ("import sys\nfrom generator.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith(('reportlab', 'generator.cli.', 'generator.engine', "
             "'generator.render', 'jinja2', 'PIL'))))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert "Commands:" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_build_help_names_every_shipped_preset_without_loading_reportlab(tmp_path: Path) -> None:
    """The preset names in `pnp build --help` come from presets.yaml itself, and reading them draws nothing."""
    probe = ("import sys\nfrom generator.cli import main\ntry:\n    main(['build', '--help'])\nexcept SystemExit:\n"
             "    pass\nprint(sorted(m for m in sys.modules if m.startswith(('reportlab', 'PIL', 'jinja2'))))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True)
    *help_lines, loaded = done.stdout.strip().splitlines()
    assert loaded == "[]"
    text = " ".join(" ".join(help_lines).split())
    from generator.render.exports.presets import registry

    assert f"({', '.join(registry())}; see the README's" in text
    assert "PRESET-NAMES" not in text


# --- a newcomer's rough edges -------------------------------------------------------------------------------


def _pnp(capsys, *argv: str) -> tuple[int, str, str]:
    from tests.helpers import run_pnp as run_here

    return run_here(capsys, *argv)


def test_a_misspelt_game_or_command_gets_the_likely_one(project: Project, capsys) -> None:
    root = ["--root", str(project.root)]
    for command in (["build"], ["validate"], ["simulate"], ["watch"], ["serve"], ["show"]):
        code, _out, err = _pnp(capsys, *root, *command, "counterattak")
        assert code == 2 and "did you mean 'counterattack'?" in err and err.count("\n") == 1, (command, err)
    code, _out, err = _pnp(capsys, *root, "buidl")
    assert code == 2 and err == "pnp: no such command 'buidl'; did you mean 'build'? (see 'pnp --help')\n"
    code, _out, err = _pnp(capsys, *root, "frobnicate")
    assert code == 2 and "did you mean" not in err and "no such command 'frobnicate'" in err
    code, _out, err = _pnp(capsys, *root, "simulate", "counterattack", "-n", "2", "--bot", "heurstic")
    assert code == 2 and "unknown bot 'heurstic'; did you mean 'heuristic'?" in err


@pytest.mark.slow
def test_choices_ignore_case_and_root_may_follow_the_command(project: Project, tmp_path: Path, capsys,
                                                            monkeypatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, out, err = _pnp(capsys, "validate", "counterattack", "--root", str(project.root))
    assert code == 0, err
    assert re.fullmatch(r"counterattack: \d+ checks, ok\n", out)  # quiet on success: one line per game
    code, out, err = _pnp(capsys, "--root", str(elsewhere), "list", "--root", str(project.root), "--json")
    assert code == 0 and json.loads(out), err  # the one after the command wins, as typed last
    code, _out, err = _pnp(capsys, "validate", "--root", str(tmp_path / "missing"))
    assert code == 2 and err == f"pnp: --root '{tmp_path / 'missing'}' is not a folder\n"
    seen: dict[str, object] = {}

    def record(*args: object, **kwargs: object) -> None:
        seen["options"] = args[3]

    monkeypatch.setattr("generator.cli.watch.watch_and_build", record)
    code, _out, err = _pnp(capsys, "--root", str(project.root), "serve", "--paper", "A4", "--port", "0")
    assert code == 0, err
    assert seen["options"].papers == ("a4",)  # type: ignore[attr-defined]
    code, _out, err = _pnp(capsys, "--root", str(project.root), "build", "--paper", "Letter", "--duplex", "LONG",
                           "--colour", "RGB", "--only", "nothing")
    assert code == 2 and "--only 'nothing'" in err  # the choices passed; the component does not exist


@pytest.mark.slow
def test_validate_lists_every_check_with_verbose_and_failures_always(project_copy: Project, capsys) -> None:
    project = project_copy
    code, out, _err = _pnp(capsys, "--root", str(project.root), "validate", "-v", "counterattack")
    assert code == 0 and re.match(r"counterattack: \d+ checks, ok\ncheck ", out) and out.count("\n") > 30
    code, out, _err = _pnp(capsys, "--root", str(project.root), "validate")
    assert code == 0 and len(out.splitlines()) == len(project.game_ids())
    edit(project.data_dir / "counterattack" / "game.yaml", "ports_to_win: 6", "ports_to_win: 7")
    code, out, _err = _pnp(capsys, "--root", str(project.root), "validate", "counterattack")
    assert code == 1 and re.search(r"1 of \d+ checks failed", out) and "one port per hand to win" in out and " ok\n" not in out
    # The count is on cards.yaml, the rule it must match on game.yaml: the line names both (the edit was the rule).
    rule = next(n for n, line in enumerate((project.data_dir / "counterattack" / "game.yaml").read_text().splitlines(), 1)
                if "ports_to_win:" in line)
    assert (f"  data/counterattack/cards.yaml:3: one port per hand to win: expected 7 "
            f"(set at data/counterattack/game.yaml:{rule}), got 6\n") in out
    code, out, _err = _pnp(capsys, "--root", str(project.root), "validate", "counterattack", "--json")
    failed = [c for c in json.loads(out)[0]["checks"] if not c["ok"]]
    assert [(c["location"], c["source"]) for c in failed] == [("data/counterattack/cards.yaml:3",
                                                               f"data/counterattack/game.yaml:{rule}")]


def test_help_names_the_default_bot() -> None:
    from generator.engine.simulate.bots import DEFAULT_BOT

    for command in ("simulate", "sweep"):
        helped = CliRunner().invoke(cli, [command, "--help"]).output
        assert f"{DEFAULT_BOT} (the default)" in helped or f"(default: {DEFAULT_BOT})" in helped, command


def test_shell_completion_offers_games_presets_and_bots(project: Project) -> None:
    from click.shell_completion import ShellComplete

    from generator.render.exports.presets import registry

    def offered(words: list[str], incomplete: str) -> list[str]:
        complete = ShellComplete(cli, {}, "pnp", "_PNP_COMPLETE")
        return [item.value for item in complete.get_completions(words, incomplete)]

    root = ["--root", str(project.root)]
    assert offered([*root, "build"], "") == project.game_ids()
    assert offered([*root, "simulate"], "pira") == ["pirate-tricks", "pirates-under-fire"]
    assert offered(["validate", "--root", str(project.root)], "all") == ["all-hands-on-deck"]
    assert offered([*root, "build", "--preset"], "") == list(registry())
    bots = offered([*root, "simulate", "all-hands-on-deck", "--bot"], "")
    assert {"random", "heuristic", "search"} <= set(bots)
    assert offered([*root, "simulate", "counterattack", "--bot"], "heu") == [b for b in bots if b.startswith("heu")]
    assert offered([], "bu") == ["build"]
