"""The simulation report as a PDF: tables and charts drawn from the simulator's summary.

It takes the typed summary (`generator.simulation.Summary`, on the ground floor):
render never imports the engine, so the report can also be drawn from a saved
`pnp simulate --json` file (`Summary.from_json`). Output is deterministic
(`invariant=1`, shipped fonts only).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.graphics.charts.barcharts import HorizontalBarChart, VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from generator.render.base.fonts import register_fonts
from generator.simulation import (
    Balance,
    Histogram,
    MetricValue,
    Moments,
    Rate,
    Summary,
    Sweep,
    format_ci,
    format_interval,
    format_num,
    format_pct,
)

PALETTE = [colors.HexColor(c) for c in ("#1f3b57", "#c8962c", "#b3261e", "#2e7d32", "#4a3b6b", "#5d7f99",
                                          "#8d6e63", "#00838f")]
WIDTH = A4[0] - 36 * mm  # frame width inside the margins

def _styles() -> dict[str, ParagraphStyle]:
    return {
        "title": ParagraphStyle("title", fontName="Display", fontSize=20, leading=24, spaceAfter=4),
        "h2": ParagraphStyle("h2", fontName="Sans-Bold", fontSize=13, leading=16, spaceBefore=10, spaceAfter=4),
        "body": ParagraphStyle("body", fontName="Sans", fontSize=9.5, leading=12.5),
        "note": ParagraphStyle("note", fontName="Sans-Italic", fontSize=8.5, leading=11, textColor=colors.grey),
    }


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> Table:
    table = Table([list(headers)] + [list(r) for r in rows], hAlign="LEFT", repeatRows=1)
    numeric = [i for i in range(len(headers)) if rows and all(_numeric(r[i]) for r in rows)]
    table.setStyle(TableStyle([*(("ALIGN", (i, 0), (i, -1), "RIGHT") for i in numeric),
        ("FONT", (0, 0), (-1, 0), "Sans-Bold", 8.5),
        ("FONT", (0, 1), (-1, -1), "Sans", 8.5),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f1ece0")]),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]))
    return table


def _numeric(text: str) -> bool:
    try:
        float(text.rstrip("%").split(" to ")[0].rstrip("%"))
    except ValueError:
        return text == "-"
    return True


def _moments_rows(entries: Mapping[str, Moments]) -> list[list[str]]:
    return [[key, format_num(m.mean), format_num(m.sd), format_num(m.min), format_num(m.max)]
            for key, m in entries.items()]


def _horizontal_bars(chart: HorizontalBarChart, labels: Sequence[str], colour: Any) -> None:
    """The report's look for a horizontal bar chart: labels top to bottom in the given order, at the
    bars' right-hand anchor, in the shipped font, one flat colour."""
    chart.categoryAxis.categoryNames = list(reversed(labels))
    chart.categoryAxis.labels.fontName = "Sans"
    chart.categoryAxis.labels.boxAnchor = "e"
    chart.valueAxis.labels.fontName = "Sans"
    chart.bars[0].fillColor = colour
    chart.bars.strokeColor = None


def win_chart(entries: Sequence[Rate], labels: Sequence[str], mark: float | None = None) -> Drawing:
    """Horizontal bars of win rates with their 95% Wilson intervals as whiskers; `mark` draws a limit line."""
    height = 30 + 22 * len(entries)
    drawing = Drawing(WIDTH, height)
    chart = HorizontalBarChart()
    chart.x, chart.y = 110, 20
    chart.width, chart.height = WIDTH - 140, height - 30
    chart.data = [[e.rate * 100 for e in reversed(entries)]]
    chart.valueAxis.valueMin, chart.valueAxis.valueMax = 0, 100
    chart.valueAxis.valueStep = 10
    chart.valueAxis.labelTextFormat = "%d%%"
    _horizontal_bars(chart, labels, PALETTE[0])
    drawing.add(chart)
    slot = chart.height / max(1, len(entries))
    for i, entry in enumerate(reversed(entries)):
        lo, hi = entry.ci95
        y = chart.y + slot * (i + 0.5)
        x0 = chart.x + chart.width * lo
        x1 = chart.x + chart.width * hi
        drawing.add(Line(x0, y, x1, y, strokeColor=PALETTE[1], strokeWidth=1.4))
        for x in (x0, x1):
            drawing.add(Line(x, y - 4, x, y + 4, strokeColor=PALETTE[1], strokeWidth=1.4))
    if mark is not None:
        x = chart.x + chart.width * mark
        drawing.add(Line(x, chart.y, x, chart.y + chart.height, strokeColor=PALETTE[2], strokeWidth=1,
                         strokeDashArray=[3, 2]))
    return drawing


