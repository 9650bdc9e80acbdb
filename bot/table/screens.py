"""The bot's messages as content (HTML text and buttons): lobby, table, hand, announcements.

Pure functions of a live game and a language; sending them is ``bot.delivery``'s job.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any, NamedTuple

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

import engine
from bot.core.callbacks import Callback, Op, action_callback, play_query
from bot.core.extras import Extras
from bot.core.i18n import Translator
from bot.core.live import LiveGame
from bot.core.messenger import Content
from bot.games import Ctx, GameUI, game_options, ui_for
from bot.reference.glossary import default_glossary
from bot.table.house_rules import (
    changed_rules,
    rule_applies,
    rule_choices,
    rule_label,
    value_label,
)


def esc(text: str) -> str:
    """Text made safe for Telegram's HTML."""
    return html.escape(text, quote=False)


def seat_names(live: LiveGame) -> list[str]:
    """The HTML-escaped names of a game's seats (a dash for a free seat)."""
    names = ["—"] * (live.row.players or 0)
    for s in live.row.seats:
        if s.seat < len(names):
            names[s.seat] = esc(s.name)
    return names


def make_ctx(tr: Translator, lang: str, live: LiveGame, me: int | None = None) -> Ctx:
    """The drawing context of a game in a language; with ``me``, for that seat's player (what
    is about them is told to them: "Tocca a te")."""
    faces = ui_for(live.row.kind).faces if live.row.kind else "french"
    return Ctx(tr, lang, seat_names(live), faces, live.commentary, me)


def button(text: str, cb: Callback) -> InlineKeyboardButton:
    """An inline button carrying a callback."""
    return InlineKeyboardButton(text, callback_data=cb.pack())


def rows(buttons: Sequence[InlineKeyboardButton], per_row: int) -> list[list[InlineKeyboardButton]]:
    """Buttons laid out ``per_row`` to a row."""
    per_row = max(1, min(per_row, 8))
    return [list(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row)]


def pairs_game(live: LiveGame) -> bool:
    """Whether the game is played in two pairs (players pick their team)."""
    return live.row.players == 4


def game_title(ctx: Ctx, kind: str, players: int) -> str:
    """ "Briscola · 4 giocatori, a coppie"."""
    key = "game-option-pairs" if players == 4 else "game-option"
    return ctx.t(key, game=ctx.t(f"game-{kind}"), players=players)


# -- lobby ---------------------------------------------------------------------------------
Keyboard = list[list[InlineKeyboardButton]]


def lobby_screen(tr: Translator, live: LiveGame, extras: Extras | None = None) -> Content:
    """The lobby message: the game, the seats, the house rules, and the lobby's buttons (with
    the feature packages' ``extras``); the menu of games while none is chosen."""
    extras = extras or Extras()
    ctx = make_ctx(tr, live.row.lang, live)
    if live.row.kind is None:
        return _menu_screen(ctx, live)
    lines = [*_lobby_head(ctx, live), "", *_lobby_seats(ctx, live), "", _lobby_rules(ctx, live)]
    for extra_lines in extras.lobby_lines:
        lines += extra_lines(ctx, live)
    full = len(live.row.seats) == live.row.players
    lines.append(ctx.t("lobby-full") if full else ctx.t("lobby-how-to-join"))
    # Joining stays possible while the creator sets the house rules.
    keyboard = [_join_row(ctx, live)]
    if live.rules_open:
        keyboard += _rules_panel(ctx, live, extras)
    else:
        for extra in extras.lobby_rows:
            keyboard += extra(ctx, live)
        keyboard.append(_lobby_last_row(ctx, live, full))
    return Content("\n".join(lines), InlineKeyboardMarkup(keyboard))


