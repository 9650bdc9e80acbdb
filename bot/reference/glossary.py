"""The dialect glossary: entries loaded from ``locales/glossary/*.toml`` and a forgiving search.

Players type terms the way they hear them: without accents or cedillas, with whatever apostrophe
their keyboard makes, with or without the article, sometimes misspelt. Every entry's forms are
normalised once at load time, so a search (one per keystroke in inline mode) only compares short
ASCII strings.
"""

from __future__ import annotations

import difflib
import functools
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.core.i18n import fold

GAMES = ("belota", "briscola", "cirulla")
DIALECTS = ("lij", "egl", "it")
KINDS = ("term", "saying")

# Match tiers, best first.
EXACT, PREFIX, SUBSTRING, MEANING, FUZZY = "exact", "prefix", "substring", "meaning", "fuzzy"
_TIER_RANK = {EXACT: 0, PREFIX: 1, SUBSTRING: 2, MEANING: 3, FUZZY: 4}

# After accents are gone, anything that is not a letter, digit, space or apostrophe separates words.
_SEPARATOR_RE = re.compile(r"[^a-z0-9' ]+")

# Leading articles that players may add or leave out: Ligurian (u, a, i, in, ina, l'), Emilian
# (al, la, 'na), Italian and English. Only the first word is ever dropped.
_ARTICLES = frozenset(
    {"u", "a", "i", "in", "ina", "l", "al", "la", "na"}
    | {"il", "lo", "le", "gli", "un", "una", "uno", "the", "an"}
)

# Queries are cut here: a glossary term is never longer, and fuzzy matching stays cheap.
MAX_QUERY = 100
_MIN_MEANING_QUERY = 3  # shorter queries would match a word in most meanings
_MIN_FUZZY_QUERY = 3
_FUZZY_CUTOFF = 0.75
_FUZZY_WORD_CUTOFF = 0.8

_ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_ID_LENGTH = 40
_REQUIRED = ("id", "term", "dialect", "game", "kind", "meaning_it", "meaning_en")
_OPTIONAL = ("literal_it", "literal_en", "note_it", "note_en", "related", "aliases")


class GlossaryError(ValueError):
    """A glossary file that cannot be loaded: the message names the file and the entry."""


@dataclass(frozen=True)
class Entry:
    """One glossary term or saying, with its meaning in Italian and English."""

    id: str
    term: str
    dialect: str
    game: str
    kind: str
    meaning_it: str
    meaning_en: str
    literal_it: str | None = None
    literal_en: str | None = None
    note_it: str | None = None
    note_en: str | None = None
    related: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()

    def meaning(self, lang: str) -> str:
        """The meaning in ``lang`` (English for ``"en"``, Italian otherwise)."""
        return self.meaning_en if lang == "en" else self.meaning_it

    def literal(self, lang: str) -> str | None:
        """The literal translation in ``lang``, if the entry has one."""
        return self.literal_en if lang == "en" else self.literal_it

    def note(self, lang: str) -> str | None:
        """The note in ``lang``, if the entry has one."""
        return self.note_en if lang == "en" else self.note_it

    @property
    def forms(self) -> tuple[str, ...]:
        """The term and its aliases, as written."""
        return (self.term, *self.aliases)


@dataclass(frozen=True)
class Match:
    """A search hit: the entry, how it matched (``EXACT`` ... ``FUZZY``) and a rank within it."""

    entry: Entry
    tier: str
    score: float


def _words(text: str) -> list[str]:
    """Folded words of ``text``, an elided article kept as its own word (``l'atu`` -> l, atu)."""
    text = _SEPARATOR_RE.sub(" ", fold(text))
    words = []
    for chunk in text.split():
        head, sep, tail = chunk.partition("'")
        tail = tail.replace("'", "")
        if sep and head in _ARTICLES and tail:
            words += [head, tail]
        else:
            words.append(chunk.replace("'", ""))
    return [w for w in words if w]


def _joined(words: list[str]) -> str:
    return " ".join(words)


def normalize(text: str) -> str:
    """Matching form of ``text``: folded, apostrophes and punctuation removed, spaces collapsed."""
    return _joined(_SEPARATOR_RE.sub(" ", fold(text).replace("'", "")).split())


def _variants(text: str) -> tuple[str, ...]:
    """Normalised forms of ``text``: as written, and without a leading article."""
    words = _words(text)
    if not words:
        return ()
    full = normalize(text)
    if len(words) > 1 and words[0] in _ARTICLES:
        bare = _joined(words[1:])
        if bare != full:
            return (full, bare)
    return (full,)


