"""Fit the Cirulla hard player's leaf value (``engine.ai.cirulla.leaf``) by self-play.

Plays two-player deals of normal against normal on the engine's fast path and, at every position
a lookahead of the hard player starts from (more than ``SOLVE_STOCK`` cards in the stock), takes
the position ``HORIZON`` cards later as the leaf a lookahead reaches. The leaf's terms, counted
since the root as ``leaf`` counts them (points marked, the cards captured by kind, the aces held,
the best capture of the seat to act), and the same terms of the deal before the root (controls:
common to every candidate of a decision, so not shipped), are fitted by ridge regression to the
deal's final point margin of the side to act at the root. Prints the weights and how well they
and the current leaf predict the margin on held-out deals.

    PYTHONPATH=. python bench/train_cirulla_leaf.py --deals 3000 --seed 1

Pure Python (the normal equations solved by Gaussian elimination): no dependency.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from engine.ai import cirulla as cir
from engine.cirulla.cards import CODES

TERMS = (
    "points",
    "cards",
    "diamonds",
    "sevens",
    "sixes",
    "aces",
    "fives",
    "settebello",
    "grande",
    "piccola",
    "aces_held",
    "best_capture",
)


def pile_terms(cards: list[int], key: tuple) -> list[float]:
    """The captured cards' terms (cards, diamonds, ..., piccola) while ``key``'s items are open."""
    denari_open, carte_open, grande_open, piccola_open, grande_points = key
    t = [0.0] * 9
    for c in cards:
        code = CODES[c]
        t[0] += carte_open
        if code[1] == "D":
            t[1] += 1 if denari_open else 0.1
            if code == "7D":
                t[6] += 1
            elif code in cir.GRANDE and grande_open:
                t[7] += grande_points / 5
            elif code in cir.PICCOLA and piccola_open:
                t[8] += 1
        t[2 + "76A5".find(code[0])] += code[0] in "76A5"
    return t


def snapshot(g: engine.Game, side: int) -> dict:
    """What the leaf needs of a position."""
    seat = g.current_seat
    v = g.fast_sight(seat)
    aces = 0
    for p in range(2):
        sign = 1 if p == side else -1
        aces += sign * sum(1 for c in g.hands[p] if c < 4)
    return {
        "scores": list(g.scores),
        "piles": [list(p) for p in v.piles],
        "masks": list(v.pile_masks),
        "grande_points": v.grande_points,
        "aces": aces,  # from side 0's view
        "seat": seat,
        "table": tuple(v.table),
        "hand": list(v.hand),
        "matta": v.matta,
        "mv": v.matta_value,
        "stock": v.stock,
        "played": None,
    }


def deal_rows(seed: int) -> list[tuple[list[float], float]]:
    """The rows of one seeded deal of normal against normal."""
    g = engine.new_game("cirulla", 2, seed=seed)
    snaps = []
    played = 0
    margin = None
    while True:
        seat = g.current_seat
        action = cir._fast_choice(g, seat, 2)
        if action != cir.KNOCK_ID:
            s = snapshot(g, 0)
            s["played"] = played
            snaps.append(s)
            played += 1
            left = g.fast_sight(seat).stock + sum(len(h) for h in g.hands)
            if left == 1:
                for event in g.play(seat, g.action_code(action)):
                    if event["type"] == "deal_scored":
                        margin = event["points"][0] - event["points"][1]
                    if event["type"] == "partitone":
                        return []
                break
        g.step(action)
        if g.is_over:
            return []
    if margin is None:
        return []
    rows = []
    by_played = {s["played"]: s for s in snaps}
    for r in snaps:
        if r["stock"] <= cir.SOLVE_STOCK:
            continue
        leaf = by_played.get(r["played"] + cir.HORIZON)
        if leaf is None:
            continue
        side = r["seat"]  # two players: seat and side agree
        sign = 1 if side == 0 else -1
        key = cir._mask_worth_key(r["masks"][side], r["masks"][1 - side], r["grande_points"])
        open_key = (True, True, True, True, r["grande_points"])
        x = [0.0] * (2 * len(TERMS) + 1)
        # Since the root, as the leaf counts them.
        x[0] = sign * ((leaf["scores"][0] - r["scores"][0]) - (leaf["scores"][1] - r["scores"][1]))
        for i in range(2):
            s_i = 1 if i == side else -1
            for j, t in enumerate(pile_terms(leaf["piles"][i][len(r["piles"][i]) :], key)):
                x[1 + j] += s_i * t
        x[10] = sign * leaf["aces"]
        if leaf["table"]:
            best = cir._best_captures_of(leaf["table"], leaf["matta"], leaf["mv"], key)
            cap = max(
                best[leaf["mv"] if c == leaf["matta"] else cir.VALUES[c]] for c in leaf["hand"]
            )
            x[11] = (1 if leaf["seat"] == side else -1) * cap
        # Before the root: the controls.
        o = len(TERMS)
        x[o] = sign * (r["scores"][0] - r["scores"][1])
        for i in range(2):
            s_i = 1 if i == side else -1
            for j, t in enumerate(pile_terms(r["piles"][i], open_key)):
                x[o + 1 + j] += s_i * t
        x[o + 10] = sign * r["aces"]
        x[o + 11] = r["stock"] / 10
        x[-1] = 1.0
        rows.append((x, sign * margin))
    return rows


CURRENT = [
    1.0,
    cir.CARD,
    cir.DIAMOND,
    cir.PRIMIERA["7"],
    cir.PRIMIERA["6"],
    cir.PRIMIERA["A"],
    cir.PRIMIERA["5"],
    cir.SETTEBELLO,
    cir.GRANDE_CARD,
    cir.PICCOLA_CARD,
    cir.ACE_KEEP,
    1.0,
]


def ridge(x: list[list[float]], y: list[float], lam: float) -> list[float]:
    """Ridge regression weights (the last column, the intercept, not shrunk)."""
    k = len(x[0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for row, t in zip(x, y, strict=True):
        for i, xi in enumerate(row):
            if xi:
                b[i] += xi * t
                ai = a[i]
                for j, xj in enumerate(row):
                    ai[j] += xi * xj
    for i in range(k - 1):
        a[i][i] += lam
    # Gaussian elimination with partial pivoting.
    m = [a[i] + [b[i]] for i in range(k)]
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(k):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [u - f * v for u, v in zip(m[r], m[c], strict=True)]
    return [m[i][k] / m[i][i] for i in range(k)]


def mse(x: list[list[float]], y: list[float], w: list[float]) -> float:
    """Mean squared error of the weights' predictions."""
    return sum(
        (sum(a * b for a, b in zip(r, w, strict=True)) - t) ** 2 for r, t in zip(x, y, strict=True)
    ) / len(y)


