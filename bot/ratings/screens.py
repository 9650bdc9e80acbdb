"""Leaderboards and statistics as Telegram HTML: monospace tables, every word from ``locales/``.

Pure functions: they take what ``bot.ratings.records`` returns and a translator, and return the
text of one message. User text (names, group titles) is cleaned of control characters, cut to a
width and HTML-escaped after cutting, so an entity is never split and a table never breaks.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from telegram.constants import MessageLimit

from bot.ratings.records import GAME_KINDS, KindStats, TableLine

MAX_TEXT = MessageLimit.MAX_TEXT_LENGTH
NAME_WIDTH = 14  # cells of a name in a table: a row stays about 36 cells, a phone's width
TITLE_WIDTH = 40
ELLIPSIS = "…"


class Translations(Protocol):
    """What rendering needs of ``bot.core.i18n.Translator``."""

    def get(self, lang: str, msg_id: str, **args: object) -> str:
        """The text of ``msg_id`` in ``lang``."""
        ...


@dataclass(frozen=True)
class Board:
    """One game's table as shown: its top lines and the caller's own line (None if unrated)."""

    kind: str
    lines: Sequence[TableLine]
    caller: TableLine | None = None


def _cell_width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def text_width(text: str) -> int:
    """The number of monospace cells ``text`` takes (wide characters count two)."""
    return sum(_cell_width(ch) for ch in text)


def clean(text: str) -> str:
    """User text on one line: control and format characters (newlines, bidi overrides) removed."""
    return "".join(
        " " if ch in "\t\n\r" else ch
        for ch in text
        if not unicodedata.category(ch).startswith("C") or ch in "\t\n\r"
    ).strip()


def fit(text: str, width: int) -> str:
    """``text`` cleaned and cut to ``width`` cells, with an ellipsis when cut."""
    text = clean(text)
    if text_width(text) <= width:
        return text
    out, used = [], 0
    for ch in text:
        w = _cell_width(ch)
        if used + w > width - 1:
            break
        out.append(ch)
        used += w
    return "".join(out) + ELLIPSIS


def pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` cells, aligned left or right."""
    gap = " " * max(0, width - text_width(text))
    return gap + text if right else text + gap


def game_name(tr: Translations, lang: str, kind: str) -> str:
    """The name of a game in ``lang``."""
    return tr.get(lang, f"ratings-game-{kind}")


def _table(tr: Translations, lang: str, board: Board) -> str:
    head = [
        tr.get(lang, "ratings-col-rank"),
        tr.get(lang, "ratings-col-player"),
        tr.get(lang, "ratings-col-rating"),
        tr.get(lang, "ratings-col-games"),
        tr.get(lang, "ratings-col-wins"),
    ]
    shown = list(board.lines)
    caller = board.caller
    extra = caller is not None and caller.rank is not None
    extra = extra and all(line.user_id != caller.user_id for line in shown)
    rows = [
        [str(t.rank), fit(t.name, NAME_WIDTH), str(t.rating), str(t.games), str(t.wins)]
        for t in [*shown, *([caller] if extra else [])]
    ]
    widths = [max(text_width(r[i]) for r in [head, *rows]) for i in range(len(head))]
    right = [True, False, True, True, True]

    def line(cells: list[str]) -> str:
        return " ".join(pad(c, w, r) for c, w, r in zip(cells, widths, right, strict=True)).rstrip()

    out = [line(head)]
    for i, row in enumerate(rows):
        if extra and i == len(shown):
            out.append(pad(ELLIPSIS, widths[0], right=True))
        out.append(line(row))
    return "<pre>" + html.escape("\n".join(out), quote=False) + "</pre>"


