"""The web table's side of a game: each seat's state as the page draws it, plays through the
buttons' path, and the pushes after every committed action.

``WebTables`` is a listener of every game (``Services.listeners``): after each committed action
it hands each open page of that game the state of its seat. A page holds a ``Watcher``; a
watcher keeps only the newest state (each state is complete), so a slow page skips states
rather than piling them up. When a game ends, its pages get its last state and their streams
end. Open pages are counted per person, across their games.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from bot.core.live import LiveGame
from bot.core.services import Services
from bot.games import ui_for
from bot.games.base import FRENCH_SUIT_SYMBOLS
from bot.table import play, screens

RANKS = "A23456789TJQK"


def _drawn_lines(ui: Any, ctx: Any, view: dict[str, Any], last: Any) -> set[str]:
    """The table message's lines that the page draws instead (trump, stock, trick, the last
    trick, the cards on the table; in Belòta the dealer, the bids and the contract, on the
    seats' tags): left out of the page's notes, so that the notes keep to what the felt does
    not say."""
    kind = ui.kind
    drawn: set[str] = set()
    if kind in ("briscola", "belota"):
        drawn.update(ui.trick_log(ctx, view, last, f"{kind}-trick", f"{kind}-last-trick"))
    if kind == "briscola":
        drawn.add(ui._trump_line(ctx, view))
        drawn.add(ctx.t("briscola-stock", count=view["stock"]))
        drawn.add(ui._trick_line(ctx, view) or "")
    elif kind == "cirulla":
        drawn.add(ui._table_cards(ctx, view))
    elif kind == "belota":
        drawn.add(ctx.t("belota-dealer", player=ctx.name(view["dealer"])))  # the tag's chip
        if view["phase"] == "bidding":
            drawn.add(ctx.t("belota-turned", card=ctx.card(view["turned"])))
        drawn.add(ui._bids_line(ctx, view) or "")  # each bid is on its seat's tag
        drawn.add(ui._contract_line(ctx, view) or "")  # the trump's corner, the declarer's tag
        drawn.update(ui._trick_lines(ctx, view))
        if view.get("bergere"):
            drawn.add(ctx.t("belota-bergere", card=ctx.card(view["bergere"])))
        if view.get("face_up") and view.get("exchanged") is None:
            # After an exchange the note stays: it says who made it.
            drawn.add(ctx.t("belota-face-up", card=ctx.card(view["face_up"])))
    return drawn


def shown_cards(ctx: Any, view: dict[str, Any]) -> list[dict[str, str]]:
    """The cards face up out of play that the page draws beside the trump (Belòta for two and
    three: the bergère, and the turned card left on the table), each with a short caption and
    a longer title in the page's language."""
    shown = []
    for key, name in (("face_up", "webapp-face-up"), ("bergere", "webapp-bergere")):
        if view.get(key):
            shown.append(
                {"card": view[key], "caption": ctx.t(name), "title": ctx.t(f"{name}-title")}
            )
    return shown


def seat_words(ui: Any, ctx: Any, view: dict[str, Any]) -> list[str]:
    """What each seat said this deal, for its tag (Belòta): its latest bid while the bidding
    lasts ("passa", "manda ♥"), then the bids that stand (the declarer's, a contru) and the names of
    the seat's declarations ("térsa"); told to the player of the seat as to them ("passi")."""
    contract = view["contract"] if view["phase"] != "bidding" else None
    bids: list[list[str]] = [[] for _ in range(view["players"])]
    for seat, bid in view["bids"]:
        bids[seat].append(bid)
    if contract is None:
        bids = [said[-1:] for said in bids]  # while bidding, the latest word of each seat
    else:
        for seat, said in enumerate(bids):
            made = [b for b in said if b not in ("pass", "contru")]
            kept = made[-1:] if seat == contract["declarer"] else []
            bids[seat] = kept + (["contru"] if "contru" in said else [])
    declared = view.get("declarations") or [[] for _ in bids]
    words = []
    for seat, said in enumerate(bids):
        line = [_bid_word(ctx, view, bid, ctx.person_of([seat])) for bid in said]
        line += [ui.declaration_name(ctx, d) for d in declared[seat]]
        words.append(", ".join(line))
    return words