def _menu_screen(ctx: Ctx, live: LiveGame) -> Content:
    """A lobby without a game yet: the games (or one game's player counts) to pick from."""
    gid = live.game_id
    creator = f"<b>{esc(live.row.creator_name)}</b>"
    text = ctx.t("lobby-choose", creator=creator)
    if live.menu_kind is not None:
        game = ctx.t(f"game-{live.menu_kind}")
        text = ctx.t("lobby-choose-count", creator=creator, game=game)
    options = [
        button(game_title(ctx, kind, n), Callback(Op.CHOOSE, gid, 0, f"{kind}-{n}"))
        for kind, n in game_options()
        if live.menu_kind in (None, kind)
    ]
    keyboard = [*rows(options, 1), [button(ctx.t("btn-cancel"), Callback(Op.CANCEL, gid))]]
    return Content(text, InlineKeyboardMarkup(keyboard))


def _lobby_head(ctx: Ctx, live: LiveGame) -> list[str]:
    row = live.row
    return [
        ctx.t("lobby-title", title=game_title(ctx, row.kind, row.players)),
        ctx.t("lobby-creator", creator=f"<b>{esc(row.creator_name)}</b>"),
    ]


def _lobby_seats(ctx: Ctx, live: LiveGame) -> list[str]:
    """Who sits where: the two teams, or the players in seat order."""
    names = seat_names(live)
    if pairs_game(live):
        seats = [(_seat_text(names, team), _seat_text(names, team + 2)) for team in (0, 1)]
        return [ctx.t("lobby-team", team=t + 1, a=a, b=b) for t, (a, b) in enumerate(seats)]
    players = ", ".join(_seat_text(names, s) for s in range(live.row.players))
    return [ctx.t("lobby-players", players=players)]


def _lobby_rules(ctx: Ctx, live: LiveGame) -> str:
    """The house rules that differ from the standard ones."""
    kind = live.row.kind
    changed = changed_rules(kind, live.row.rules)
    if not changed:
        return ctx.t("lobby-rules-standard")
    listed = "; ".join(
        f"{rule_label(ctx, kind, n)}: {value_label(ctx, kind, n, v)}" for n, v in changed
    )
    return ctx.t("lobby-rules", rules=listed)


def _join_row(ctx: Ctx, live: LiveGame) -> list[InlineKeyboardButton]:
    """Sit (on a team, in pairs) and stand up."""
    gid = live.game_id
    if pairs_game(live):
        join = [
            button(ctx.t("btn-join-team", team=t + 1), Callback(Op.JOIN, gid, 0, str(t)))
            for t in (0, 1)
        ]
    else:
        join = [button(ctx.t("btn-join"), Callback(Op.JOIN, gid))]
    return [*join, button(ctx.t("btn-leave"), Callback(Op.LEAVE, gid))]


def _rules_panel(ctx: Ctx, live: LiveGame, extras: Extras) -> Keyboard:
    """The house rules' panel: a button per rule (to its next value), the features' settings,
    and "done"."""
    row = live.row
    keyboard = []
    for i, choice in enumerate(rule_choices(row.kind, row.players)):
        if not rule_applies(row.kind, row.players, choice.name):
            continue
        current = row.rules.get(choice.name, choice.default)
        label = f"{rule_label(ctx, row.kind, choice.name)}: " + value_label(
            ctx, row.kind, choice.name, current
        )
        arg = f"{i}={choice.next_index(current)}"
        keyboard.append([button(label, Callback(Op.RULE, row.game_id, 0, arg))])
    for setting_rows in extras.setting_rows:
        keyboard += setting_rows(ctx, live)
    keyboard.append([button(ctx.t("btn-rules-done"), Callback(Op.RULES, row.game_id, 0, "0"))])
    return keyboard


def _lobby_last_row(ctx: Ctx, live: LiveGame, full: bool) -> list[InlineKeyboardButton]:
    """Start (once every seat is taken), the house rules, cancel."""
    gid = live.game_id
    last = [
        button(ctx.t("btn-rules"), Callback(Op.RULES, gid, 0, "1")),
        button(ctx.t("btn-cancel"), Callback(Op.CANCEL, gid)),
    ]
    if full:
        last.insert(0, button(ctx.t("btn-start"), Callback(Op.START, gid)))
    return last


