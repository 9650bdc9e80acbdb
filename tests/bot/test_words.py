"""Every word right: whole games of each kind in English show no Italian-only text (each
rendered text checked against the Italian catalogue) and in Italian no English-only text; each
game uses its own terms in its table, hand and results; card faces; and every command reads a
game's name the same way."""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from fluent.syntax import FluentParser, ast

from bot.app import LOCALES_DIR
from bot.core.i18n import fold, read_game
from bot.games.base import card_text, game_terms
from bot.reference.glossary import default_glossary
from bot.reference.rules_screens import game_from_text
from tests.bot.conftest import TR, Table
from tests.fake_telegram import FakeTelegram

# -- the catalogues ----------------------------------------------------------------------------


def _text_elements(node: Any) -> Iterator[str]:
    """The literal text of a Fluent pattern, variants of select expressions included."""
    if isinstance(node, ast.TextElement | ast.StringLiteral):
        yield node.value
    elif isinstance(node, ast.Pattern):
        for element in node.elements:
            yield from _text_elements(element)
    elif isinstance(node, ast.Placeable):
        yield from _text_elements(node.expression)
    elif isinstance(node, ast.SelectExpression):
        for variant in node.variants:
            yield from _text_elements(variant.value)


def _plain(text: str) -> str:
    """A text as a reader sees it: tags gone, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "\n", text))


@cache
def catalogue(lang: str) -> tuple[frozenset[str], str]:
    """The fragments of literal text of a language's messages worth checking (four letters or
    more between placeables), and all its literal text folded, to look words up in."""
    parser = FluentParser()
    fragments: set[str] = set()
    everything: list[str] = []
    for file in sorted((LOCALES_DIR / lang).glob("*.ftl")):
        for entry in parser.parse(file.read_text(encoding="utf-8")).body:
            if not isinstance(entry, ast.Message | ast.Term) or entry.value is None:
                continue
            for text in _text_elements(entry.value):
                everything.append(text)
                for piece in re.split(r"[\n:(){}«»\"“”·•—→=|/;]+", _plain(text)):
                    piece = piece.strip(" .,!?'’-–%×+0123456789🃏👉🏆🧮🔄💎🧹✊📣")
                    if len(re.findall(r"[^\W\d_]", piece)) >= 4:
                        fragments.add(piece)
    return frozenset(fragments), fold(" ".join(_plain(t) for t in everything))


@cache
def dialect() -> str:
    """The glossary's dialect terms and their forms, folded: words of no language of ours."""
    return "\n".join(fold(form) for entry in default_glossary() for form in entry.forms)


@cache
def only_in(lang: str, other: str) -> tuple[str, ...]:
    """The fragments of ``lang``'s catalogue found nowhere in ``other``'s (nor among the
    dialect terms, which both languages quote), folded."""
    fragments, _ = catalogue(lang)
    _, elsewhere = catalogue(other)
    found = {fold(f) for f in fragments}
    return tuple(sorted(f for f in found if f not in elsewhere and f not in dialect()))


@cache
def only_in_pattern(lang: str, other: str) -> re.Pattern:
    """One pattern that finds any of ``only_in(lang, other)`` as whole words."""
    words = sorted(only_in(lang, other), key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?!\w)")


def test_the_catalogue_check_knows_words_of_each_language():
    """The check is not empty: it knows Italian-only and English-only words."""
    italian, english = only_in("it", "en"), only_in("en", "it")
    assert "siediti" in italian and "mazziere" in italian and "scegli la tua mossa" in italian
    assert "points to win" in english and "last trick" in english
    assert not only_in_pattern("it", "en").search(fold("🪑 Take a seat · 2 players"))
    assert only_in_pattern("it", "en").search(fold("🪑 Take a seat · Mazziere: Anna"))


# -- what a player reads -----------------------------------------------------------------------


def _markup_texts(markup: Any) -> list[str]:
    if isinstance(markup, str):
        markup = json.loads(markup)
    if not isinstance(markup, dict):
        return []
    return [b.get("text", "") for row in markup.get("inline_keyboard", []) for b in row]


