"""The PDF report is drawn from the typed summary (here read from saved JSON), without the engine."""

from __future__ import annotations

import ast
import io
from pathlib import Path

from pypdf import PdfReader

import generator.render.reports.simulation as report
from generator.render.reports.simulation import build_report
from generator.simulation import Summary


def _summary() -> dict:
    hist = {"width": 1, "buckets": [[0, 3], [1, 5], [2, 0], [3, 2]]}
    return {
        "schema": 3, "game": "demo", "title": "Demo & Co", "players": 2, "bots": ["heuristic", "random"],
        "games": 10, "seed": 3, "check": True,
        "seats": [
            {"seat": 1, "bot": "heuristic", "wins": 7, "trials": 10, "rate": 0.7, "ci95": [0.3968, 0.8922],
             "score": {"n": 10, "mean": 1.1, "sd": 1.0, "min": 0, "max": 3}, "score_hist": hist},
            {"seat": 2, "bot": "random", "wins": 4, "trials": 10, "rate": 0.4, "ci95": [0.1682, 0.6873],
             "score": {"n": 10, "mean": 0.9, "sd": 0.8, "min": 0, "max": 2}, "score_hist": hist},
        ],
        "by_position": [
            {"position": 1, "wins": 5, "trials": 10, "rate": 0.5, "ci95": [0.2366, 0.7634]},
            {"position": 2, "wins": 6, "trials": 10, "rate": 0.6, "ci95": [0.3127, 0.8318]},
        ],
        "by_bot": [
            {"bot": "heuristic", "seats": 1, "wins": 7, "trials": 10, "rate": 0.7, "ci95": [0.3968, 0.8922]},
            {"bot": "random", "seats": 1, "wins": 4, "trials": 10, "rate": 0.4, "ci95": [0.1682, 0.6873]},
        ],
        "shared_wins": 1, "no_winner": 0,
        "length": {"actions": {"n": 10, "mean": 12.5, "sd": 2.0, "min": 9, "max": 16,
                               "hist": {"width": 2, "buckets": [[8, 2], [10, 4], [12, 0], [14, 3], [16, 1]]}},
                   "tricks": {"n": 10, "mean": 10, "sd": 0.0, "min": 10, "max": 10, "hist": hist}},
        "progress": ["tricks"],
        "groups": {"points": {"sets": {"n": 10, "mean": 4.0, "sd": 1.0, "min": 2, "max": 6},
                              "curses": {"n": 10, "mean": -1.5, "sd": 0.5, "min": -2, "max": -1}},
                   "misc": {"figure": {"n": 10, "mean": 2.0, "sd": 0.0, "min": 2, "max": 2}}},
        "cards": {"gang-of-three": {"played": 0.8, "scored": 0.3}},
    }


def test_report_renders_every_section_deterministically() -> None:
    data = build_report(Summary.from_json(_summary()))
    assert data == build_report(Summary.from_json(_summary()))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    for expected in ("Demo & Co: simulation report", "Who wins", "By start position", "start position 2",
                     "60.0%", "positions and seats differ", "Scores", "Game length",
                     "points by source", "misc by source", "gang-of-three", "70.0%"):
        assert expected in text


def test_solo_report_shows_lost_games() -> None:
    summary = _summary()
    summary["players"] = 1
    summary["seats"] = summary["seats"][:1]
    summary["by_bot"] = summary["by_bot"][:1]
    summary["by_position"] = summary["by_position"][:1]
    summary["solo"] = {"wins": 7, "trials": 10, "rate": 0.7, "ci95": [0.3968, 0.8922], "lost": 3,
                       "lost_at": {"hands": {"width": 1, "buckets": [[2, 1], [3, 2]]}}}
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(build_report(Summary.from_json(summary)))).pages)
    assert "Solo win rate 70.0%" in text and "When solo games are lost" in text


def test_render_never_imports_the_engine() -> None:
    tree = ast.parse(Path(report.__file__).read_text())
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in modules if m.startswith("generator.engine")]


def test_upright_bucket_labels_clear_the_axis_title() -> None:
    """Many buckets turn their labels upright; they hung over the axis title ('actions' over '26-27')."""
    from reportlab.graphics.charts.barcharts import VerticalBarChart
    from reportlab.graphics.shapes import String
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.render.base.fonts import register_fonts
    from generator.render.reports.simulation import histogram_chart
    from generator.simulation import Histogram

    register_fonts()
    wide = Histogram(2, tuple((float(low), 1) for low in range(400, 480, 2)))  # "400-401" ... 40 buckets
    drawing = histogram_chart([("seat 1", wide)], "actions")
    chart = next(c for c in drawing.contents if isinstance(c, VerticalBarChart))
    title = next(s for s in drawing.contents if isinstance(s, String) and s.text == "actions")
    assert chart.categoryAxis.labels.angle == 90
    lowest_label = chart.y - chart.categoryAxis.tickDown - stringWidth("478-479", "Sans", 7)
    assert lowest_label > title.y + title.fontSize  # the labels end above the title's top
    assert drawing.height >= chart.y + chart.height
