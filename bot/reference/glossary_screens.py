"""Glossary answers as HTML text and button specs: /glossario, its buttons, inline results.

Pure functions, no Telegram objects: a ``Rendered`` holds the HTML text and rows of ``Button``
specs that the handlers turn into ``InlineKeyboardButton(b.text, callback_data=b.callback_data)``.
Callback data: ``g:`` the list of games, ``g:<game>`` or ``g:<game>:<page>`` a game's entries,
``ge:<id>`` one entry. Every dialect term and every user query is HTML-escaped here.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from bot.core.i18n import Translator
from bot.reference.glossary import EXACT, FUZZY, GAMES, Entry, Glossary, Match, normalize

PARSE_MODE = "HTML"
PAGE_SIZE = 10  # entries per browse page
MAX_LISTED = 10  # search results listed in one message
MAX_SUGGESTIONS = 5
INLINE_PAGE = 50  # Telegram's limit of results per inline answer
MAX_CALLBACK_BYTES = 64  # Telegram's limit on callback data
MAX_INLINE_ID_BYTES = 64
MAX_BUTTON_TEXT = 48
MAX_INLINE_TITLE = 64
MAX_INLINE_DESCRIPTION = 120
MAX_SHORT_MEANING = 90

ROOT_CALLBACK = "g:"


@dataclass(frozen=True)
class Button:
    """An inline keyboard button with callback data."""

    text: str
    callback_data: str


@dataclass(frozen=True)
class Rendered:
    """A message to send or edit: HTML text and rows of buttons."""

    text: str
    keyboard: tuple[tuple[Button, ...], ...] = ()
    parse_mode: str = PARSE_MODE


@dataclass(frozen=True)
class GameCallback:
    """A press on a game button: show that game's entries (``game`` None: the list of games)."""

    game: str | None
    page: int = 0


@dataclass(frozen=True)
class EntryCallback:
    """A press on an entry button: show that entry."""

    entry_id: str


# -- callback data -------------------------------------------------------------------------


def game_callback(game: str | None, page: int = 0) -> str:
    """Callback data that opens ``game``'s entries at ``page`` (``None``: the list of games)."""
    if game is None:
        return ROOT_CALLBACK
    return f"g:{game}" if page == 0 else f"g:{game}:{page}"


def entry_callback(entry_id: str) -> str:
    """Callback data that opens one entry."""
    return f"ge:{entry_id}"


def parse_callback(data: str) -> GameCallback | EntryCallback:
    """Read glossary callback data; ``ValueError`` if it is not one of ours or is malformed."""
    if not isinstance(data, str):
        raise ValueError("callback data must be a string")
    if data.startswith("ge:"):
        entry_id = data[3:]
        if not entry_id:
            raise ValueError(f"malformed glossary callback {data!r}")
        return EntryCallback(entry_id)
    if data.startswith("g:"):
        parts = data[2:].split(":")
        if parts == [""]:
            return GameCallback(None)
        if parts[0] not in GAMES or len(parts) > 2:
            raise ValueError(f"malformed glossary callback {data!r}")
        page = 0
        if len(parts) == 2:
            if not parts[1].isdigit() or len(parts[1]) > 3:
                raise ValueError(f"malformed glossary callback {data!r}")
            page = int(parts[1])
        return GameCallback(parts[0], page)
    raise ValueError(f"not a glossary callback: {data!r}")


# -- text ------------------------------------------------------------------------------------


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def _clip(text: str, limit: int) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:-–") + "…"


def short_meaning(entry: Entry, lang: str, limit: int = MAX_SHORT_MEANING) -> str:
    """The meaning's first sentence, clipped to ``limit`` characters (plain text)."""
    meaning = entry.meaning(lang)
    end = meaning.find(". ")
    first = meaning[: end + 1] if end != -1 else meaning
    return _clip(first, limit)


def _button(text: str, callback_data: str) -> Button:
    data = callback_data
    if len(data.encode()) > MAX_CALLBACK_BYTES:  # ids are at most 40 ascii characters
        raise ValueError(f"callback data too long: {data!r}")
    return Button(_clip(text, MAX_BUTTON_TEXT), data)


def _shown_aliases(entry: Entry) -> list[str]:
    # Aliases that only repeat a part of the term ("Stròsa" of "Stròsa/ Fàgh un stros") add
    # nothing to the card.
    term = normalize(entry.term)
    return [a for a in entry.aliases if normalize(a) not in term]


