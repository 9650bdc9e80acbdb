"""A terminal table for trying the rules without Telegram: you at seat 0, computer players around.

A developer's tool: it speaks the engine's own words (action codes, seat numbers, the view's
keys), in English only, with no dependency outside the engine. Players use the web table,
``python -m bot --local``, which names the cards as the bot does, in Italian or English.

    python -m engine play briscola [--players N] [--level easy|normal|hard] [--seed S]
                                   [--rule NAME=VALUE ...]

At your turn the table shows your view and your legal actions; type an action code (``7D``,
``7D:3C+4H``, ``pass``) or its number in the list. ``quit`` (or end of input) leaves the table.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import engine
from engine.ai import DEFAULT_BUDGET_MS, LEVELS, choose

# View keys shown in the header line, once at the start (settings), or not at all; the rest is
# listed one per line when it holds something.
HEADER = ("deal", "dealer", "current_seat", "scores")
SETTINGS = ("rules", "sides", "target", "turns", "raggi", "show_points")
HIDDEN = (
    "kind",
    "players",
    "seat",
    "is_over",
    "winners",
    "played",
    "deal_results",
    "hand",
    "move_number",
    "scoresheet",
)


def _is_card(x: object) -> bool:
    return isinstance(x, str) and len(x) == 2 and x[1] in "HDCS"


def show(value: Any) -> str:
    """A compact, readable rendering of a view or event value."""
    if isinstance(value, list):
        if value and all(_is_card(x) for x in value):
            return " ".join(value)
        return "[" + ", ".join(show(x) for x in value) + "]"
    if isinstance(value, dict):
        if set(value) == {"seat", "card"}:
            return f"{value['seat']}:{value['card']}"
        return "{" + ", ".join(f"{k} {show(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "-"
    return str(value) if not isinstance(value, bool) else ("yes" if value else "no")


def render_view(view: dict[str, Any]) -> list[str]:
    """The lines that show a seat's view at its turn."""
    head = "  ".join(f"{k.replace('_', ' ')} {show(view[k])}" for k in HEADER if k in view)
    lines = [f"── {view['kind']} · you are seat {view['seat']} · {head}"]
    for key, value in view.items():
        if key in HEADER or key in HIDDEN or key in SETTINGS or _empty(value):
            continue
        lines.append(f"   {key.replace('_', ' ')}: {show(value)}")
    lines.append(f"   your hand: {show(view['hand'])}")
    return lines


def _empty(value: Any) -> bool:
    """Nothing worth a line: None, an empty list or mapping, or a list of nothings."""
    if value is None or value == [] or value == {}:
        return True
    return isinstance(value, list) and all(v in (None, False, [], 0) for v in value)


def render_settings(view: dict[str, Any]) -> str:
    """The game's settings, shown once at the start."""
    parts = [f"{k.replace('_', ' ')} {show(view[k])}" for k in SETTINGS if k in view]
    return "settings: " + "; ".join(parts)


def render_event(event: dict[str, Any]) -> str:
    """One line for an event."""
    kind = event.get("type", "?")
    if kind == "card_played":
        return f"· seat {event['seat']} plays {event['card']}"
    rest = ", ".join(f"{k} {show(v)}" for k, v in event.items() if k != "type")
    return f"· {kind.replace('_', ' ')}: {rest}" if rest else f"· {kind.replace('_', ' ')}"


def parse_rules(items: Sequence[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs, each value read as JSON when it parses (``71``, ``true``)."""
    rules: dict[str, Any] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name:
            raise SystemExit(f"--rule takes NAME=VALUE, not {item!r}")
        try:
            rules[name] = json.loads(raw)
        except ValueError:
            rules[name] = raw
    return rules


def read_action(legal: list[str], stdin: TextIO, out: TextIO) -> str | None:
    """Prompt until the human types a legal code or its number; None to leave the table."""
    while True:
        out.write("your move> ")
        out.flush()
        line = stdin.readline()
        if not line:
            return None
        text = line.strip()
        if text in ("quit", "exit"):
            return None
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        if text in legal:
            return text
        out.write(f"   not a legal action: {text!r}; type a code or its number (1-{len(legal)})\n")


def play_table(
    kind: str,
    players: int | None,
    level: str,
    seed: int | None,
    rules: dict[str, Any],
    stdin: TextIO,
    out: TextIO,
    budget_ms: int = DEFAULT_BUDGET_MS,
) -> int:
    """Run one game with the human at seat 0; return the process exit status."""
    try:
        g = engine.new_game(kind, players, seed=seed, rules=rules)
    except engine.SetupError as exc:
        out.write(f"cannot start: {exc}\n")
        return 2
    rng = random.Random(g.seed)
    out.write(f"{kind} for {g.players} players, seed {g.seed}; computer players: {level}\n")
    out.write(render_settings(g.view(0)) + "\n")
    while g.current_seat is not None:
        seat = g.current_seat
        legal = g.legal_actions(seat)
        if seat == 0:
            for line in render_view(g.view(0)):
                out.write(line + "\n")
            out.write("   legal: " + "  ".join(f"{i}) {c}" for i, c in enumerate(legal, 1)) + "\n")
            code = read_action(legal, stdin, out)
            if code is None:
                out.write("left the table\n")
                return 0
        else:
            code = choose(g.view(seat), legal, level, rng, budget_ms)
        for event in g.play(seat, code):
            out.write(render_event(event) + "\n")
    out.write(f"game over · winners {show(g.winners)} · scores {show(g.scores)}\n")
    return 0


def main(
    argv: Sequence[str] | None = None, stdin: TextIO = sys.stdin, out: TextIO = sys.stdout
) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    table = commands.add_parser("play", help="play at a terminal table against computer players")
    table.add_argument("game", choices=sorted(engine.GAMES))
    table.add_argument("--players", type=int)
    table.add_argument("--level", choices=LEVELS, default="normal")
    table.add_argument("--seed", type=int)
    table.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    table.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS)
    args = parser.parse_args(argv)
    try:
        return play_table(
            args.game,
            args.players,
            args.level,
            args.seed,
            parse_rules(args.rule),
            stdin,
            out,
            args.budget_ms,
        )
    except KeyboardInterrupt:  # Ctrl-C leaves the table as "quit" does, without a traceback
        out.write("\nleft the table\n")
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