def _bid_word(ctx: Any, view: dict[str, Any], bid: str, person: str) -> str:
    """A bid as a seat's tag says it: "passa", "manda ♥" (the turned suit or another, as the
    source's "mandare" covers both), "sensa", "contru"."""
    if bid.startswith("trump:") or bid == "take":
        suit = bid[6] if bid != "take" else view["turned"][1]
        return ctx.t("webapp-said-take", person=person, suit=FRENCH_SUIT_SYMBOLS[suit])
    return ctx.t(f"webapp-said-{bid}", person=person)


def rank_labels(ctx: Any) -> dict[str, str]:
    """How each rank is written on this game's cards (``T`` is ``10``): the labels the bot
    writes, less the suit they share."""
    labels = {r: ctx.card(r + "H") for r in RANKS}
    suit = labels["A"]
    for label in labels.values():
        while not label.endswith(suit):
            suit = suit[1:]
    return {r: label.removesuffix(suit) for r, label in labels.items()}


def _in_lang(live: LiveGame, lang: str, svc: Services) -> LiveGame:
    """The same game with its texts in ``lang`` (screens draw in the game's language), its
    computer players under short names (a phone's seat has room for "Computer 3", and a lone
    one is "Computer"; the page says their level once)."""
    other = copy.copy(live)
    alone = sum(1 for s in live.row.seats if s.computer) == 1
    seats = [
        dataclasses.replace(s, name=_computer_name(svc, lang, s.seat, alone)) if s.computer else s
        for s in live.row.seats
    ]
    other.row = dataclasses.replace(live.row, lang=lang, seats=seats)
    return other


def _computer_name(svc: Services, lang: str, seat: int, alone: bool) -> str:
    if alone:
        return svc.tr.get(lang, "webapp-computer-alone")
    return svc.tr.get(lang, "webapp-computer", number=seat + 1)


def _levels(svc: Services, live: LiveGame, lang: str) -> str | None:
    """The computer players' level, said once ("normale"), or None without computers."""
    levels = sorted({s.computer for s in live.row.seats if s.computer})
    if not levels:
        return None
    return ", ".join(svc.tr.get(lang, f"computer-level-{level}") for level in levels)


def public_state(
    svc: Services,
    live: LiveGame,
    lang: str,
    result: dict[str, Any] | None,
    me: int | None = None,
) -> dict[str, Any]:
    """What the pages show of the game's public state, in ``lang``, told to the player of seat
    ``me`` (what is about them is said to them: "Tocca a te"; None: a spectator): the game,
    the names, the score, the notes, whose turn, the latest deal's result."""
    row = live.row
    game = live.game
    ui = ui_for(row.kind)
    shown = _in_lang(live, lang, svc)
    ctx = screens.make_ctx(svc.tr, lang, shown, me)
    public = game.view(None)
    drawn = _drawn_lines(ui, ctx, public, live.last_events)
    if row.status == "cancelled":
        turn = ctx.t("table-cancelled")
    elif game.is_over:
        turn = ctx.t("table-over")
    else:
        turn = ctx.t("table-turn", player=ctx.name(game.current_seat))
    return {
        "game": row.game_id,
        "kind": row.kind,
        "players": row.players,
        "title": screens.game_title(ctx, row.kind, row.players),
        "group": row.chat_title,
        "move": game.move_number,
        "status": row.status,
        "over": game.is_over or row.status != "active",
        "names": [s.name for s in sorted(shown.row.seats, key=lambda s: s.seat)],
        "level": _levels(svc, live, lang),
        "faces": ui.faces,
        "ranks": rank_labels(ctx),
        "suits": {suit: ctx.suit(suit) for suit in "HDCS"},
        "turn": turn,
        "score": ui.scores_line(ctx, public),
        "notes": [n for n in ui.table_lines(ctx, public, live.last_events) if n not in drawn],
        "shown": shown_cards(ctx, public),
        "said": seat_words(ui, ctx, public) if row.kind == "belota" else [],
        "result": result,
    }