def _seat_text(names: Sequence[str], seat: int) -> str:
    return names[seat] if names[seat] == "—" else f"<b>{names[seat]}</b>"


def closed_lobby_screen(tr: Translator, live: LiveGame) -> Content:
    """A cancelled lobby: what it was, and that it is closed."""
    row = live.row
    ctx = make_ctx(tr, row.lang, live)
    title = game_title(ctx, row.kind, row.players) if row.kind else ctx.t("lobby-no-game")
    return Content(ctx.t("lobby-cancelled", title=title))


# -- the game ------------------------------------------------------------------------------
def _status_line(ctx: Ctx, live: LiveGame, view: dict[str, Any]) -> str:
    row = live.row
    if row.status == "cancelled":
        return ctx.t("table-cancelled")
    if view["is_over"]:
        return ctx.t("table-over")
    return ctx.t("table-turn", player=ctx.name(view["current_seat"]))


def table_screen(
    tr: Translator,
    live: LiveGame,
    since: Sequence[dict[str, Any]] | None = None,
    unreachable: bool = False,
    extras: Extras | None = None,
) -> Content:
    """The group's table message: the game's public state, every move since the table's
    previous version (``since``: its events; the latest action's by default), whose turn (and,
    ``unreachable``, that the bot cannot write to that player in private), the public buttons."""
    row = live.row
    game = live.game
    ui = ui_for(row.kind)
    ctx = make_ctx(tr, row.lang, live)
    view = game.view(None)
    since = live.last_events if since is None else since
    title = game_title(ctx, row.kind, row.players)
    deal = ui.deal_name(ctx, view)
    head = ctx.t("table-title", title=title, deal=deal) if deal else None
    lines = [head or ctx.t("table-title-single", title=title)]
    lines += ui.table_lines(ctx, view, since)
    scores = ui.scores_line(ctx, view)
    if scores:
        lines.append(scores)
    lines.append(_status_line(ctx, live, view))
    if unreachable and row.status == "active" and not game.is_over:
        lines.append(ctx.t("table-unreachable", player=ctx.name(view["current_seat"])))
    keyboard: list[list[InlineKeyboardButton]] = []
    if row.status == "active" and not game.is_over:
        seat = game.current_seat
        if ui.table_actions(view):
            keyboard += action_rows(ctx, live, view, game.legal_actions(seat))
        # "Play here" types the game's inline query: a player whose private chat is closed
        # picks a card among results only they see (bot.table.inline_play).
        play_here = InlineKeyboardButton(
            ctx.t("btn-play-inline"), switch_inline_query_current_chat=play_query(row.game_id)
        )
        keyboard.append(
            [button(ctx.t("btn-show-hand"), Callback(Op.SHOW_HAND, row.game_id)), play_here]
        )
        keyboard += explain_rows(ctx, live, view, since)
        keyboard += _game_rows(extras, ctx, live, None)
    return Content("\n".join(lines), InlineKeyboardMarkup(keyboard) if keyboard else None)


def _game_rows(
    extras: Extras | None, ctx: Ctx, live: LiveGame, seat: int | None
) -> list[list[InlineKeyboardButton]]:
    draws = extras.game_rows if extras else []
    return [row for draw in draws for row in draw(ctx, live, seat)]


def explain_rows(
    ctx: Ctx, live: LiveGame, view: dict[str, Any], since: Sequence[dict[str, Any]] | None = None
) -> list[list[InlineKeyboardButton]]:
    """A button per dialect saying on the table, which explains it (none with the commentary
    off)."""
    if not ctx.commentary:
        return []
    glossary = default_glossary()
    explain = [
        button(
            ctx.t("btn-explain", term=_short(glossary.get(entry_id).term)),
            Callback(Op.EXPLAIN, live.game_id, 0, entry_id),
        )
        for entry_id in ui_for(live.row.kind).dialect_terms(
            view, live.last_events if since is None else since
        )
        if entry_id in glossary
    ]
    return rows(explain, 2)