def rendered_texts(fake: FakeTelegram, since: int = 0) -> list[tuple[str, str, Any]]:
    """Everything the bot showed since call ``since``: (method, plain text, chat)."""
    found = []
    for method, params in fake.calls[since:]:
        chat = params.get("chat_id")
        texts = [params.get("text") or "", *_markup_texts(params.get("reply_markup"))]
        if method == "answerInlineQuery":
            results = params.get("results")
            results = json.loads(results) if isinstance(results, str) else results or []
            for r in results:
                content = r.get("input_message_content") or {}
                texts += [r.get("title", ""), r.get("description", "")]
                texts += [content.get("message_text", ""), *_markup_texts(r.get("reply_markup"))]
            button = params.get("button")
            button = json.loads(button) if isinstance(button, str) else button
            if button:
                texts.append(button.get("text", ""))
        found += [(method, _plain(t), chat) for t in texts if t]
    return found


def foreign_words(texts: list[tuple[str, str, Any]], lang: str) -> list[tuple[str, str]]:
    """The texts that hold words only the other language's catalogue has."""
    other = "en" if lang == "it" else "it"
    pattern = only_in_pattern(other, lang)
    leaks = []
    for method, text, _ in dict.fromkeys(texts):
        leaks += [(method, m.group(0), text) for m in pattern.finditer(fold(text))]
    return leaks


async def _command(table: Table, chat: dict, text: str, user: dict | None = None) -> None:
    await table.bot.feed(table.fake.send_text(user or table.users[0], chat, text))


async def _set_language(table: Table, lang: str) -> None:
    await _command(table, table.group, "/lingua")
    menu = table.fake.last_message(table.group)
    await table.bot.feed(table.fake.press(table.users[0], menu, f"L:0:0:{lang}"))


async def play_whole_game(make_table, kind: str, players: int, lang: str) -> Table:
    """A group in ``lang`` plays a whole game by buttons, using every command on the way."""
    title = "Friday table" if lang == "en" else "Tavolo del venerdì"
    table = make_table(players, title=title, lang=lang)
    await table.open_privates()
    await _set_language(table, lang)
    await _command(table, table.group, f"/regole {kind}")
    await _command(table, table.group, "/classifica")
    await table.seat_everybody(kind, players)
    lobby = table.lobby()
    await table.press(table.users[0], lobby, table.t("btn-rules"))
    if kind == "belota":  # to 500 rather than 1000: the same words in half the presses
        await table.bot.feed(table.fake.press(table.users[0], lobby, f"r:{table.game_id}:0:0=0"))
    await table.press(table.users[0], table.lobby(), table.t("btn-rules-done"))
    await table.press(table.users[0], table.lobby(), table.t("btn-start"))
    rng = random.Random(f"{kind}{lang}")
    presses = 0
    while not table.finished():
        await table.play_one(rng)
        presses += 1
        if presses == 3:
            await table.press(table.users[1], table.table(), table.t("btn-show-hand"))
            await _command(table, table.users[1], "/mano", table.users[1])
            await table.bot.feed(table.fake.inline_query(table.users[0], f"#{table.game_id}"))
            await _command(table, table.group, "/glossario")
            await _command(table, table.group, "/commento")
            await _command(table, table.group, "/tempo")
        if table.finished():
            break
        explain = [d for _, d in table.table().buttons if d and d.startswith("e:")]
        if explain:
            await table.bot.feed(table.fake.press(table.users[0], table.table(), explain[0]))
    await _command(table, table.group, "/classifica")
    await _command(table, table.group, f"/classifica {kind}")
    await _command(table, table.group, "/stats")
    await _command(table, table.users[0], "/stats", table.users[0])
    return table


WHOLE_GAMES = [("briscola", 2), ("cirulla", 2), ("belota", 4), ("belota", 3), ("belota", 2)]

