"""The dialect glossary: its data, its search, its Fluent messages and its Telegram renders."""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.reference.glossary import (
    EXACT,
    FUZZY,
    MEANING,
    PREFIX,
    SUBSTRING,
    Glossary,
    GlossaryError,
    normalize,
)
from bot.reference.glossary_screens import (
    INLINE_PAGE,
    EntryCallback,
    GameCallback,
    Rendered,
    entry_callback,
    game_callback,
    inline_results,
    page_count,
    parse_callback,
    render_browse,
    render_callback,
    render_entry,
    render_game_page,
    render_search,
)
from bot.reference.rules_screens import (
    HOUSE_RULES,
    game_from_text,
    parse_rules_callback,
    render_rules,
    render_rules_choice,
    rule_message_id,
)
from tests.translator import TR

LOCALES = Path(__file__).resolve().parents[3] / "locales"
GLOSSARY = Glossary.load(LOCALES / "glossary")
LANGS = ("it", "en")

# Telegram's limits (telegram.constants: MessageLimit, InlineKeyboardButtonLimit,
# InlineKeyboardMarkupLimit, InlineQueryLimit, InlineQueryResultLimit).
MAX_TEXT = 4096
MAX_CALLBACK_BYTES = 64
MAX_BUTTONS = 100
MAX_BUTTONS_PER_ROW = 8
MAX_INLINE_RESULTS = 50
MAX_INLINE_ID_BYTES = 64

# The source glossary of the Belòta, Ligurian column, in the source's order.
BELOTA_TERMS = (
    "a partìa", "a man", "da’ i papéi", "sérve", "u massé", "esse de man", "zirà", "mandà",
    "passà", "cařà", "respùnde", "refüzà", "l’atù", "mandà sensa", "mandà contru",
    "u valé d’atù", "u catòrze d’atù", "in valé", "in catòrze", "in’assu", "ina manéglia",
    "in re", "ina dona", "l’acüsu", "ina térsa", "u çincànta", "u çéntu", "a belòta",
    "ina térsa d’atù", "u çincànta d’atù", "u çéntu d’atù", "in carré", "cuřù",
    "l’è bon u mei", "litigiu", "marcà", "u marcavù", "a mìza",
)  # fmt: skip

# The Briscola source's "Modi di dire": 39 headings (a heading joining two forms with "/" is one).
BRISCOLA_SAYINGS = 39

# The Cirulla terms the issue names (the source writes the Genoese name "ciappachinze").
CIRULLA_TERMS = (
    "cirulla", "buona dei misci", "decino", "matta", "settebello", "denari", "carte", "primiera",
    "grande", "piccola", "rotta", "scopa", "a monte", "partitone", "cirullone", "ciapachinze",
)  # fmt: skip