def _short(term: str, limit: int = 32) -> str:
    """A glossary term short enough for a button: its first form, clipped."""
    first = term.split("/")[0].strip()
    return first if len(first) <= limit else first[: limit - 1].rstrip() + "…"


def action_rows(
    ctx: Ctx, live: LiveGame, view: dict[str, Any], acts: list[str]
) -> list[list[InlineKeyboardButton]]:
    """Buttons for exactly the legal actions, cards in the order of the hand shown above them
    and other actions (declarations, knocks) after the cards."""
    ui = ui_for(live.row.kind)
    hand = view["hand"]
    order = sorted(
        range(len(acts)),
        key=lambda i: (hand.index(acts[i][:2]) if acts[i][:2] in hand else len(hand), i),
    )
    buttons = [
        InlineKeyboardButton(
            ui.action_label(ctx, view, acts[i]),
            callback_data=action_callback(live.game_id, live.game.move_number, acts[i], i),
        )
        for i in order
    ]
    return rows(buttons, ui.actions_per_row(acts))


def hand_screen(
    tr: Translator,
    live: LiveGame,
    seat: int,
    lang: str,
    reminder: int | None = None,
    extras: Extras | None = None,
) -> Content:
    """A player's private hand message: the group, the game, whose turn (and a turn timer's
    ``reminder``: the seconds left), the game's state, the cards, the legal actions (public
    choices too: a Belòta bid is made from the hand as well as from the table); at the end,
    who won, so that a player who follows from the private chat learns it there."""
    row = live.row
    game = live.game
    ui = ui_for(row.kind)
    ctx = make_ctx(tr, lang, live, me=seat)
    view = ui.private_view(game.view(seat), live.recent)
    lines = [
        ctx.t(
            "hand-title",
            group=esc(row.chat_title),
            title=game_title(ctx, row.kind, row.players),
        )
    ]
    acting = row.status == "active" and not view["is_over"] and view["current_seat"] == seat
    if acting:
        lines.append(ctx.t("hand-your-turn"))
        if reminder is not None:
            lines.append(ctx.t("hand-reminder", seconds=reminder))
    lines += ui.hand_lines(ctx, view, live.last_events)
    lines.append(ctx.t("hand-cards", cards=ctx.cards(view["hand"])))
    keyboard: list[list[InlineKeyboardButton]] = []
    if row.status == "cancelled":
        lines.append(ctx.t("table-cancelled"))
    elif view["is_over"]:
        lines.append(ctx.t("table-over"))
        lines.append(winners_line(ctx, game.winners))
    elif acting:
        keyboard = action_rows(ctx, live, view, game.legal_actions(seat))
    else:
        lines.append(ctx.t("hand-wait"))
    if row.status == "active" and not view["is_over"]:
        keyboard = keyboard + _game_rows(extras, ctx, live, seat)
    return Content("\n".join(lines), InlineKeyboardMarkup(keyboard) if keyboard else None)


class HandNeeds(NamedTuple):
    """What a player who is not to act needs their hand message to show right (``hand_needs``)."""

    markup: str  # its buttons (the turn's go when it ends)
    status: str  # the game's status
    over: bool
    deal: int  # the deal's number
    phase: str | None  # Belòta's bidding or play
    hand: tuple[str, ...]  # their own cards
    partner_cards: bool  # it shows the partner's cards (which go once out of date)
    bidding: tuple[str, int] | None  # while Belòta is bid: what was said, and whose word it is

    def nothing_in_hand(self) -> bool:
        """Whether the hand message would show nothing its waiting player needs: no cards left
        in a game in play (Cirulla's hands between two turns of three cards), while no bidding
        goes on and no partner's cards are shown. Such a hand is taken away rather than
        edited: the next ping sends a new one, and has nothing to delete."""
        return (
            self.status == "active"
            and not self.over
            and self.phase != "bidding"
            and not self.hand
            and not self.partner_cards
        )