def main() -> None:
    """Generate, fit, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ridge", type=float, default=10.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seeds = [rng.randrange(1 << 30) for _ in range(args.deals)]
    split = args.deals * 4 // 5
    train, test = [], []
    for k, seed in enumerate(seeds):
        (train if k < split else test).extend(deal_rows(seed))
    x = [r[0] for r in train]
    y = [r[1] for r in train]
    xt = [r[0] for r in test]
    yt = [r[1] for r in test]
    w = ridge(x, y, args.ridge)
    # The current leaf's terms as one, with its own weights, and the same controls.
    k = len(TERMS)

    def current(rows: list[list[float]]) -> list[list[float]]:
        return [[sum(a * b for a, b in zip(r[:k], CURRENT, strict=True)), *r[k:]] for r in rows]

    wc = ridge(current(x), y, args.ridge)
    mean = sum(yt) / len(yt)
    print(f"rows: {len(train)} train, {len(test)} held out")
    print(
        f"held-out MSE: fitted {mse(xt, yt, w):.3f}, current {mse(current(xt), yt, wc):.3f} "
        f"(its scale {wc[0]:.3f}), mean only {sum((t - mean) ** 2 for t in yt) / len(yt):.3f}"
    )
    for name, fitted, now in zip(TERMS, w[:k], CURRENT, strict=True):
        print(f"{name:13s} {fitted:7.3f}  (now {now:.3f})")
    print("controls", [round(v, 3) for v in w[k:]])


if __name__ == "__main__":
    main()