def seat_state(
    svc: Services, live: LiveGame, seat: int | None, lang: str, public: dict[str, Any]
) -> dict[str, Any]:
    """Everything the page draws for ``seat`` (None: a spectator): the ``public`` part and
    only what that seat's engine view holds."""
    game = live.game
    ui = ui_for(live.row.kind)
    view = game.view(seat) if seat is not None else game.view(None)
    active = live.active and not game.is_over
    legal = game.legal_actions(seat) if active and seat == game.current_seat else []
    state = {**public, "seat": seat, "view": view, "legal": legal, "labels": {}}
    if legal or view.get("partner_hand") is not None:
        ctx = screens.make_ctx(svc.tr, lang, _in_lang(live, lang, svc), seat)
        state["labels"] = {c: ui.action_label(ctx, view, c) for c in legal if len(c) != 2}
        if view.get("partner_hand") is not None:
            line = ctx.t("briscola-partner-hand", cards=ctx.cards(view["partner_hand"]))
            state["notes"] = [*public["notes"], line]
    if legal:
        state["turn"] = svc.tr.get(lang, "webapp-your-turn")
    state["why"] = refusals(svc, live, seat, legal, view, lang)
    return state


def refusals(
    svc: Services,
    live: LiveGame,
    seat: int | None,
    legal: list[str],
    view: dict[str, Any],
    lang: str,
) -> dict[str, str]:
    """Why each card of the seat's hand cannot be played now, in the game's words: the engine's
    reason for each card it refuses on the seat's turn ("Devi rispondere al seme"), or one
    reason for every card ("*") when it is not the seat's turn."""
    hand = view.get("hand") or []
    if seat is None or not hand:
        return {}
    game = live.game
    if not legal:
        reason = "illegal-game-over" if not live.active or game.is_over else "illegal-not-your-turn"
        return {"*": svc.tr.get(lang, reason)}
    playable = {code.split(":")[0] for code in legal}
    return {
        card: svc.tr.get(lang, play.refusal(svc, game, seat, card, lang))
        for card in hand
        if card not in playable
    }


@dataclass(frozen=True)
class Snapshot:
    """A seat's state as sent: its move number, the game's status, the JSON text, and the
    server-sent event that carries it (encoded once for every stream of that seat)."""

    move: int
    status: str
    text: str
    event: bytes


class Watcher:
    """One open page: the seat it shows, whose page it is, and the newest state not yet sent
    to it; once ``closed``, its stream ends after that state."""

    def __init__(self, game_id: int, seat: int | None, lang: str, user_id: int) -> None:
        self.game_id = game_id
        self.seat = seat
        self.lang = lang
        self.user_id = user_id
        self.pending: Snapshot | None = None
        self.wake = asyncio.Event()
        self.closed = False

    def offer(self, snap: Snapshot) -> None:
        """The newest state replaces any the page has not received yet."""
        self.pending = snap
        self.wake.set()

    async def next(self, timeout: float) -> Snapshot | None:
        """The next state, or None after ``timeout`` seconds without one (or once closed)."""
        if self.pending is None and not self.closed:
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), timeout)
            except TimeoutError:
                return None
        snap, self.pending = self.pending, None
        return snap