@dataclass(frozen=True)
class _Keys:
    """Precomputed matching forms of one entry."""

    forms: tuple[str, ...]  # normalised term and aliases, with and without articles
    form_words: tuple[tuple[str, ...], ...]  # the words of each form
    compact: tuple[str, ...]  # the same without spaces: "u cincanta datu" -> "ucincantadatu"
    term_compact: frozenset[str]  # compact forms of the term itself (not aliases)
    meanings: tuple[tuple[int, str], ...]  # (priority by language, normalised text)


class Glossary:
    """All glossary entries, in file order, with precomputed keys for searching."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries: tuple[Entry, ...] = tuple(entries)
        self._by_id = {e.id: e for e in self.entries}
        if len(self._by_id) != len(self.entries):
            raise GlossaryError("duplicate entry ids")
        self._order = {e.id: i for i, e in enumerate(self.entries)}
        self._keys = {e.id: self._make_keys(e) for e in self.entries}

    # -- loading ---------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | Path) -> Glossary:
        """Load one ``.toml`` file, or every ``.toml`` file of a directory (games in order)."""
        path = Path(path)
        if path.is_dir():
            files = sorted(path.glob("*.toml"), key=_file_order)
            if not files:
                raise GlossaryError(f"{path}: no glossary files (*.toml)")
        elif path.is_file():
            files = [path]
        else:
            raise GlossaryError(f"{path}: no such file or directory")
        entries: list[Entry] = []
        for file in files:
            entries += _load_file(file)
        _check_ids(entries)
        return cls(entries)

    # -- lookups ---------------------------------------------------------------------------

    def get(self, entry_id: str) -> Entry:
        """The entry with ``entry_id``; ``KeyError`` naming it if there is none."""
        try:
            return self._by_id[entry_id]
        except (KeyError, TypeError):
            raise KeyError(f"no glossary entry {entry_id!r}") from None

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._by_id

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def games(self) -> tuple[str, ...]:
        """The games that have entries, in the usual order."""
        present = {e.game for e in self.entries}
        return tuple(g for g in GAMES if g in present)

    def by_game(self, game: str) -> list[Entry]:
        """The entries of ``game`` in file order; ``ValueError`` for an unknown game."""
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
        return [e for e in self.entries if e.game == game]

    def related(self, entry: Entry) -> list[Entry]:
        """The entries ``entry`` refers to, in its order."""
        return [self._by_id[i] for i in entry.related]

    # -- searching -------------------------------------------------------------------------

    def search(
        self, query: str, lang: str = "it", game: str | None = None, limit: int | None = 10
    ) -> list[Entry]:
        """Entries matching ``query``, best first: exact, prefix, substring, meaning, typo."""
        return [m.entry for m in self.lookup(query, lang=lang, game=game, limit=limit)]

    def lookup(
        self, query: str, lang: str = "it", game: str | None = None, limit: int | None = 10
    ) -> list[Match]:
        """Like ``search``, with how each entry matched; ``limit=None`` returns every match."""
        if not isinstance(query, str):
            raise TypeError(f"query must be a string, not {type(query).__name__}")
        if game is not None and game not in GAMES:
            raise ValueError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
        if limit is not None and limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        variants = _variants(query[:MAX_QUERY])
        if not variants:
            return []
        entries = self.entries if game is None else [e for e in self.entries if e.game == game]
        q_compact = tuple(v.replace(" ", "") for v in variants)
        best: dict[str, tuple[int, float]] = {}

        def offer(entry: Entry, tier: str, score: float) -> None:
            key = (_TIER_RANK[tier], score)
            if entry.id not in best or key < best[entry.id]:
                best[entry.id] = key

        for entry in entries:
            hit = self._match_forms(entry, variants, q_compact)
            if hit is not None:
                offer(entry, *hit)
        if len(q_compact[-1]) >= _MIN_MEANING_QUERY:
            for entry in entries:
                if entry.id not in best:
                    score = self._match_meaning(entry, variants[-1], lang)
                    if score is not None:
                        offer(entry, MEANING, score)
        # Typos are looked for only when the query matched no term or alias as typed: a query
        # that names a term is not misspelt, and near misses would only crowd the answer.
        wanted = len(entries) if limit is None else limit
        found_forms = any(rank < _TIER_RANK[MEANING] for rank, _ in best.values())
        if not found_forms and len(best) < wanted and len(q_compact[-1]) >= _MIN_FUZZY_QUERY:
            for entry in entries:
                if entry.id not in best:
                    score = self._match_fuzzy(entry, variants)
                    if score is not None:
                        offer(entry, FUZZY, score)
        tiers = {rank: tier for tier, rank in _TIER_RANK.items()}
        ranked = sorted(best.items(), key=lambda kv: (kv[1], self._order[kv[0]]))
        if limit is not None:
            ranked = ranked[:limit]
        return [Match(self._by_id[i], tiers[rank], score) for i, (rank, score) in ranked]

    def suggest(self, query: str, game: str | None = None, limit: int = 3) -> list[Entry]:
        """Close matches for a query that found nothing, for a "did you mean" line."""
        variants = _variants(query[:MAX_QUERY])
        if not variants:
            return []
        scored = []
        for entry in self.entries:
            if game is not None and entry.game != game:
                continue
            score = self._match_fuzzy(entry, variants, cutoff=0.6, word_cutoff=0.7)
            if score is not None:
                scored.append((score, self._order[entry.id], entry))
        scored.sort(key=lambda t: t[:2])
        return [e for _, _, e in scored[:limit]]

    # -- matching internals ----------------------------------------------------------------

    @staticmethod
    def _make_keys(entry: Entry) -> _Keys:
        forms: list[str] = []
        term_forms = _variants(entry.term)
        for text in entry.forms:
            for v in _variants(text):
                if v not in forms:
                    forms.append(v)
        compact = tuple(dict.fromkeys(f.replace(" ", "") for f in forms))
        meanings = []
        for priority, text in enumerate(
            (
                entry.meaning_it,
                entry.meaning_en,
                entry.literal_it,
                entry.literal_en,
                entry.note_it,
                entry.note_en,
            )
        ):
            if text:
                meanings.append((priority, normalize(text)))
        return _Keys(
            forms=tuple(forms),
            form_words=tuple(tuple(f.split()) for f in forms),
            compact=compact,
            term_compact=frozenset(f.replace(" ", "") for f in term_forms),
            meanings=tuple(meanings),
        )

    def _match_forms(
        self, entry: Entry, variants: tuple[str, ...], q_compact: tuple[str, ...]
    ) -> tuple[str, float] | None:
        keys = self._keys[entry.id]
        # Exact: spaces and apostrophes do not count ("ch ’al" = "ch'al" = "chal").
        for q in q_compact:
            if q in keys.term_compact:
                return EXACT, 0.0
            if q in keys.compact:
                return EXACT, 0.5
        for q in q_compact:
            shortest = min((len(k) for k in keys.compact if k.startswith(q)), default=None)
            if shortest is not None:
                return PREFIX, float(shortest)
        for v in variants:
            for form in keys.forms:
                if f" {v}" in f" {form}":  # at the start of a word
                    return SUBSTRING, float(len(form))
        for q in q_compact:
            if any(q in k for k in keys.compact):
                return SUBSTRING, 1000.0 + min(len(k) for k in keys.compact if q in k)
        return None

    def _match_meaning(self, entry: Entry, query: str, lang: str) -> float | None:
        keys = self._keys[entry.id]
        long_words = [w for w in query.split() if len(w) > 1]
        best: float | None = None
        for priority, text in keys.meanings:
            # Fields in the asker's language come first: it (0, 2, 4), en (1, 3, 5).
            rank = priority + (1 if (priority % 2 == 1) != (lang == "en") else 0) * 0.5
            padded = f" {text}"
            if text.startswith(query):
                score = rank
            elif f" {query}" in padded:
                score = 10 + rank
            elif long_words and all(f" {w}" in padded for w in long_words):
                score = 20 + rank
            else:
                continue
            if best is None or score < best:
                best = score
        return best

    def _match_fuzzy(
        self,
        entry: Entry,
        variants: tuple[str, ...],
        cutoff: float = _FUZZY_CUTOFF,
        word_cutoff: float = _FUZZY_WORD_CUTOFF,
    ) -> float | None:
        keys = self._keys[entry.id]
        best = 0.0
        for q in variants:
            # The query is the matcher's second sequence: difflib indexes that one, once.
            matcher = difflib.SequenceMatcher(b=q, autojunk=False)
            n = len(q.split())
            for form, form_words in zip(keys.forms, keys.form_words, strict=True):
                matcher.set_seq1(form)
                if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
                    ratio = matcher.ratio()
                    if ratio >= cutoff:
                        best = max(best, ratio)
                # A typo in a few words of a longer saying: compare with windows of as many
                # words. Such a match ranks below a whole-form match of the same quality.
                if len(q) < 4 or n >= len(form_words):
                    continue
                for i in range(len(form_words) - n + 1):
                    matcher.set_seq1(" ".join(form_words[i : i + n]))
                    if (
                        matcher.real_quick_ratio() >= word_cutoff
                        and matcher.quick_ratio() >= word_cutoff
                    ):
                        ratio = matcher.ratio()
                        if ratio >= word_cutoff:
                            best = max(best, ratio - 0.05)
        return 1.0 - best if best > 0 else None


# -- loading files ---------------------------------------------------------------------------


def _file_order(path: Path) -> tuple[int, str]:
    return (GAMES.index(path.stem) if path.stem in GAMES else len(GAMES), path.name)


def _load_file(file: Path) -> list[Entry]:
    try:
        with file.open("rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise GlossaryError(f"{file.name}: {exc}") from None
    game = data.get("game")
    if game not in GAMES:
        raise GlossaryError(f"{file.name}: 'game' must be one of {', '.join(GAMES)}")
    raw_entries = data.get("entry")
    if not isinstance(raw_entries, list) or not raw_entries:
        raise GlossaryError(f"{file.name}: no [[entry]] tables")
    return [_entry(file.name, game, i, raw) for i, raw in enumerate(raw_entries)]


def _entry(file: str, game: str, index: int, raw: object) -> Entry:
    where = f"{file}: entry {index + 1}"
    if not isinstance(raw, dict):
        raise GlossaryError(f"{where}: not a table")
    if isinstance(raw.get("id"), str):
        where = f"{file}: entry {raw['id']!r}"
    unknown = set(raw) - set(_REQUIRED) - set(_OPTIONAL)
    if unknown:
        raise GlossaryError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    for name in _REQUIRED:
        value = raw.get(name)
        if not isinstance(value, str) or not value.strip():
            raise GlossaryError(f"{where}: '{name}' must be a non-empty string")
    for name in ("literal_it", "literal_en", "note_it", "note_en"):
        if name in raw and (not isinstance(raw[name], str) or not raw[name].strip()):
            raise GlossaryError(f"{where}: '{name}' must be a non-empty string")
    for name in ("related", "aliases"):
        value = raw.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise GlossaryError(f"{where}: '{name}' must be a list of non-empty strings")
    if not _ID_RE.match(raw["id"]) or len(raw["id"]) > MAX_ID_LENGTH:
        raise GlossaryError(
            f"{where}: 'id' must be a lowercase ascii slug of at most {MAX_ID_LENGTH} characters"
        )
    if raw["game"] != game:
        raise GlossaryError(f"{where}: game {raw['game']!r} in the file of {game!r}")
    if raw["dialect"] not in DIALECTS:
        raise GlossaryError(f"{where}: 'dialect' must be one of {', '.join(DIALECTS)}")
    if raw["kind"] not in KINDS:
        raise GlossaryError(f"{where}: 'kind' must be one of {', '.join(KINDS)}")
    if raw["kind"] == "saying" and not ("literal_it" in raw and "literal_en" in raw):
        raise GlossaryError(f"{where}: a saying needs 'literal_it' and 'literal_en'")
    if not normalize(raw["term"]):
        raise GlossaryError(f"{where}: 'term' has no letters")
    return Entry(
        id=raw["id"],
        term=raw["term"],
        dialect=raw["dialect"],
        game=raw["game"],
        kind=raw["kind"],
        meaning_it=raw["meaning_it"],
        meaning_en=raw["meaning_en"],
        literal_it=raw.get("literal_it"),
        literal_en=raw.get("literal_en"),
        note_it=raw.get("note_it"),
        note_en=raw.get("note_en"),
        related=tuple(raw.get("related", ())),
        aliases=tuple(raw.get("aliases", ())),
    )


def _check_ids(entries: list[Entry]) -> None:
    seen: dict[str, Entry] = {}
    for e in entries:
        if e.id in seen:
            raise GlossaryError(f"duplicate id {e.id!r} ({seen[e.id].game} and {e.game})")
        seen[e.id] = e
    for e in entries:
        for r in e.related:
            if r not in seen:
                raise GlossaryError(f"entry {e.id!r}: related id {r!r} does not exist")
            if r == e.id:
                raise GlossaryError(f"entry {e.id!r}: related to itself")


DEFAULT_DIR = Path(__file__).resolve().parents[2] / "locales" / "glossary"


@functools.cache
def default_glossary() -> Glossary:
    """The bot's glossary (``locales/glossary``), read once per process."""
    return Glossary.load(DEFAULT_DIR)
