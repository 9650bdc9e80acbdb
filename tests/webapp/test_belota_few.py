"""Belòta for two and three on the drawn table: each seat's state lists the cards face up out
of play (the bergère, the turned card left on the table) for the page to draw, leaves their
lines out of the notes, keeps a score per player, and shows no card of another hand."""

from __future__ import annotations

import httpx
import pytest

from bot.core.callbacks import action_callback
from bot.table.house_rules import rule_choices
from bot.webapp.local import LOCAL_CHAT, LocalServer
from tests.bot.conftest import Table, cards_in
from tests.translator import TR
from tests.webapp.test_miniapp import init_for, mini  # noqa: F401 (the fixture)

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _state(mini, table: Table, seat: int) -> dict:  # noqa: F811
    async with httpx.AsyncClient(base_url=mini.url) as http:
        headers = {"X-Init-Data": init_for(mini.fake, table.users[seat])}
        answer = await http.get(f"api/state?game={table.game_id}", headers=headers)
    assert answer.status_code == 200
    return answer.json()


async def test_three_seats_see_the_bergere_and_their_own_scores(mini):  # noqa: F811
    """ "its last card deck[31] is shown to all ('la bergère')": every seat's state lists it
    with its caption, the notes do not repeat it, the scores are one per player, and no
    seat's state holds a card of another hand."""
    table = Table(mini, mini.fake, 3, "Tavolo a tre")
    await table.start("belota", 3)
    live = await mini.svc.games.get(table.game_id)
    bergere = live.game.view(None)["bergere"]
    for seat in range(3):
        state = await _state(mini, table, seat)
        assert state["players"] == 3 and len(state["view"]["scores"]) == 3
        assert state["shown"] == [
            {
                "card": bergere,
                "caption": TR.get("it", "webapp-bergere"),
                "title": TR.get("it", "webapp-bergere-title"),
            }
        ]
        bergere_line = TR.get("it", "belota-bergere", card="").split(":")[0]
        assert not any(bergere_line in note for note in state["notes"])
        others = {c for s in range(3) if s != seat for c in live.game.view(s)["hand"]}
        assert not cards_in(state) & others


async def test_the_turned_card_left_on_the_table_is_drawn_for_two(mini):  # noqa: F811
    """With carta_girata at table "the turned card stays face up, out of play": once the
    bidding is over the state lists it beside the bergère."""
    table = Table(mini, mini.fake, 2, "Tavolo a due")
    await table.seat_everybody("belota", 2)
    choices = rule_choices("belota", 2)
    index = [c.name for c in choices].index("carta_girata")
    value = choices[index].values.index("table")
    rule = f"r:{table.game_id}:0:{index}={value}"
    await table.bot.feed(table.fake.press(table.users[0], table.lobby(), rule))
    await table.press(table.users[0], table.lobby(), table.t("btn-start"))
    live = await mini.svc.games.get(table.game_id)
    while live.game.view(None)["phase"] == "bidding":
        seat = live.game.current_seat
        legal = live.game.legal_actions(seat)
        code = "take" if "take" in legal else legal[0]
        bid = _data(table, live, code)
        await table.bot.feed(table.fake.press(table.users[seat], table.table(), bid))
    view = live.game.view(None)
    state = await _state(mini, table, 0)
    assert [s["card"] for s in state["shown"]] == [view["face_up"], view["bergere"]]
    assert state["shown"][0]["caption"] == TR.get("it", "webapp-face-up")


def _data(table: Table, live, code: str) -> str:
    """The callback data of the table's bid button for ``code``."""
    legal = live.game.legal_actions(live.game.current_seat)
    return action_callback(table.game_id, live.game.move_number, code, legal.index(code))


async def test_the_local_table_offers_belota_for_two_three_and_four(tmp_path):
    """The local table's game picker lists each count the bot offers; a new game of three
    seats the player and two computer players."""
    server = await LocalServer.open(tmp_path / "local.sqlite3", TR, "it", 0, 20)
    try:
        transport = httpx.ASGITransport(app=server.web.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://local") as http:
            options = (await http.get("/api/local/options")).json()
            counts = [g["players"] for g in options["games"] if g["kind"] == "belota"]
            assert counts == [2, 3, 4]
            titles = [g["title"] for g in options["games"] if g["kind"] == "belota"]
            assert titles[:2] == ["Belòta · 2 giocatori", "Belòta · 3 giocatori"]
            body = {"kind": "belota", "players": 3, "level": "easy"}
            made = await http.post("/api/local/new", json=body)
            assert made.status_code == 200
        live = await server.svc.games.in_chat(LOCAL_CHAT)
        assert live.row.players == 3
        assert [s.computer for s in sorted(live.row.seats, key=lambda s: s.seat)] == [
            None,
            "easy",
            "easy",
        ]
    finally:
        server.web.tables.close()
        await server.close()
