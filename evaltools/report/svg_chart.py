"""A line chart as a standalone SVG document, written as plain text.

Values run from 0 to 1 on the y axis (metrics), the x axis is an order of runs. The
document has a white background, system fonts and no script or external reference, so
it looks the same in a browser and as an image in a GitHub pull request. Each series is
one `<polyline>` (its points in x order) with a marker per point, so one-point series stay
visible; the markers' `<title>` gives the exact value on hover. A series may carry an
interval per point, drawn as a translucent band of its colour behind every line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

WIDTH = 820
HEIGHT = 540
# The plot area: what is left by the title (top), the legend (right) and the rotated
# run labels with the axis title (bottom).
LEFT, RIGHT, TOP, BOTTOM = 64, 610, 56, 330
# Points stay this far from the plot area's left and right edges.
INSET = 16
GRID_STEPS = 10
MAX_LABELS = 25
LABEL_CHARS = 40  # a label, a date and a revision
LEGEND_CHARS = 22
BAND_OPACITY = 0.18
# Okabe-Ito: told apart with the common colour-vision deficiencies; the first series
# (the overall one) is drawn in black and thicker.
COLOURS = ("#000000", "#E69F00", "#0072B2", "#009E73", "#D55E00", "#CC79A7", "#56B4E9")
DASHES = ("", "6 3", "2 3", "8 3 2 3")


@dataclass(frozen=True)
class Series:
    name: str
    # (x index into the chart's labels, value 0..1), in x order.
    points: Sequence[tuple[int, float]]
    # Hover text of each point, parallel to `points`.
    notes: Sequence[str] = ()
    # (x index, low, high): the interval around the value at x, in x order.
    band: Sequence[tuple[int, float, float]] = ()
    # The dash pattern ("" solid), instead of the one the series' place gives.
    dash: str | None = None
    # A faint band for a series in the background: overlapping bands of many series
    # would make one grey area.
    faint: bool = False


def x_of(index: int, count: int) -> float:
    """The x coordinate of the index-th of `count` runs."""
    if count <= 1:
        return (LEFT + RIGHT) / 2
    return LEFT + INSET + index * (RIGHT - LEFT - 2 * INSET) / (count - 1)


def y_of(value: float) -> float:
    """The y coordinate of a value 0..1 (values outside are clamped to the axis)."""
    return BOTTOM - min(max(value, 0.0), 1.0) * (BOTTOM - TOP)


def _n(value: float) -> str:
    return f"{value:.1f}"


def line_chart(
    title: str,
    y_label: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    *,
    empty: str,
    generator: str,
    x_label: str = "",
) -> str:
    """The SVG document; `empty` is the note drawn when there is no run to show.
    `generator` goes into the first line (`data-generator`), so that the command can tell
    its own chart, which it may replace, from any other file."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" data-generator={quoteattr(generator)} '
        f'width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="-apple-system, \'Segoe UI\', '
        'Helvetica, Arial, sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        f'<text x="{WIDTH / 2:.0f}" y="30" text-anchor="middle" font-size="16" '
        f'font-weight="bold" fill="#24292f">{escape(title)}</text>',
    ]
    out += _grid(y_label)
    out += _x_labels(x_labels)
    if x_label:
        out.append(
            f'<text class="x-axis" x="{_n((LEFT + RIGHT) / 2)}" y="{HEIGHT - 10}" '
            f'text-anchor="middle" fill="#57606a">{escape(x_label)}</text>'
        )
    if not x_labels:
        out.append(
            f'<text x="{_n((LEFT + RIGHT) / 2)}" y="{_n((TOP + BOTTOM) / 2)}" '
            f'text-anchor="middle" fill="#57606a">{escape(empty)}</text>'
        )
    for number, s in enumerate(series):  # every band behind every line
        out += _band(number, s, len(x_labels))
    for number, s in enumerate(series):
        out += _series(number, s, len(x_labels))
    out += _legend(series)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _grid(y_label: str) -> list[str]:
    out = []
    for step in range(GRID_STEPS + 1):
        value = step / GRID_STEPS
        y = _n(y_of(value))
        colour = "#8c959f" if step == 0 else "#d0d7de"
        out.append(
            f'<line class="grid" data-value="{value:.1f}" x1="{LEFT}" y1="{y}" x2="{RIGHT}" '
            f'y2="{y}" stroke="{colour}" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{LEFT - 8}" y="{y}" dy="4" text-anchor="end" fill="#57606a">'
            f"{value:.1f}</text>"
        )
    out.append(
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{BOTTOM}" stroke="#8c959f" '
        'stroke-width="1"/>'
    )
    middle = _n((TOP + BOTTOM) / 2)
    out.append(
        f'<text x="18" y="{middle}" text-anchor="middle" fill="#24292f" '
        f'transform="rotate(-90 18 {middle})">{escape(y_label)}</text>'
    )
    return out