# -- entries -------------------------------------------------------------------------------


def entry_text(glossary: Glossary, tr: Translator, lang: str, entry: Entry) -> str:
    """The HTML card of one entry: term, game and dialect, meaning, literal, note, related."""
    lang = tr.resolve(lang)
    args = {"game": entry.game, "kind": entry.kind, "dialect": entry.dialect}
    lines = [
        tr.get(lang, "glossary-entry-title", term=_esc(entry.term)),
        tr.get(lang, "glossary-entry-subtitle", **args),
    ]
    aliases = _shown_aliases(entry)
    if aliases:
        lines.append(tr.get(lang, "glossary-entry-aliases", aliases=_esc(", ".join(aliases))))
    lines.append("")
    literal = entry.literal(lang)
    if literal:
        lines.append(tr.get(lang, "glossary-entry-literal", text=_esc(literal)))
    lines.append(tr.get(lang, "glossary-entry-meaning", text=_esc(entry.meaning(lang))))
    note = entry.note(lang)
    if note:
        lines.append(tr.get(lang, "glossary-entry-note", text=_esc(note)))
    related = glossary.related(entry)
    if related:
        terms = " · ".join(_esc(r.term) for r in related)
        lines.append(tr.get(lang, "glossary-entry-related", terms=terms))
    return "\n".join(lines)


def render_entry(glossary: Glossary, tr: Translator, lang: str, entry: Entry) -> Rendered:
    """One entry's card, with buttons to its related entries and back to its game."""
    lang = tr.resolve(lang)
    related = [_button(r.term, entry_callback(r.id)) for r in glossary.related(entry)]
    rows = [tuple(related[i : i + 2]) for i in range(0, len(related), 2)]
    back = tr.get(lang, "glossary-button-back-game", game=entry.game)
    rows.append((_button(back, game_callback(entry.game)),))
    return Rendered(entry_text(glossary, tr, lang, entry), tuple(rows))


def _entry_line(entry: Entry, lang: str) -> str:
    return f"• <b>{_esc(entry.term)}</b> — {_esc(short_meaning(entry, lang))}"


def _entry_buttons(entries: list[Entry]) -> list[tuple[Button, ...]]:
    return [(_button(e.term, entry_callback(e.id)),) for e in entries]


# -- search --------------------------------------------------------------------------------


def render_search(
    glossary: Glossary, tr: Translator, lang: str, query: str, game: str | None = None
) -> Rendered:
    """The answer to ``/glossario [term]``: the entry, a list of matches, or suggestions."""
    lang = tr.resolve(lang)
    if not normalize(query):
        return render_browse(glossary, tr, lang)
    matches = glossary.lookup(query, lang=lang, game=game, limit=None)
    shown_query = _esc(_clip(query, 60))
    if not matches or all(m.tier == FUZZY for m in matches):
        return _render_not_found(glossary, tr, lang, shown_query, matches, query, game)
    if _is_single_answer(matches):
        return render_entry(glossary, tr, lang, matches[0].entry)
    listed = [m.entry for m in matches[:MAX_LISTED]]
    lines = [tr.get(lang, "glossary-results-title", query=shown_query)]
    lines += [_entry_line(e, lang) for e in listed]
    if len(matches) > len(listed):
        lines.append(tr.get(lang, "glossary-results-more", count=len(matches) - len(listed)))
    return Rendered("\n".join(lines), tuple(_entry_buttons(listed)))


def _is_single_answer(matches: list[Match]) -> bool:
    """One match only, or exactly one match that names the term as typed."""
    if len(matches) == 1:
        return True
    exact = [m for m in matches if m.tier == EXACT]
    return len(exact) == 1 and matches[0].tier == EXACT


def _render_not_found(
    glossary: Glossary,
    tr: Translator,
    lang: str,
    shown_query: str,
    matches: list[Match],
    query: str,
    game: str | None,
) -> Rendered:
    suggestions = [m.entry for m in matches[:MAX_SUGGESTIONS]]
    if not suggestions:
        suggestions = glossary.suggest(query, game=game, limit=MAX_SUGGESTIONS)
    lines = [tr.get(lang, "glossary-no-results", query=shown_query)]
    if suggestions:
        names = ", ".join(f"<b>{_esc(e.term)}</b>" for e in suggestions)
        lines.append(tr.get(lang, "glossary-did-you-mean", suggestions=names))
        return Rendered("\n".join(lines), tuple(_entry_buttons(suggestions)))
    lines.append(tr.get(lang, "glossary-no-suggestions"))
    return Rendered("\n".join(lines), _games_keyboard(glossary, tr, lang))