def hand_needs(live: LiveGame, seat: int, content: Content) -> HandNeeds:
    """What a player who is not to act needs their hand message to show right: its buttons,
    the state of the game, the deal and its phase, their own cards, whether it shows the
    partner's cards, and while Belòta is bid what each player has said and whose word it is
    (a hand shows the bidding, so that it never names the wrong bidder). Other players' cards
    and the scores are on the table."""
    game = live.game
    view = ui_for(live.row.kind).private_view(game.view(seat), live.recent)
    bidding = view.get("phase") == "bidding"
    return HandNeeds(
        content.key()[1],
        live.row.status,
        game.is_over,
        game.deal_number,
        view.get("phase"),
        tuple(view["hand"]),
        view.get("partner_hand") is not None,
        (repr(view.get("bids")), game.current_seat) if bidding else None,
    )


def hand_alert(tr: Translator, live: LiveGame, seat: int, lang: str) -> str:
    """The short private alert with a player's own cards (from the table's button)."""
    ctx = make_ctx(tr, lang, live)
    view = live.game.view(seat)
    return ctx.t("alert-hand", cards=ctx.cards(view["hand"]))


# The bot's own event in a result message, where its plays begin, when the bot played the deal's
# forced last cards itself (``bot.table.play.forced_tail``).
FORCED_EVENT = "forced_plays"


def announcement_screen(
    tr: Translator,
    live: LiveGame,
    events: list[dict[str, Any]],
    view: dict[str, Any],
    extras: Extras | None = None,
    me: int | None = None,
) -> Content:
    """A deal's result (how it ended: the last tricks or plays, then the count) and, if the game
    ended, the winner and the rematch button, in one message; told to the player of seat
    ``me`` if given (the web table's)."""
    row = live.row
    ctx = make_ctx(tr, row.lang, live, me)
    body, closing, extra = _result_lines(ctx, ui_for(row.kind), events, view, extras)
    lines = body[:1] + closing + body[1:]
    over = next((e for e in events if e["type"] == "game_over"), None)
    if over is None:
        return Content("\n".join(lines + extra))
    lines.append(winners_line(ctx, over["winners"]))
    rematch = button(ctx.t("btn-rematch"), Callback(Op.REMATCH, row.game_id))
    return Content("\n".join(lines + extra), InlineKeyboardMarkup([[rematch]]))


def _result_lines(
    ctx: Ctx,
    ui: GameUI,
    events: list[dict[str, Any]],
    view: dict[str, Any],
    extras: Extras | None,
) -> tuple[list[str], list[str], list[str]]:
    """A result's lines in three parts: the game's own (its title first), how the deal ended
    (drawn under the title), and the features' (drawn last)."""
    body: list[str] = []
    closing: list[str] = []
    extra: list[str] = []
    for event in events:
        draw_extra = extras.event_lines.get(event["type"]) if extras else None
        if event["type"] == FORCED_EVENT:
            closing.append(ctx.t("deal-forced-plays"))
        elif draw_extra is not None:
            extra += draw_extra(ctx, event)
        elif event["type"] in ui.closing:
            closing += ui.announcement_lines(ctx, event, view)
        else:
            body += ui.announcement_lines(ctx, event, view)
    return body, closing, extra


def winners_line(ctx: Ctx, winners: list[int]) -> str:
    """The game's outcome: who won ("Vincono Alice e Carla!"), or a draw."""
    if not winners:
        return ctx.t("game-draw")
    names = [ctx.name(s) for s in winners]
    return ctx.t(
        "game-winners", winners=_join(ctx, names), count=len(names), person=ctx.person_of(winners)
    )


def _join(ctx: Ctx, names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ctx.t("list-and", head=", ".join(names[:-1]), last=names[-1])


def engine_setup_ok(kind: str, players: int, rules: dict[str, Any]) -> bool:
    """Whether the engine accepts this game, player count and house rules together."""
    try:
        engine.new_game(kind, players, seed=0, rules=rules)
    except engine.SetupError:
        return False
    return True