# Words each game's messages use for its parts (its sources' terms), and words they must not.
# Group messages (table, results) and the players' private hand messages, per language.
TERMS = {
    ("briscola", "it"): (
        ["La mano (la presa)", "Fine della partita"],
        ["smazzata", "· mano", "Fine della mano"],
    ),
    ("briscola", "en"): (["took", "End of the deal"], ["hand 1", "round"]),
    ("cirulla", "it"): (
        ["· smazzata 1", "turno 1 di", "Fine della smazzata 1"],
        ["· mano", "giro"],
    ),
    ("cirulla", "en"): (["· deal 1", "round 1 of", "End of deal 1"], ["· hand", "trick"]),
    ("belota", "it"): (
        ["· mano 1", "Mano 1 (smazzata): si marca", "Punti (si vince a"],
        ["raggio", "Partita, a partìa", "mandà sensa,"],
    ),
    ("belota", "en"): (["· hand 1", "Hand 1: the score", "Points (first to"], ["· deal", "raggio"]),
}


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize(("kind", "players"), WHOLE_GAMES)
async def test_a_whole_game_speaks_the_chat_language_with_the_game_own_words(
    make_table, fake, kind, players, lang
):
    """Every message, button, alert and inline result of a whole game and of the commands
    around it holds no word only the other language's catalogue has; the game's messages use
    its own terms (Briscola's "mano" is a trick, Cirulla's "smazzata" comes in "turni", the
    Belòta "mano" is the hand) and not another game's; the cards show the faces of the pack
    in this language."""
    table = await play_whole_game(make_table, kind, players, lang)
    texts = rendered_texts(fake)
    assert len(texts) > 50
    leaks = foreign_words(texts, lang)
    assert not leaks, sorted({(word, text[:100]) for _, word, text in leaks})
    group = "\n".join(text for _, text, chat in texts if chat == table.group["id"])
    must, must_not = TERMS[kind, lang]
    for word in must:
        assert word in group, word
    for word in must_not:
        assert word not in group, word
    everything = "\n".join(text for _, text, _ in texts)
    if kind == "briscola":
        faces = {"it": ("F", "C", "R"), "en": ("J", "Kn", "K")}[lang]
        assert all(re.search(rf"(?<!\w){f}(🏆|🪙|🪵|🗡)", everything) for f in faces)
        assert not re.search(r"(?<!\w)Q(🏆|🪙|🪵|🗡)", everything)
        wrong = "J" if lang == "it" else "F"
        assert not re.search(rf"(?<!\w){wrong}(🏆|🪙|🪵|🗡)", everything)
    else:
        assert re.search(r"(?<!\w)[JQK][♥♦♣♠]", everything)


# -- cards and terms for every screen (the Mini App reads the same functions) --------------------


@pytest.mark.parametrize(
    ("lang", "faces", "shown"),
    [
        ("it", "italian", ["A🪙", "7🪙", "F🪙", "C🪙", "R🪙"]),
        ("en", "italian", ["A🪙", "7🪙", "J🪙", "Kn🪙", "K🪙"]),
        ("it", "french", ["A♦", "10♦", "J♦", "Q♦", "K♦"]),
        ("en", "french", ["A♦", "10♦", "J♦", "Q♦", "K♦"]),
    ],
)
def test_card_faces(lang, faces, shown):
    """Italian cards show fante, cavallo, re as F, C, R in Italian and as J, Kn, K (jack,
    knight, king) in English; French cards show the J, Q, K printed on them. Engine codes do
    not change."""
    codes = ["AD", "7D" if faces == "italian" else "TD", "JD", "QD", "KD"]
    assert [card_text(TR, lang, c, faces) for c in codes] == shown


@pytest.mark.parametrize(
    ("kind", "lang", "terms"),
    [
        ("briscola", "it", {"trick": "mano", "deal": "partita", "series": "raggio"}),
        ("briscola", "en", {"trick": "trick", "deal": "deal", "match": "match"}),
        ("cirulla", "it", {"round": "turno", "deal": "smazzata", "match": "partita"}),
        ("cirulla", "en", {"round": "round", "deal": "deal", "match": "game"}),
        ("belota", "it", {"trick": "presa", "deal": "mano", "match": "partita"}),
        ("belota", "en", {"trick": "trick", "deal": "hand", "match": "match"}),
    ],
)
def test_each_game_has_its_own_words(kind, lang, terms):
    """The sources' terms: Briscola's "mano" is one trick and the 40 cards a "partita" (a
    "raggio" in a series); Cirulla's "smazzata" is dealt in "turni"; Belòta's "mano" is the
    hand of eight tricks."""
    assert terms.items() <= game_terms(TR, lang, kind).items()


# -- game names ----------------------------------------------------------------------------------

NAMES = {
    "briscola": "briscola",
    "Briscola": "briscola",
    "bri": "briscola",
    "cirulla": "cirulla",
    "ciapachinze": "cirulla",
    "Ciappachinze": "cirulla",
    "belota": "belota",
    "belòta": "belota",
    "BELÒTA": "belota",
    "belote": "belota",
    "scopone": None,
    "b": None,
}


