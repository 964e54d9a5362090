"""The report's charts, drawn here as inline SVG (no script, no library, nothing fetched): bars
(the luck of each game of a match, a bar a player) and a line (a player's PR match after
match). Each chart is an image with a title and a description in words for screen readers
(``role="img"``, ``aria-labelledby``); each bar and point has its value as a tooltip
(``<title>``) and as ``data-value`` (the number as the tables hold it). The same numbers
stand in a table beside each chart.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

WIDTH, HEIGHT = 560, 220
LEFT, RIGHT, TOP, BOTTOM = 52, 10, 30, 30
SERIES = ("#1f6fd1", "#c8641e")  # two players: blue and orange, told apart by the colour-blind too
_PLOT_W, _PLOT_H = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM


class _Scale:
    """Values to heights: the range of the values and zero, with a margin."""

    def __init__(self, values: Sequence[float]) -> None:
        low, high = min(0.0, *values), max(0.0, *values)
        if high - low < 1e-9:
            high = low + 1.0
        pad = (high - low) * 0.08
        self.low, self.high = low - pad if low < 0 else low, high + pad

    def y(self, value: float) -> float:
        return TOP + (self.high - value) / (self.high - self.low) * _PLOT_H

    def ticks(self) -> list[float]:
        """Zero and the extremes of the values' range."""
        return sorted({0.0, self.low, self.high})


def _frame(ident: str, title: str, description: str, scale: _Scale, tick: str) -> list[str]:
    parts = [
        f'<svg class="chart" id="{ident}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" role="img" aria-labelledby="{ident}-title {ident}-desc">',
        f'<title id="{ident}-title">{escape(title)}</title><desc id="{ident}-desc">{escape(description)}</desc>',
        f'<rect x="{LEFT}" y="{TOP}" width="{_PLOT_W}" height="{_PLOT_H}" fill="#fff" stroke="#bbb"/>',
    ]
    for value in scale.ticks():
        y = scale.y(value)
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="{"#555" if value == 0 else "#ddd"}"/>')
        parts.append(f'<text x="{LEFT - 4}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{tick.format(value)}</text>')
    return parts


def _legend(names: Sequence[str]) -> str:
    parts = []
    x = LEFT
    for index, name in enumerate(names):
        parts.append(f'<rect x="{x}" y="8" width="12" height="12" fill="{SERIES[index % len(SERIES)]}"/>')
        parts.append(f'<text x="{x + 16}" y="18" font-size="12">{escape(name)}</text>')
        x += 28 + 7 * min(len(name), 30)
    return "".join(parts)


def _x_labels(labels: Sequence[str], centre: Sequence[float]) -> list[str]:
    """Labels under the plot, as many as fit side by side (every few, the last always)."""
    fit = max(2, int(_PLOT_W // (6.5 * max((len(label) for label in labels), default=1) + 12)))
    every = max(1, -(-len(labels) // fit))
    shown = [i for i in range(len(labels)) if i % every == 0 or i == len(labels) - 1]
    if len(shown) > 1 and shown[-1] - shown[-2] < every:
        shown.pop(-2)
    return [f'<text x="{centre[i]:.1f}" y="{HEIGHT - 10}" font-size="11" text-anchor="middle">{escape(labels[i])}</text>' for i in shown]


def bars(ident: str, title: str, description: str, groups: Sequence[str], names: Sequence[str],
         values: Sequence[Sequence[float | None]], said: Sequence[Sequence[str]], tick: str = "{:+.2f}") -> str:  # fmt: skip
    """A bar chart: a group of bars for each of ``groups``, a bar for each of ``names``
    (``values[group][name]``, None for none; ``said[group][name]``: its tooltip)."""
    known = [v for row in values for v in row if v is not None]
    scale = _Scale(known or [0.0])
    parts = _frame(ident, title, description, scale, tick)
    band = _PLOT_W / max(1, len(groups))
    width = band * 0.8 / max(1, len(names))
    zero = scale.y(0.0)
    for g, row in enumerate(values):
        for s, value in enumerate(row):
            if value is None:
                continue
            x = LEFT + g * band + band * 0.1 + s * width
            top, bottom = sorted((scale.y(value), zero))
            parts.append(
                f'<rect class="bar" x="{x:.1f}" y="{top:.1f}" width="{width:.1f}" height="{max(bottom - top, 0.5):.1f}" '
                f'fill="{SERIES[s % len(SERIES)]}" data-value="{value!r}"><title>{escape(said[g][s])}</title></rect>'
            )
    parts += _x_labels(groups, [LEFT + (g + 0.5) * band for g in range(len(groups))])
    parts.append(_legend(names))
    return "".join(parts) + "</svg>"


def line(ident: str, title: str, description: str, labels: Sequence[str], values: Sequence[float | None],
         said: Sequence[str], reference: tuple[float, str] | None = None, tick: str = "{:.1f}") -> str:  # fmt: skip
    """A line through ``values`` in order (None: no point), each point with its tooltip;
    ``reference``: a dashed level and its name (a player's PR over all their decisions)."""
    known = [v for v in values if v is not None] + ([reference[0]] if reference else [])
    scale = _Scale(known or [0.0])
    parts = _frame(ident, title, description, scale, tick)
    step = _PLOT_W / max(1, len(values))
    centre = [LEFT + (i + 0.5) * step for i in range(len(values))]
    if reference is not None:
        y = scale.y(reference[0])
        parts.append(f'<line class="reference" x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="{SERIES[1]}" '
                     f'stroke-dasharray="6 4"><title>{escape(reference[1])}</title></line>')  # fmt: skip
    points = [(centre[i], scale.y(v), i) for i, v in enumerate(values) if v is not None]
    if len(points) > 1:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{SERIES[0]}" stroke-width="1.5"/>')
    for x, y, i in points:
        parts.append(f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{SERIES[0]}" data-value="{values[i]!r}">'
                     f"<title>{escape(said[i])}</title></circle>")  # fmt: skip
    parts += _x_labels(labels, centre)
    return "".join(parts) + "</svg>"