def _x_labels(labels: Sequence[str]) -> list[str]:
    # Past MAX_LABELS runs, every step-th is labelled (and always the last).
    step = -(-len(labels) // MAX_LABELS) if labels else 1
    out = []
    for index, label in enumerate(labels):
        if index % step and index != len(labels) - 1:
            continue
        x = _n(x_of(index, len(labels)))
        y = BOTTOM + 14
        shown = label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"
        # Sloping down to the right: the first label cannot run off the left edge.
        out.append(
            f'<text class="run" x="{x}" y="{y}" font-size="11" fill="#24292f" '
            f'transform="rotate(40 {x} {y})"><title>{escape(label)}</title>'
            f"{escape(shown)}</text>"
        )
    return out


def _style(number: int, series: Series) -> tuple[str, str, str]:
    """Colour, dash pattern and width of the number-th series."""
    colour = COLOURS[number % len(COLOURS)]
    dash = DASHES[(number // len(COLOURS)) % len(DASHES)]
    if series.dash is not None:
        dash = series.dash
    return colour, dash, "3" if number == 0 else "2"


def _band(number: int, series: Series, count: int) -> list[str]:
    """The interval as a polygon: along the highs left to right, back along the lows (a
    short bar for a single point)."""
    if not series.band:
        return []
    colour = _style(number, series)[0]
    widths = (-6.0, 6.0) if len(series.band) == 1 else (0.0,)
    top = [(x_of(i, count) + dx, y_of(hi)) for i, _, hi in series.band for dx in widths]
    low = [(x_of(i, count) + dx, y_of(lo)) for i, lo, _ in series.band for dx in widths]
    points = " ".join(f"{_n(x)},{_n(y)}" for x, y in [*top, *reversed(low)])
    return [
        f'<polygon class="band" data-series={quoteattr(series.name)} fill="{colour}" '
        f'fill-opacity="{BAND_OPACITY / 3 if series.faint else BAND_OPACITY:.3f}" '
        f'stroke="none" points="{points}"/>'
    ]


def _series(number: int, series: Series, count: int) -> list[str]:
    colour, dash, width = _style(number, series)
    coords = [(x_of(i, count), y_of(v)) for i, v in series.points]
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    out = [
        f'<polyline data-series={quoteattr(series.name)} fill="none" stroke="{colour}" '
        f'stroke-width="{width}"{dashed} stroke-linejoin="round" points="'
        + " ".join(f"{_n(x)},{_n(y)}" for x, y in coords)
        + '"/>'
    ]
    notes = list(series.notes) + [""] * (len(coords) - len(series.notes))
    for (x, y), note in zip(coords, notes, strict=True):
        hover = f"<title>{escape(note)}</title>" if note else ""
        out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="3.5" fill="{colour}">{hover}</circle>')
    return out


def _legend(series: Sequence[Series]) -> list[str]:
    out = []
    x = RIGHT + 24
    for number, s in enumerate(series):
        colour, dash, width = _style(number, s)
        y = TOP + 8 + number * 20
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line x1="{x}" y1="{y}" x2="{x + 24}" y2="{y}" stroke="{colour}" '
            f'stroke-width="{width}"{dashed}/>'
        )
        name = s.name if len(s.name) <= LEGEND_CHARS else s.name[: LEGEND_CHARS - 1] + "…"
        out.append(
            f'<text class="legend" x="{x + 32}" y="{y}" dy="4" fill="#24292f">{escape(name)}</text>'
        )
    return out