@pytest.mark.parametrize(("name", "kind"), NAMES.items())
def test_game_names_are_read_the_same_by_every_command(name, kind):
    """The one reader of game names serves /regole and /classifica (and /nuova, below)."""
    assert read_game(TR, name) == kind
    assert game_from_text(TR, name) == kind


@pytest.mark.parametrize(("name", "kind"), NAMES.items())
async def test_nuova_regole_classifica_read_a_game_name_alike(make_table, fake, name, kind):
    """/nuova, /regole and /classifica each understand the name, or each refuse it."""
    table = make_table(1)
    await table.open_privates()
    await _command(table, table.group, f"/regole {name}")
    rules = fake.last_message(table.group).text
    await _command(table, table.group, f"/classifica {name}")
    board = fake.last_message(table.group).text
    await _command(table, table.group, f"/nuova {name}")
    lobby = fake.last_message(table.group).text
    if kind is None:
        assert "Non conosco" in rules and "Non conosco" in board
        assert lobby.startswith("Non conosco")
    else:
        game = TR.get("it", f"game-{kind}")
        assert rules.startswith(game) and "Non conosco" not in board
        assert game in lobby and "Non conosco" not in lobby


# -- dialect beside Italian -------------------------------------------------------------------


@cache
def dialect_verbs() -> frozenset[str]:
    """The glossary's dialect verbs: its terms whose Italian meaning opens with an infinitive
    ("mandà": "mandare - accettare il gioco proposto..."), as the source writes them."""
    verbs = set()
    for entry in default_glossary():
        first = re.split(r"[ ,]", entry.meaning_it)[0].lower()
        infinitive = re.fullmatch(r"\w+(are|ere|ire|rre)", first) and not first.endswith("iere")
        if entry.kind == "term" and entry.dialect != "it" and infinitive:
            verbs.add(entry.term)
    return frozenset(verbs)


def beside(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` stands beside the sentence rather than in it: between
    parentheses, or quoted («», “”, "")."""
    before, after = text[:start], text[end:]
    if before.count("(") > before.count(")") and ")" in after:
        return True
    if before.count("«") > before.count("»") and "»" in after:
        return True
    if before.count("“") > before.count("”") and "”" in after:
        return True
    return before.count('"') % 2 == 1 and '"' in after


def misplaced_dialect(lang: str) -> list[tuple[str, str]]:
    """Each message of ``lang`` (its source text, every variant) where a dialect verb stands in
    the sentence, in the place of the language's own verb: (message id, the text)."""
    parser = FluentParser(with_spans=True)
    found = []
    for file in sorted((LOCALES_DIR / lang).glob("*.ftl")):
        source = file.read_text(encoding="utf-8")
        for entry in parser.parse(source).body:
            if not isinstance(entry, ast.Message | ast.Term) or entry.value is None:
                continue
            text = source[entry.value.span.start : entry.value.span.end]
            for verb in dialect_verbs():
                for hit in re.finditer(rf"(?<!\w){re.escape(verb)}(?!\w)", text, re.IGNORECASE):
                    if not beside(text, hit.start(), hit.end()):
                        found.append((entry.id.name, " ".join(text.split())))
    return sorted(set(found))


def test_the_dialect_check_tells_a_term_beside_from_a_verb_in_the_sentence():
    """The check knows the glossary's verbs, and tells "mandare sensa (mandà sensa)" and
    «mandà» from "può mandà sensa"."""
    assert {"mandà", "passà", "zirà", "cařà", "respùnde"} <= dialect_verbs()
    for good in ("Passo (passà)", "si gira (zirà) e propone", "«mandà contru»", 'say "mandà"'):
        verb = next(v for v in dialect_verbs() if v in good)
        assert beside(good, good.index(verb), good.index(verb) + len(verb)), good
    for bad in ("Chi vuole può mandà sensa", "possono mandà contru (punti tripli)", "(x) passà"):
        verb = next(v for v in dialect_verbs() if v in bad)
        assert not beside(bad, bad.index(verb), bad.index(verb) + len(verb)), bad


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_language_verbs_in_its_sentences_the_dialect_term_beside_them(lang):
    """Italian verbs in Italian sentences (English in English), the dialect term beside them:
    "Chi vuole può mandare sensa (mandà sensa)", never "può mandà sensa", which reads as a
    typo. Every message of the catalogue, every variant."""
    assert not misplaced_dialect(lang)
