"""Glossary search speed: milliseconds per query, as inline mode asks on every keystroke.

Types every entry's term one character at a time (the way inline queries arrive) and a set of
typical queries (exact, unaccented, by meaning, misspelt, unknown), and prints the mean, the 99th
percentile and the worst CPU time per search, and per full inline answer (search + 50 renders).

    python bench/glossary.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.i18n import Translator
from bot.reference.glossary import Glossary
from bot.reference.glossary_screens import inline_results

LOCALES = Path(__file__).resolve().parent.parent / "locales"

QUERIES = {
    "exact": ["u çincànta d’atù", "stròsa ad fèmna", "settebello", "Csa gh’hat in mân?"],
    "unaccented": ["u cincanta d atu", "strosa ad femna", "cura", "esar in cesa"],
    "meaning": ["fante d'onore", "posta in gioco", "jack of trumps", "strozza di femmina"],
    "typo": ["setebello", "strosa ad femma", "partitonne", "brisculna"],
    "unknown": ["xyzzy", "poker texas", "qwertyuiop", "zz"],
}


def timed(fn, *args, **kwargs) -> float:
    """CPU milliseconds one call of ``fn`` takes (steady on a machine busy with other work)."""
    start = time.process_time()
    fn(*args, **kwargs)
    return (time.process_time() - start) * 1000


def report(label: str, times: list[float]) -> None:
    """Print mean, 99th percentile and worst of ``times`` (ms)."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(
        f"{label:<28} {len(times):>6} queries  mean {statistics.fmean(times):6.3f} ms"
        f"  p99 {p99:6.3f} ms  max {ordered[-1]:6.3f} ms"
    )


def main() -> None:
    """Run the benchmark and print its figures."""
    start = time.process_time()
    glossary = Glossary.load(LOCALES / "glossary")
    print(f"load: {len(glossary)} entries in {(time.process_time() - start) * 1000:.1f} ms")
    tr = Translator(LOCALES)

    keystrokes = [e.term[:n] for e in glossary for n in range(1, len(e.term) + 1)]
    report("keystrokes (search)", [timed(glossary.search, q) for q in keystrokes])
    for kind, queries in QUERIES.items():
        report(f"{kind} (search)", [timed(glossary.search, q) for q in queries * 25])
    report(
        "keystrokes (inline answer)",
        [timed(inline_results, glossary, tr, "it", q) for q in keystrokes[::5]],
    )


if __name__ == "__main__":
    main()