# -- browsing ------------------------------------------------------------------------------


def _games_keyboard(
    glossary: Glossary, tr: Translator, lang: str
) -> tuple[tuple[Button, ...], ...]:
    return tuple(
        (
            _button(
                tr.get(lang, "glossary-button-game", game=g, count=len(glossary.by_game(g))),
                game_callback(g),
            ),
        )
        for g in glossary.games
    )


def render_browse(glossary: Glossary, tr: Translator, lang: str) -> Rendered:
    """``/glossario`` without a term: what the glossary is, and a button per game."""
    lang = tr.resolve(lang)
    text = tr.get(lang, "glossary-browse-title") + "\n" + tr.get(lang, "glossary-browse-hint")
    return Rendered(text, _games_keyboard(glossary, tr, lang))


def page_count(glossary: Glossary, game: str) -> int:
    """How many browse pages ``game`` has."""
    return max(1, -(-len(glossary.by_game(game)) // PAGE_SIZE))


def render_game_page(
    glossary: Glossary, tr: Translator, lang: str, game: str, page: int = 0
) -> Rendered:
    """One page of a game's entries: a line each, a button each, and page navigation."""
    lang = tr.resolve(lang)
    entries = glossary.by_game(game)
    pages = page_count(glossary, game)
    if not 0 <= page < pages:
        raise ValueError(f"{game} has pages 0 to {pages - 1}, not {page}")
    shown = entries[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]
    title = tr.get(
        lang,
        "glossary-browse-game-title",
        game=game,
        count=len(entries),
        page=page + 1,
        pages=pages,
    )
    lines = [title, *(_entry_line(e, lang) for e in shown)]
    rows = _entry_buttons(shown)
    nav = []
    if page > 0:
        nav.append(_button(tr.get(lang, "glossary-button-prev"), game_callback(game, page - 1)))
    if page + 1 < pages:
        nav.append(_button(tr.get(lang, "glossary-button-next"), game_callback(game, page + 1)))
    if nav:
        rows.append(tuple(nav))
    rows.append((_button(tr.get(lang, "glossary-button-games"), game_callback(None)),))
    return Rendered("\n".join(lines), tuple(rows))


def render_callback(glossary: Glossary, tr: Translator, lang: str, data: str) -> Rendered:
    """The message for a glossary button press; ``ValueError`` for data that is not valid."""
    parsed = parse_callback(data)
    if isinstance(parsed, EntryCallback):
        if parsed.entry_id not in glossary:
            raise ValueError(f"no glossary entry {parsed.entry_id!r}")
        return render_entry(glossary, tr, lang, glossary.get(parsed.entry_id))
    if parsed.game is None:
        return render_browse(glossary, tr, lang)
    return render_game_page(glossary, tr, lang, parsed.game, parsed.page)


# -- inline mode ---------------------------------------------------------------------------


def inline_results(
    glossary: Glossary, tr: Translator, lang: str, query: str, offset: str = ""
) -> tuple[list[dict[str, str]], str]:
    """Inline answers for ``query`` from ``offset``: (article results, next offset or "")."""
    lang = tr.resolve(lang)
    if offset == "":
        start = 0
    elif offset.isdigit() and len(offset) <= 6:
        start = int(offset)
    else:
        raise ValueError(f"malformed inline offset {offset!r}")
    if normalize(query):
        entries = glossary.search(query, lang=lang, limit=None)
    else:
        entries = list(glossary.entries)
    page = entries[start : start + INLINE_PAGE]
    results = []
    for entry in page:
        description = tr.get(
            lang,
            "glossary-inline-description",
            game=entry.game,
            dialect=entry.dialect,
            meaning=short_meaning(entry, lang, MAX_INLINE_DESCRIPTION),
        )
        results.append(
            {
                "type": "article",
                "id": entry.id,
                "title": _clip(entry.term, MAX_INLINE_TITLE),
                "description": _clip(description, MAX_INLINE_DESCRIPTION),
                "message_text": entry_text(glossary, tr, lang, entry),
                "parse_mode": PARSE_MODE,
            }
        )
    more = start + INLINE_PAGE < len(entries)
    return results, (str(start + INLINE_PAGE) if more else "")