def ascii_form(text: str) -> str:
    """How a player without an Italian keyboard types ``text``: no accents, no apostrophes."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub("['’‘`´]", "", plain)


def all_buttons(rendered: Rendered) -> list:
    return [b for row in rendered.keyboard for b in row]


class _TelegramHtml(HTMLParser):
    """Checks text the way Telegram's HTML parse mode does: known tags, balanced, no stray <."""

    ALLOWED = frozenset({"b", "i", "code"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.ALLOWED:
            self.problems.append(f"tag <{tag}>")
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.problems.append(f"unbalanced </{tag}>")

    def handle_entityref(self, name):
        if name not in {"lt", "gt", "amp", "quot"}:
            self.problems.append(f"entity &{name};")


def assert_telegram_html(text: str) -> None:
    assert 1 <= len(text) <= MAX_TEXT
    parser = _TelegramHtml()
    parser.feed(text)
    parser.close()
    assert not parser.problems, parser.problems
    assert not parser.stack, f"unclosed {parser.stack}"
    bare = re.sub(r"</?(b|i|code)>", "", text)
    assert "<" not in bare
    assert not re.search(r"&(?!(lt|gt|amp|quot);)", bare)


def assert_keyboard_within_limits(rendered: Rendered) -> None:
    buttons = all_buttons(rendered)
    assert len(buttons) <= MAX_BUTTONS
    for row in rendered.keyboard:
        assert 1 <= len(row) <= MAX_BUTTONS_PER_ROW
    for b in buttons:
        assert b.text.strip()
        assert 1 <= len(b.callback_data.encode()) <= MAX_CALLBACK_BYTES


# -- the data: every term of the three sources ---------------------------------------------


def test_belota_holds_the_38_ligurian_terms_of_the_source_in_order():
    """Source: 38 Italian definitions, then 38 Ligurian terms in the same order."""
    entries = GLOSSARY.by_game("belota")
    assert tuple(e.term for e in entries) == BELOTA_TERMS
    assert all(e.dialect == "lij" for e in entries)


@pytest.mark.parametrize(
    ("term", "definition_start"),
    [
        ("a partìa", "partita - "),
        ("u massé", "mazziere - "),
        ("esse de man", "trovarsi a dover dare inizio alla mano"),
        ("u valé d’atù", "fante d’onore - "),
        ("u catòrze d’atù", "nove d’onore - "),
        ("ina dona", "carta regina - "),
        ("u çincànta", "accuso di quattro carte consecutive nel seme, "),
        ("cuřù", "accuso dell’intera dotazione in un unico seme"),
        ("litigiu", "punti in parità bloccati"),
        ("a mìza", "posta in gioco"),
    ],
)
def test_belota_terms_are_paired_with_the_definition_at_the_same_position(term, definition_start):
    """The n-th Ligurian term of the source translates the n-th Italian definition."""
    (entry,) = [e for e in GLOSSARY.by_game("belota") if e.term == term]
    assert entry.meaning_it.startswith(definition_start)


def test_briscola_holds_every_emilian_saying_of_the_source():
    """Source: "Modi di dire del gioco della briscola", each with the literal Italian."""
    sayings = [e for e in GLOSSARY.by_game("briscola") if e.kind == "saying"]
    assert len(sayings) == BRISCOLA_SAYINGS
    assert all(e.dialect == "egl" and e.literal_it and e.literal_en for e in sayings)
    terms = {e.term for e in sayings}
    assert "Stròsa ed màs’c/Stròsa ad fèmna" in terms
    assert "Questa ché l’è nada un dé prìma" in terms
    assert "Èsar in césa (o in dòm)" in terms


@pytest.mark.parametrize("term", CIRULLA_TERMS)
def test_cirulla_vocabulary_named_by_the_issue_is_answered_exactly(term):
    (match, *_) = GLOSSARY.lookup(term)
    assert match.entry.game == "cirulla"
    assert match.tier == EXACT


def test_every_entry_has_both_meanings_and_valid_links():
    for e in GLOSSARY:
        assert e.meaning_it.strip() and e.meaning_en.strip()
        assert e.dialect in {"lij", "egl", "it"}
        assert all(r in GLOSSARY for r in e.related)
        assert len(entry_callback(e.id).encode()) <= MAX_CALLBACK_BYTES


def test_no_two_entries_share_a_written_form():
    """Otherwise typing a term exactly could not find its entry first."""
    owner: dict[str, str] = {}
    for e in GLOSSARY:
        for form in e.forms:
            key = normalize(form).replace(" ", "")
            assert owner.setdefault(key, e.id) == e.id, (form, owner[key], e.id)


# -- search: every entry, however it is typed ----------------------------------------------


@pytest.mark.parametrize("entry", GLOSSARY.entries, ids=lambda e: e.id)
def test_every_entry_is_found_first_by_its_exact_form(entry):
    assert GLOSSARY.search(entry.term)[0] == entry


@pytest.mark.parametrize("entry", GLOSSARY.entries, ids=lambda e: e.id)
def test_every_entry_is_found_first_without_accents_or_apostrophes(entry):
    typed = ascii_form(entry.term)
    assert typed.isascii()
    assert GLOSSARY.search(typed)[0] == entry
    assert GLOSSARY.search(typed.upper())[0] == entry


@pytest.mark.parametrize("entry", GLOSSARY.entries, ids=lambda e: e.id)
def test_every_entry_is_found_first_with_a_straight_apostrophe(entry):
    assert GLOSSARY.search(re.sub("[’‘`´]", "'", entry.term))[0] == entry


@pytest.mark.parametrize("entry", [e for e in GLOSSARY.entries if e.aliases], ids=lambda e: e.id)
def test_every_alias_finds_its_entry_first(entry):
    for alias in entry.aliases:
        assert GLOSSARY.search(alias)[0] == entry
        assert GLOSSARY.search(ascii_form(alias))[0] == entry


@pytest.mark.parametrize(
    ("query", "entry_id"),
    [
        ("u çincànta d'atù", "cincanta-d-atu"),  # straight apostrophe for the source's ’
        ("u cincanta d atu", "cincanta-d-atu"),
        ("stròsa ad fèmna", "strosa-masc-femna"),  # one form of a two-form heading
        ("strosa ad femna", "strosa-masc-femna"),
        ("l'atù", "atu"),
        ("atu", "atu"),  # without the elided article
        ("u vale", "vale"),  # with another article than the source's "in valé"
        ("assu", "assu"),
        ("zugar un caragh ch'al staga in pee da per lu", "zugar-un-caragh-in-pee"),
        ("gh vat per dritt", "gh-vat-per-dritt"),
        ("CARRÉ DE VALÉ", "carre"),
        ("ciapachinze", "ciappachinze"),
    ],
)
def test_terms_are_found_however_they_are_typed(query, entry_id):
    assert GLOSSARY.search(query)[0].id == entry_id


@pytest.mark.parametrize(
    ("query", "lang", "entry_id"),
    [
        ("fante d'onore", "it", "vale-d-atu"),  # the issue's example
        ("fante d’onore", "it", "vale-d-atu"),
        ("nove d'onore", "it", "catorze-d-atu"),
        ("mazziere", "it", "masse"),
        ("posta in gioco", "it", "miza"),
        ("strozza di femmina", "it", "strosa-masc-femna"),  # the literal Italian
        ("jack of trumps", "en", "vale-d-atu"),
        ("the stake", "en", "miza"),
    ],
)
def test_terms_are_found_by_their_meaning(query, lang, entry_id):
    match = GLOSSARY.lookup(query, lang=lang)[0]
    assert match.entry.id == entry_id
    assert match.tier == MEANING


@pytest.mark.parametrize(
    ("query", "entry_id"),
    [
        ("cincanta", "cincanta"),
        ("setebello", "settebello"),
        ("settebelo", "settebello"),
        ("primera", "primiera"),
        ("partitonne", "partitone"),
        ("strosa ad femma", "strosa-masc-femna"),
        ("brisculna", "brisculina"),
    ],
)
def test_typos_find_the_closest_term(query, entry_id):
    assert GLOSSARY.search(query)[0].id == entry_id


def test_exact_comes_before_prefix_before_substring():
    matches = GLOSSARY.lookup("cincanta", limit=None)
    assert [m.entry.id for m in matches[:2]] == ["cincanta", "cincanta-d-atu"]
    assert [m.tier for m in matches[:2]] == [EXACT, PREFIX]
    assert GLOSSARY.lookup("datu", limit=None)[0].tier == SUBSTRING


def test_typo_search_is_skipped_when_a_term_matches_as_typed():
    """Near misses would only crowd an answer that already names the term."""
    assert all(m.tier != FUZZY for m in GLOSSARY.lookup("settebello", limit=None))


def test_search_by_game_keeps_to_that_game():
    assert {e.game for e in GLOSSARY.search("carta", limit=None)} == {
        "belota",
        "briscola",
        "cirulla",
    }
    assert {e.game for e in GLOSSARY.search("carta", game="briscola", limit=None)} == {"briscola"}
    assert GLOSSARY.search("sensa")[0].id == "manda-sensa"
    assert "manda-sensa" not in [e.id for e in GLOSSARY.search("sensa", game="cirulla")]


def test_search_rejects_bad_arguments():
    with pytest.raises(ValueError, match="unknown game"):
        GLOSSARY.search("matta", game="poker")
    with pytest.raises(ValueError, match="limit"):
        GLOSSARY.search("matta", limit=0)
    with pytest.raises(TypeError):
        GLOSSARY.search(None)  # type: ignore[arg-type]


def test_empty_or_punctuation_queries_find_nothing():
    assert GLOSSARY.search("") == []
    assert GLOSSARY.search("  ’?! ") == []


@settings(max_examples=60, deadline=None)
@given(query=st.text(max_size=40), limit=st.integers(min_value=1, max_value=60))
def test_any_query_gives_ranked_unique_results_within_the_limit(query, limit):
    matches = GLOSSARY.lookup(query, limit=limit)
    assert len(matches) <= limit
    assert len({m.entry.id for m in matches}) == len(matches)
    order = [EXACT, PREFIX, SUBSTRING, MEANING, FUZZY]
    ranks = [(order.index(m.tier), m.score) for m in matches]
    assert ranks == sorted(ranks)


def test_get_and_by_game():
    assert GLOSSARY.get("vale-d-atu").term == "u valé d’atù"
    with pytest.raises(KeyError, match="nope"):
        GLOSSARY.get("nope")
    with pytest.raises(ValueError, match="unknown game"):
        GLOSSARY.by_game("poker")
    assert len(GLOSSARY) == sum(len(GLOSSARY.by_game(g)) for g in GLOSSARY.games)


# -- loading: bad files are refused with a clear error --------------------------------------

_GOOD_ENTRY = """
[[entry]]
id = "matta"
term = "matta"
dialect = "it"
game = "cirulla"
kind = "term"
meaning_it = "Il sette di cuori."
meaning_en = "The seven of hearts."
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('game = "cirulla"\n[[entry]\n', "cirulla.toml"),
        ('game = "poker"\n' + _GOOD_ENTRY, "'game' must be one of"),
        ('game = "cirulla"\n', "no \\[\\[entry\\]\\] tables"),
        ('game = "cirulla"\n' + _GOOD_ENTRY + _GOOD_ENTRY, "duplicate id 'matta'"),
        ('game = "cirulla"\n' + _GOOD_ENTRY.replace('"it"', '"fr"'), "'dialect'"),
        ('game = "cirulla"\n' + _GOOD_ENTRY.replace('id = "matta"', 'id = "Matta!"'), "slug"),
        ('game = "cirulla"\n' + _GOOD_ENTRY.replace('"term"', '"saying"'), "literal"),
        ('game = "cirulla"\n' + _GOOD_ENTRY + 'related = ["nope"]\n', "'nope' does not exist"),
        ('game = "cirulla"\n' + _GOOD_ENTRY + 'colour = "red"\n', "unknown field"),
        (
            'game = "cirulla"\n' + _GOOD_ENTRY.replace('meaning_en = "The seven of hearts."', ""),
            "'meaning_en'",
        ),
        ('game = "briscola"\n' + _GOOD_ENTRY, "in the file of 'briscola'"),
    ],
)
def test_a_bad_glossary_file_is_refused_naming_the_problem(tmp_path, text, message):
    (tmp_path / "cirulla.toml").write_text(text, encoding="utf-8")
    with pytest.raises(GlossaryError, match=message):
        Glossary.load(tmp_path)


def test_a_missing_glossary_path_is_refused(tmp_path):
    with pytest.raises(GlossaryError, match="no such file"):
        Glossary.load(tmp_path / "missing")
    with pytest.raises(GlossaryError, match="no glossary files"):
        Glossary.load(tmp_path)


# -- Fluent messages -----------------------------------------------------------------------


# -- renders within Telegram's limits ------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_entry_card_fits_telegram(lang):
    for entry in GLOSSARY:
        rendered = render_entry(GLOSSARY, TR, lang, entry)
        assert_telegram_html(rendered.text)
        assert_keyboard_within_limits(rendered)
        assert rendered.text.startswith(f"<b>{entry.term}</b>")


def test_entry_card_shows_dialect_meaning_literal_and_related():
    text = render_entry(GLOSSARY, TR, "it", GLOSSARY.get("strosa-masc-femna")).text
    assert "Dialetto: emiliano" in text
    assert "<b>Significato:</b> Lo strozzo di maschio" in text
    assert "<b>Letteralmente:</b> «Strozza di maschio / Strozza di femmina»" in text
    assert "<b>Vedi anche:</b> strozzo" in text
    text = render_entry(GLOSSARY, TR, "en", GLOSSARY.get("vale-d-atu")).text
    assert "Dialect: Ligurian" in text
    assert "<b>Meaning:</b> jack of trumps" in text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ["belota", "briscola", "cirulla"])
def test_every_browse_page_fits_telegram_and_links_every_entry(lang, game):
    seen = []
    for page in range(page_count(GLOSSARY, game)):
        rendered = render_game_page(GLOSSARY, TR, lang, game, page)
        assert_telegram_html(rendered.text)
        assert_keyboard_within_limits(rendered)
        for b in all_buttons(rendered):
            parsed = parse_callback(b.callback_data)
            if isinstance(parsed, EntryCallback):
                seen.append(parsed.entry_id)
    assert seen == [e.id for e in GLOSSARY.by_game(game)]
    with pytest.raises(ValueError):
        render_game_page(GLOSSARY, TR, lang, game, page_count(GLOSSARY, game))


@pytest.mark.parametrize("lang", LANGS)
def test_browse_without_a_term_offers_a_button_per_game(lang):
    rendered = render_search(GLOSSARY, TR, lang, "   ")
    assert rendered == render_browse(GLOSSARY, TR, lang)
    assert [b.callback_data for b in all_buttons(rendered)] == [
        "g:belota",
        "g:briscola",
        "g:cirulla",
    ]
    assert_telegram_html(rendered.text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "query", ["u çincànta d'atù", "stròsa ad fèmna", "a", "carta", "setebello", "xyzzy", "<b>&"]
)
def test_search_answers_fit_telegram(lang, query):
    rendered = render_search(GLOSSARY, TR, lang, query)
    assert_telegram_html(rendered.text)
    assert_keyboard_within_limits(rendered)


def test_search_answer_shows_the_entry_for_an_exact_term_and_a_list_otherwise():
    single = render_search(GLOSSARY, TR, "it", "u çincànta d'atù")
    assert single.text.startswith("<b>u çincànta d’atù</b>")
    listing = render_search(GLOSSARY, TR, "it", "zugar")
    assert listing.text.startswith("Risultati per «zugar»:")
    assert len(all_buttons(listing)) == 5


def test_no_results_says_so_and_suggests_close_terms():
    rendered = render_search(GLOSSARY, TR, "it", "setebello")
    assert rendered.text.startswith("Nessun risultato per «setebello».")
    assert "Forse cercavi: <b>settebello</b>" in rendered.text
    assert [b.callback_data for b in all_buttons(rendered)] == ["ge:settebello"]


def test_user_text_is_escaped():
    rendered = render_search(GLOSSARY, TR, "en", "<script>&")
    assert "&lt;script&gt;&amp;" in rendered.text


@pytest.mark.parametrize(
    "data", ["g:", "g:belota", "g:cirulla:2", "ge:matta", "ge:strosa-masc-femna"]
)
def test_callbacks_round_trip(data):
    rendered = render_callback(GLOSSARY, TR, "it", data)
    assert_telegram_html(rendered.text)
    parsed = parse_callback(data)
    if isinstance(parsed, GameCallback):
        assert game_callback(parsed.game, parsed.page) == data
    else:
        assert entry_callback(parsed.entry_id) == data


@pytest.mark.parametrize(
    "data",
    ["", "x:belota", "g:poker", "g:belota:x", "g:belota:1:2", "ge:", "ge:nope", "g:cirulla:9"],
)
def test_malformed_or_stale_callbacks_are_refused(data):
    with pytest.raises(ValueError):
        render_callback(GLOSSARY, TR, "it", data)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("query", ["", "a", "strosa", "fante", "setebello"])
def test_inline_results_fit_telegram(lang, query):
    results, next_offset = inline_results(GLOSSARY, TR, lang, query)
    assert len(results) <= MAX_INLINE_RESULTS
    assert len({r["id"] for r in results}) == len(results)
    for r in results:
        assert 1 <= len(r["id"].encode()) <= MAX_INLINE_ID_BYTES
        assert 1 <= len(r["title"]) <= 64
        assert len(r["description"]) <= 120
        assert_telegram_html(r["message_text"])
        assert r["parse_mode"] == "HTML"
    assert len(next_offset.encode()) <= 64


def test_inline_pages_cover_every_entry_once():
    ids, offset = [], ""
    while True:
        results, offset = inline_results(GLOSSARY, TR, "it", "", offset)
        assert len(results) <= INLINE_PAGE
        ids += [r["id"] for r in results]
        if not offset:
            break
    assert ids == [e.id for e in GLOSSARY]


def test_inline_query_for_a_saying_offers_it_first():
    results, _ = inline_results(GLOSSARY, TR, "it", "stròsa ad fèmna")
    assert results[0]["id"] == "strosa-masc-femna"
    assert results[0]["title"] == "Stròsa ed màs’c/Stròsa ad fèmna"


def test_inline_rejects_a_malformed_offset():
    with pytest.raises(ValueError, match="offset"):
        inline_results(GLOSSARY, TR, "it", "", "abc")


# -- /regole -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ["belota", "briscola", "cirulla"])
def test_rules_summary_and_house_rules_fit_telegram(lang, game):
    summary = TR.get(lang, f"rules-summary-{game}")
    assert len(summary) < MAX_TEXT // 2  # "well under" the limit, house rules follow
    text = render_rules(TR, lang, game)
    assert_telegram_html(text)
    assert text.count("\n• ") >= len(HOUSE_RULES[game])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("game", "name"), [(g, n) for g, rules in HOUSE_RULES.items() for n in rules]
)
def test_every_house_rule_has_a_message_in_each_language(lang, game, name):
    assert rule_message_id(game, name) in TR.message_ids(lang)


@pytest.mark.parametrize(
    ("game", "rules", "lang", "expected"),
    [
        ("cirulla", {"target": 71}, "it", "<b>Traguardo</b>: 71 punti"),
        ("cirulla", {"matta_card": "QH"}, "it", "<b>La matta</b>: la donna di cuori"),
        ("cirulla", {"aces_void": False}, "en", "<b>Two aces on the table</b>: play on"),
        ("briscola", {"raggi": 3}, "en", "<b>Raggi</b>: 3, the first to win 3 deals wins"),
        ("briscola", {}, "it", "<b>Raggi</b>: uno, si gioca una partita sola"),
        ("belota", {"target": 1500}, "it", "<b>Traguardo</b>: 1.500 punti"),
        ("belota", {"dedans": False}, "en", "<b>Failed contract</b>: each side (pair or player)"),
    ],
)
def test_rules_show_the_house_rules_in_force(game, rules, lang, expected):
    assert expected in render_rules(TR, lang, game, rules)


def test_rules_refuse_unknown_games_and_rules():
    with pytest.raises(ValueError, match="unknown game"):
        render_rules(TR, "it", "poker")
    with pytest.raises(ValueError, match="unknown house rule 'jokers'"):
        render_rules(TR, "it", "briscola", {"jokers": True})


@pytest.mark.parametrize(
    ("text", "game"),
    [("Belòta", "belota"), ("BRISCOLA", "briscola"), ("ciapachinze", "cirulla"), ("poker", None)],
)
def test_rules_game_names_are_read_leniently(text, game):
    assert game_from_text(TR, text) == game


def test_rules_choice_offers_each_game():
    rendered = render_rules_choice(TR, "en")
    assert [parse_rules_callback(b.callback_data) for b in all_buttons(rendered)] == [
        "belota",
        "briscola",
        "cirulla",
    ]
    with pytest.raises(ValueError):
        parse_rules_callback("r:poker")