MAX_BARS = 30  # wider buckets beyond this: a chart of 60 hair-thin bars says less


def _display_width(series: Sequence[tuple[str, Histogram]]) -> int:
    width = max(h.width for _name, h in series)
    lows = [low for _name, h in series for low, _c in h.buckets]
    if lows:
        while (max(lows) - min(lows)) / width + 1 > MAX_BARS:
            width *= 2
    return width


def informative(hist: Histogram | None) -> bool:
    """A histogram worth drawing: at least two buckets with games in them."""
    return hist is not None and hist.informative


def histogram_chart(series: Sequence[tuple[str, Histogram]], x_label: str) -> Drawing:
    """Grouped bars of bucketed counts (one series per seat or figure) on shared buckets."""
    width = _display_width(series)
    lows = sorted({int(low // width) * width for _name, h in series for low, _c in h.buckets})
    if lows:
        lows = list(range(lows[0], lows[-1] + width, width))
    data = []
    for _name, hist in series:
        counts: dict[float, int] = {}
        for low, count in hist.buckets:
            key = int(low // width) * width
            counts[key] = counts.get(key, 0) + count
        data.append([counts.get(low, 0) for low in lows])
    names = [str(low) if width == 1 else f"{low}-{low + width - 1}" for low in lows] or [""]
    turned = len(lows) > 16
    # Labels turned upright hang below the axis by their length: the axis rises so they clear the axis title.
    below = max(stringWidth(name, "Sans", 7) for name in names) + 26 if turned else 30
    drawing = Drawing(WIDTH, 120 + max(30, below))
    chart = VerticalBarChart()
    chart.x, chart.y = 40, max(30, below)
    chart.width, chart.height = WIDTH - (150 if len(series) > 1 else 60), 105
    chart.data = data or [[0]]
    chart.categoryAxis.categoryNames = names
    chart.categoryAxis.labels.fontName = "Sans"
    chart.categoryAxis.labels.fontSize = 7
    if turned:
        chart.categoryAxis.labels.angle = 90
        chart.categoryAxis.labels.boxAnchor = "e"
    chart.valueAxis.valueMin = 0
    chart.valueAxis.labels.fontName = "Sans"
    chart.valueAxis.labels.fontSize = 7
    chart.bars.strokeColor = None
    chart.groupSpacing = 2
    for i in range(len(data)):
        chart.bars[i].fillColor = PALETTE[i % len(PALETTE)]
    drawing.add(chart)
    drawing.add(String(chart.x + chart.width / 2, 4, x_label, fontName="Sans", fontSize=8, textAnchor="middle"))
    if len(series) > 1:
        legend = Legend()
        legend.x, legend.y = chart.x + chart.width + 15, chart.y + chart.height
        legend.fontName = "Sans"
        legend.fontSize = 8
        legend.alignment = "right"
        legend.colorNamePairs = [(PALETTE[i % len(PALETTE)], name) for i, (name, _h) in enumerate(series)]
        drawing.add(legend)
    return drawing


def means_chart(entries: Mapping[str, Moments]) -> Drawing:
    """Horizontal bars of the mean per game of each source in a group (points by source)."""
    names = list(entries)
    height = 30 + 18 * len(names)
    drawing = Drawing(WIDTH, height)
    chart = HorizontalBarChart()
    chart.x, chart.y = 120, 20
    chart.width, chart.height = WIDTH - 150, height - 30
    chart.data = [[float(entries[n].mean) for n in reversed(names)]]
    chart.categoryAxis.labelAxisMode = "low"  # names at the left edge, clear of negative bars
    chart.valueAxis.valueMin = min(0.0, *(float(entries[n].mean) for n in names))
    _horizontal_bars(chart, names, PALETTE[3])
    drawing.add(chart)
    return drawing


def build_report(summary: Summary) -> bytes:
    """The whole report as PDF bytes (the caller writes them with write_atomic)."""
    register_fonts()
    st = _styles()
    s = summary
    story: list[Any] = [
        Paragraph(f"{_esc(s.title)}: simulation report", st["title"]),
        Paragraph(
            f"{s.games} games, {s.players} player{'s' if s.players != 1 else ''}, "
            f"bots {_esc(', '.join(s.bots))}, seed {s.seed}"
            f"{', rules and invariants checked on every action' if s.check else ''}.", st["body"]),
    ]
    if s.overrides:
        story.append(Paragraph(f"Data changed by --set {_esc(', '.join(s.overrides))}.", st["body"]))
    if s.solo is not None:
        story.append(Paragraph(
            f"<b>Solo win rate {format_pct(s.solo.rate.rate)}</b> (95% Wilson interval {format_ci(s.solo.rate)}); "
            f"{s.solo.lost} games lost.", st["body"]))

    story.append(Paragraph("Who wins", st["h2"]))
    seats = s.seats
    rows = [[str(e.seat), e.bot, str(e.rate.wins), format_pct(e.rate.rate), format_ci(e.rate)] for e in seats]
    story.append(_table(["seat", "bot", "wins", "win rate", "95% interval"], rows))
    story.append(win_chart([e.rate for e in seats], [f"seat {e.seat} ({e.bot})" for e in seats]))
    if s.players > 1:
        story.append(Paragraph("By start position", st["h2"]))
        rows = [[str(p.position), str(p.rate.wins), format_pct(p.rate.rate), format_ci(p.rate)] for p in s.by_position]
        story.append(_table(["start position", "wins", "win rate", "95% interval"], rows))
        story.append(win_chart([p.rate for p in s.by_position],
                               [f"start position {p.position}" for p in s.by_position]))
        story.append(Paragraph(
            "Start position 1 is the player who opened the game. "
            + ("The deal draws who opens (a race or a lot at the table), so positions and seats differ."
               if s.opener_varies else "The rules fix who opens, so start position 1 is seat 1."), st["note"]))
    if len(s.by_bot) > 1:
        rows = [[e.bot, str(e.seats), str(e.rate.wins), format_pct(e.rate.rate), format_ci(e.rate)] for e in s.by_bot]
        story.append(_table(["bot", "seats", "wins", "win rate", "95% interval"], rows))
        story.append(win_chart([e.rate for e in s.by_bot], [e.bot for e in s.by_bot]))
    if s.players > 1:
        story.append(Paragraph(
            f"Shared victories: {s.shared_wins} games (each winner is counted); no winner: {s.no_winner}.",
            st["note"]))

    story.append(Paragraph("Scores", st["h2"]))
    story.append(_table(["seat", "mean", "sd", "min", "max"],
                        _moments_rows({f"seat {e.seat} ({e.bot})": e.score for e in seats})))
    score_hists = [(f"seat {e.seat}", e.score_hist) for e in seats if e.score_hist is not None]
    if any(informative(h) for _name, h in score_hists):
        story.append(histogram_chart(score_hists, "final score"))

    story.append(Paragraph("Game length", st["h2"]))
    story.append(_table(["per game", "mean", "sd", "min", "max"],
                        _moments_rows({key: f.moments for key, f in s.length.items()})))
    for key, figure in s.length.items():
        if figure.hist is not None and informative(figure.hist):
            story.append(KeepTogether([Spacer(1, 4), histogram_chart([(key, figure.hist)], key)]))

    if s.solo is not None and s.solo.lost_at:
        story.append(Paragraph("When solo games are lost", st["h2"]))
        for key, hist in s.solo.lost_at.items():
            if hist is not None and informative(hist):
                story.append(KeepTogether([histogram_chart([(key, hist)], f"{key} reached in lost games")]))

    for group, entries in s.groups.items():
        story.append(KeepTogether([
            Paragraph(f"{_esc(group)} by source (per game)", st["h2"]),
            _table(["source", "mean", "sd", "min", "max"], _moments_rows(entries)),
            means_chart(entries),
        ]))

    if s.cards:
        story.append(Paragraph("Cards (mean per game)", st["h2"]))
        metrics = sorted({m for card in s.cards.values() for m in card})
        rows = [[card, *(format_num(values.get(m)) for m in metrics)] for card, values in s.cards.items()]
        story.append(_table(["card", *metrics], rows))

    if s.balance is not None:
        story.extend(balance_story(s.balance, st))

    story.append(Spacer(1, 8))
    story.append(Paragraph(
        "Intervals are 95% Wilson score intervals. A shared victory counts as a win for every winner. "
        "Per-bot intervals treat seats as independent, which they are not quite.", st["note"]))

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm, topMargin=16 * mm,
                            bottomMargin=16 * mm, invariant=1, title=f"{s.title}: simulation report",
                            author="Pirate Press", creator="pnp simulate", subject="", keywords="")
    doc.build(story)
    return buffer.getvalue()


def balance_story(b: Balance, st: Mapping[str, ParagraphStyle]) -> list[Any]:
    """Warnings first (what to act on), then sources by share, choices by takers' win rate, ties."""
    story: list[Any] = [Paragraph("Balance", st["h2"])]
    for line in b.warnings:
        story.append(Paragraph(f"<b>Warning:</b> {_esc(line)}", st["body"]))
    if not b.warnings:
        story.append(Paragraph(f"No source above {format_pct(b.max_share)} of the points, no choice whose takers "
                               f"win more than {100 * b.max_edge:.0f} points above a seat's mean.", st["body"]))
    rows = [[r.source, format_num(r.mean), format_pct(r.share), format_interval(*r.ci95)]
            for r in b.sources]
    gained = [r for r in b.sources if r.share > 0]
    story.append(KeepTogether([
        Paragraph("Points by source: share of all points gained", st["h2"]),
        _table(["source", "points per seat", "share", "95% interval"], rows),
        win_chart([Rate(0, 0, r.share, r.ci95) for r in gained], [r.source for r in gained],
                  mark=b.max_share),
        Paragraph(f"The red line marks the warning limit ({format_pct(b.max_share)}). Intervals are delta-method "
                  "intervals of the ratio over games; penalties appear as negative shares in the table.", st["note"]),
    ]))
    if b.choices:
        rows = [[r.choice, format_pct(r.taken.rate), format_pct(r.takers.rate), format_ci(r.takers),
                 format_pct(r.others.rate), f"{100 * r.edge:+.1f}"] for r in b.choices]
        story.append(KeepTogether([
            Paragraph("Choices: how often taken, how often takers win", st["h2"]),
            _table(["choice", "taken", "takers win", "95% interval", "others win", "edge"], rows),
            win_chart([r.takers for r in b.choices], [f"{r.choice} takers" for r in b.choices],
                      mark=b.fair + b.max_edge),
            Paragraph(f"A seat wins {format_pct(b.fair)} of its games on average; the red line marks that plus the "
                      f"warning margin ({100 * b.max_edge:.0f} points). Seat-games are the trials.", st["note"]),
        ]))
    breaks = ", ".join(f"{_esc(name)}: {count}" for name, count in b.tie_breaks.items()) or "none"
    story.append(Paragraph(f"Ties on points: {b.ties.wins} games, {format_pct(b.ties.rate)} "
                           f"({format_ci(b.ties)}); settled by {breaks}.", st["body"]))
    return story


def interval_chart(values: Sequence[MetricValue], labels: Sequence[str]) -> Drawing:
    """Horizontal bars with 95% whiskers for any metric: percent axis for rates and shares in 0..1,
    a plain axis from 0 (or the lowest value) otherwise."""
    known = [v for v in values if v.value is not None]
    ends = [x for v in known for x in (v.value, *(v.ci95 or ())) if x is not None]
    rate = all(0 <= x <= 1 for x in ends)
    low = 0.0 if rate or not ends else min(0.0, *ends)
    high = 1.0 if rate or not ends else max(ends) * 1.05 or 1.0
    height = 30 + 22 * len(values)
    drawing = Drawing(WIDTH, height)
    chart = HorizontalBarChart()
    longest = max((len(label) for label in labels), default=0)
    chart.x, chart.y = min(WIDTH * 0.55, 12 + 3.9 * longest), 20  # room for the labels (Sans 7 pt)
    chart.width, chart.height = WIDTH - chart.x - 14, height - 30
    chart.categoryAxis.labels.fontSize = 7
    scale = 100 if rate else 1
    chart.data = [[(v.value or 0) * scale for v in reversed(values)]]
    chart.valueAxis.valueMin, chart.valueAxis.valueMax = low * scale, high * scale
    if rate:
        chart.valueAxis.valueStep = 10
        chart.valueAxis.labelTextFormat = "%d%%"
    _horizontal_bars(chart, labels, PALETTE[0])
    drawing.add(chart)
    slot = chart.height / max(1, len(values))
    span = (high - low) or 1.0
    for i, entry in enumerate(reversed(values)):
        if entry.ci95 is None or entry.value is None:
            continue
        y = chart.y + slot * (i + 0.5)
        x0, x1 = (chart.x + chart.width * (end - low) / span for end in entry.ci95)
        drawing.add(Line(x0, y, x1, y, strokeColor=PALETTE[1], strokeWidth=1.4))
        for x in (x0, x1):
            drawing.add(Line(x, y - 4, x, y + 4, strokeColor=PALETTE[1], strokeWidth=1.4))
    return drawing


def build_sweep_report(sweep: Sweep) -> bytes:
    """A sweep as PDF bytes: the grid's table, then one chart per metric across the points."""
    register_fonts()
    st = _styles()
    s = sweep
    labels = [", ".join(f"{short_path(path)}={value}" for path, value in zip(s.paths, p.values, strict=True))
              for p in s.points]
    story: list[Any] = [
        Paragraph(f"{_esc(s.title)}: sweep", st["title"]),
        Paragraph(f"{len(s.points)} points of {s.games} games, {s.players} players, bots {_esc(', '.join(s.bots))}, "
                  f"seed {s.seed} at every point; varied: {_esc(', '.join(s.paths))}"
                  + (f"; fixed: {_esc(', '.join(s.fixed))}" if s.fixed else "") + ".", st["body"]),
    ]
    rows = [[*p.values, *(_metric_text(p.metrics[name]) for name in s.metrics)] for p in s.points]
    story.append(_table([*map(short_path, s.paths), *s.metrics], rows))
    for name in s.metrics:
        values = [p.metrics[name] for p in s.points]
        abouts = [v.about for v in values]
        story.append(KeepTogether([
            Paragraph(_esc(name), st["h2"]),
            interval_chart(values, [f"{label} ({about})" if about else label for label, about in zip(labels, abouts,
                                                                                                   strict=True)]),
        ]))
    story.append(Paragraph("Whiskers are 95% intervals (Wilson for rates, delta-method for shares, normal for means). "
                           "Every point is played with the same seed.", st["note"]))
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=18 * mm, rightMargin=18 * mm, topMargin=16 * mm,
                            bottomMargin=16 * mm, invariant=1, title=f"{s.title}: sweep", author="Pirate Press",
                            creator="pnp sweep", subject="", keywords="")
    doc.build(story)
    return buffer.getvalue()


def short_path(path: str) -> str:
    """A --vary path short enough for a chart label: its last two steps (`full-crew.points`, `fireship.cost`)."""
    return ".".join(path.split(".")[-2:])


def _metric_text(m: MetricValue) -> str:
    if m.value is None:
        return "-"
    text = format_pct(m.value) if m.ci95 and 0 <= m.ci95[0] <= m.ci95[1] <= 1 else format_num(m.value)
    return f"{text} {m.about}".rstrip()


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