def render_leaderboard(
    tr: Translations,
    lang: str,
    boards: Sequence[Board],
    chat_title: str | None,
    min_games: int,
) -> str:
    """The leaderboard message: a group's tables (``chat_title``) or the global ones (None)."""
    if chat_title is None:
        title = tr.get(lang, "ratings-board-title-global")
    else:
        title = tr.get(lang, "ratings-board-title-group", chat=fit(chat_title, TITLE_WIDTH))
    parts = [f"<b>{html.escape(title, quote=False)}</b>"]
    if not boards:
        none_id = "ratings-none-global" if chat_title is None else "ratings-none-group"
        parts.append(html.escape(tr.get(lang, none_id), quote=False))
        return "\n\n".join(parts)
    for board in boards:
        block = [f"<b>{html.escape(game_name(tr, lang, board.kind), quote=False)}</b>"]
        if board.lines or (board.caller is not None and board.caller.rank is not None):
            block.append(_table(tr, lang, board))
        else:
            block.append(html.escape(tr.get(lang, "ratings-board-empty"), quote=False))
        caller = board.caller
        if caller is not None and caller.rank is None:
            note = tr.get(
                lang,
                "ratings-you-unranked",
                games=caller.games,
                missing=max(1, min_games - caller.games),
            )
            block.append(html.escape(note, quote=False))
        parts.append("\n".join(block))
    parts.append(
        "<i>"
        + html.escape(tr.get(lang, "ratings-min-games", count=min_games), quote=False)
        + "</i>"
    )
    return "\n\n".join(parts)


def _figure_lines(tr: Translations, lang: str, st: KindStats) -> list[tuple[str, str]]:
    """The game's own figures: scopas and buone, capotti and contracts, average points."""
    lines: list[tuple[str, str]] = []
    if st.kind == "cirulla":
        for figure in ("scope", "buone"):
            if st.figure_games.get(figure):
                lines.append((tr.get(lang, f"ratings-stat-{figure}"), _num(st.figures[figure])))
    elif st.kind == "belota":
        if st.figure_games.get("capotti"):
            lines.append((tr.get(lang, "ratings-stat-capotti"), _num(st.figures["capotti"])))
        if st.figure_games.get("contracts_taken"):
            value = tr.get(
                lang,
                "ratings-stat-contracts-value",
                made=int(st.figures.get("contracts_made", 0)),
                taken=int(st.figures["contracts_taken"]),
            )
            lines.append((tr.get(lang, "ratings-stat-contracts"), value))
    elif st.kind == "briscola":
        average = st.average("points")
        if average is not None:
            value = tr.get(lang, "ratings-stat-points-value", points=average)
            lines.append((tr.get(lang, "ratings-stat-points"), value))
    return lines


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def render_stats(tr: Translations, lang: str, name: str, stats: Sequence[KindStats]) -> str:
    """The statistics message of one player: a block per game they have played."""
    who = fit(name, TITLE_WIDTH)
    if not stats:
        return html.escape(tr.get(lang, "ratings-stats-none", name=who), quote=False)
    parts = [f"<b>{html.escape(tr.get(lang, 'ratings-stats-title', name=who), quote=False)}</b>"]
    for st in stats:
        rows = [
            (tr.get(lang, "ratings-stat-games"), str(st.games)),
            (
                tr.get(lang, "ratings-stat-wins"),
                tr.get(
                    lang, "ratings-stat-wins-value", wins=st.wins, rate=round(100 * st.win_rate)
                ),
            ),
            (tr.get(lang, "ratings-stat-best-streak"), str(st.best_streak)),
        ]
        if st.partner is not None:
            value = tr.get(
                lang,
                "ratings-stat-partner-value",
                name=fit(st.partner.name, NAME_WIDTH),
                games=st.partner.games,
            )
            rows.append((tr.get(lang, "ratings-stat-partner"), value))
        rows += _figure_lines(tr, lang, st)
        width = max(text_width(label) for label, _ in rows)
        table = "\n".join(f"{pad(label, width)} {value}" for label, value in rows)
        title = html.escape(game_name(tr, lang, st.kind), quote=False)
        parts.append(f"<b>{title}</b>\n<pre>{html.escape(table, quote=False)}</pre>")
    parts.append("<i>" + html.escape(tr.get(lang, "ratings-stats-note"), quote=False) + "</i>")
    return "\n\n".join(parts)


def render_unknown_game(tr: Translations, lang: str, given: str) -> str:
    """The answer to a game name that is not one of ours."""
    games = ", ".join(game_name(tr, lang, k) for k in GAME_KINDS)
    text = tr.get(lang, "ratings-unknown-game", name=fit(given, TITLE_WIDTH), games=games)
    return html.escape(text, quote=False)