class WebTables:
    """The open pages of every game, the latest deal result of each game, and each seat's
    state drawn once per move for every page and answer that asks for it."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.watchers: dict[int, set[Watcher]] = {}
        self.per_person: dict[int, int] = {}
        self.results: dict[int, dict[str, Any]] = {}
        self._drawn: dict[int, dict[tuple[Any, str], Any]] = {}

    def result_lines(
        self, live: LiveGame, lang: str, me: int | None = None
    ) -> dict[str, Any] | None:
        """The latest deal's result for the page, in ``lang``, told to the player of ``me``."""
        stored = self.results.get(live.game_id)
        if stored is None:
            return None
        content = screens.announcement_screen(
            self.svc.tr,
            _in_lang(live, lang, self.svc),
            stored["events"],
            stored["view"],
            self.svc.extras,
            me,
        )
        lines = content.text.split("\n")
        over = next((e for e in stored["events"] if e["type"] == "game_over"), None)
        outcome = lines[:1]
        if over is not None:
            ctx = screens.make_ctx(self.svc.tr, lang, _in_lang(live, lang, self.svc), me)
            winners = screens.winners_line(ctx, over["winners"])
            outcome.append(winners)
            lines = [line for line in lines if line != winners]
        return {"move": stored["move"], "outcome": outcome, "lines": lines[1:]}

    def state(self, live: LiveGame, seat: int | None, lang: str) -> dict[str, Any]:
        """The page's state for ``seat`` now (its public part drawn once per move, for each
        seat: it is told to its player)."""
        drawn = self._drawn.setdefault(live.game_id, {})
        public = drawn.get(("public", seat, lang))
        move, status = live.game.move_number, live.row.status
        if public is None or (public["move"], public["status"]) != (move, status):
            result = self.result_lines(live, lang, seat)
            public = public_state(self.svc, live, lang, result, seat)
            drawn[("public", seat, lang)] = public
        return seat_state(self.svc, live, seat, lang, public)

    def snapshot(self, live: LiveGame, seat: int | None, lang: str) -> Snapshot:
        """The seat's state now, drawn once per move and status."""
        drawn = self._drawn.setdefault(live.game_id, {})
        snap = drawn.get((seat, lang))
        if snap is None or snap.move != live.game.move_number or snap.status != live.row.status:
            state = self.state(live, seat, lang)
            text = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
            event = f"id: {state['move']}\ndata: {text}\n\n".encode()
            snap = drawn[(seat, lang)] = Snapshot(state["move"], live.row.status, text, event)
        return snap

    def watch(self, game_id: int, seat: int | None, lang: str, user_id: int) -> Watcher:
        """A new open page of a game."""
        watcher = Watcher(game_id, seat, lang, user_id)
        self.watchers.setdefault(game_id, set()).add(watcher)
        self.per_person[user_id] = self.per_person.get(user_id, 0) + 1
        return watcher

    def streams_of(self, user_id: int) -> int:
        """How many pages a person has open, in all their games."""
        return self.per_person.get(user_id, 0)

    @staticmethod
    def is_over(live: LiveGame) -> bool:
        """The game has ended (played out, or closed): its pages' streams end."""
        return live.game is None or live.game.is_over or live.row.status != "active"

    def unwatch(self, watcher: Watcher) -> None:
        """A page closed; a closed game nobody looks at is forgotten."""
        group = self.watchers.get(watcher.game_id)
        if group is not None and watcher in group:
            group.discard(watcher)
            left = self.per_person.pop(watcher.user_id) - 1
            if left:
                self.per_person[watcher.user_id] = left
            if not group:
                del self.watchers[watcher.game_id]
                self._drawn.pop(watcher.game_id, None)

    def close(self) -> None:
        """Shut-down: every page's stream ends (pages reconnect to the next process)."""
        for group in self.watchers.values():
            for watcher in group:
                watcher.closed = True
                watcher.wake.set()

    async def on_change(self, svc: Services, live: LiveGame, events: list[dict[str, Any]]) -> None:
        """A listener of every game: each open page gets its seat's state."""
        if live.game is None:
            return
        ui = ui_for(live.row.kind)
        if any(e["type"] in ui.announced for e in events):
            self.results[live.game_id] = {
                "move": live.game.move_number,
                "events": ui.result_events(events),
                "view": live.game.view(None),
            }
        self._drawn.pop(live.game_id, None)  # a change that left the move number (a cancel)
        if live.row.status != "active" and live.game_id not in self.watchers:
            self.results.pop(live.game_id, None)  # a closed game nobody looks at
        over = self.is_over(live)
        for watcher in list(self.watchers.get(live.game_id, ())):
            watcher.offer(self.snapshot(live, watcher.seat, watcher.lang))
            if over:
                watcher.closed = True

    async def play(self, live: LiveGame, seat: int, move: int, code: str) -> str | None:
        """A play from the page, through the buttons' path (legal, by the seat to act, at that
        move number, once); None when applied, else the message id of the refusal (the same
        ids in every language: the default one is asked whether an engine reason has words)."""
        default = self.svc.tr.resolve(None)
        problem, events = await play.attempt(self.svc, live, seat, move, code, default)
        if problem is not None:
            return problem
        group = not play.table_waits(live, live.game.actions[-1], events)
        self.svc.renderer.refresh(live.game_id, group=group)
        await self.svc.notify_listeners(live, events)
        return None
