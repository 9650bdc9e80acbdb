"""A player reads what is about them told to them ("Tocca a te", "Hai vinto", "Vincete voi"),
never their own name, nor "Tu" put in its place in a sentence made for someone else ("Vince
Tu", "Tu cala"). Whole games of every kind are drawn for one seat's player, in Italian and
English, as the web table and the private hand show them; every text drawn with the reader's
name is checked to be told in the second person when its message has that variant."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.core.i18n import LOCALES_DIR, Translator
from bot.table import play, screens
from bot.webapp.local import LOCAL_USER, LocalTable, offline_services
from bot.webapp.tables import WebTables

ME = 0  # the local player's seat: the reader
# Pairs and players alone, each game once (a game alone for two is drawn by the browser tests).
GAMES = [
    ("briscola", 4, {}),
    ("cirulla", 2, {}),
    ("belota", 3, {"target": 500}),
    ("belota", 4, {"target": 500}),
]


def _told_to_the_reader() -> set[str]:
    """The messages that have a second-person variant (a selector on ``$person``)."""
    found = set()
    for path in Path(LOCALES_DIR).glob("*/*.ftl"):
        for block in re.split(r"\n(?=[a-z][\w-]* =)", path.read_text(encoding="utf-8")):
            if "[second]" in block:
                found.add(block.split(" =", 1)[0].strip())
    return found


SECOND = _told_to_the_reader()
# The reader's label in a sentence made for someone else: what the page used to write.
THIRD_ABOUT_ME = re.compile(
    r"(Vince|Vincono|Fa più punti|Fanno più punti|turno di|[Pp]resa d[ai]|scopa di|mandat[oa] da"
    r"|Sensa di|accuso d[i']|prese di) <b>(Tu|Voi)</b>"
    r"|<b>(Tu|Voi)</b> (gioca|cala|prende|bussa|accusa|vince|chiama|strozza|perderà|ridà"
    r"|passa|manda|sceglie)"
    r"|<b>You</b> (wins|lays|plays|knocks|declares|calls|takes|has|passes|names|answers)"
    r"|<b>You</b>'s"
)


class Recording(Translator):
    """A translator that keeps every text it drew with the reader's name in an argument."""

    def __init__(self) -> None:
        super().__init__(LOCALES_DIR)
        self.labels = {self.get(lang, key) for lang in ("it", "en") for key in ("you", "you-pair")}
        self.about_me: list[tuple[str, str, str]] = []  # (message, person, text)

    def get(self, lang, msg_id, **args):
        text = super().get(lang, msg_id, **args)
        labels = getattr(self, "labels", set())
        if any(
            isinstance(v, str) and f"<b>{label}</b>" in v for v in args.values() for label in labels
        ):
            self.about_me.append((msg_id, args.get("person", "third"), text))
        return text


@pytest.mark.parametrize(("kind", "players", "rules"), GAMES)
async def test_a_whole_game_reads_in_the_second_person_to_its_player(
    tmp_path, kind, players, rules
):
    tr = Recording()
    svc = await offline_services(tmp_path / "bot.sqlite3", tr)
    tables = WebTables(svc)
    svc.listeners.append(tables.on_change)
    try:
        game_id = await LocalTable(svc, "it").start(kind, players, "easy", seed=11, rules=rules)
        live = await svc.games.get(game_id)
        tables.watch(game_id, ME, "it", LOCAL_USER)  # a page open: its results are kept
        rng = random.Random(kind)
        seen: list[str] = []
        while live.active:
            for lang in ("it", "en"):
                state = tables.state(live, ME, lang)
                seen += [state["turn"], state["score"] or "", *state["notes"]]
                if state["result"]:
                    seen += state["result"]["outcome"] + state["result"]["lines"]
                seen.append(screens.hand_screen(tr, live, ME, lang).text)
            seat = live.game.current_seat
            async with live.lock:
                code = rng.choice(live.game.legal_actions(seat))
                events = await play.apply_action(svc, live, seat, code)
            await svc.notify_listeners(live, events)  # as the buttons' path does
        won = ME in live.game.winners
        for lang in ("it", "en"):
            outcome = tables.state(live, ME, lang)["result"]["outcome"]
            seen += outcome
            you_won = {
                tr.get(lang, "game-winners", person=p, winners="", count=1)
                for p in ("second", "second-plural")
            }
            assert bool(you_won & set(outcome)) == won, outcome
    finally:
        await svc.storage.close()
    wrong = [(m, text) for m, person, text in tr.about_me if m in SECOND and person == "third"]
    assert not wrong, wrong[:5]
    told = {m for m, person, _ in tr.about_me if person != "third"}
    assert told, "nothing was told to the reader"
    text = "\n".join(seen)
    assert not THIRD_ABOUT_ME.search(text), THIRD_ABOUT_ME.search(text).group(0)
