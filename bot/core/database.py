"""The database file: why SQLite refuses one (in one line), a path checked before SQLite tries
it, and the online backup (``python -m bot backup PATH``)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote


class SchemaTooNew(RuntimeError):
    """The database was written by a newer version of the bot."""


class DatabaseUnusable(RuntimeError):
    """The database file cannot be used as it is (its message says why, naming the path)."""


def unusable(path: Path, exc: BaseException) -> DatabaseUnusable:
    """The one line that explains why SQLite refused the database at ``path``."""
    text = " ".join(str(exc).split())  # one line, whatever SQLite's report
    lower = text.lower()
    if "readonly" in lower or "read-only" in lower:
        why = "is read-only (the bot must write to it)"
    elif "not a database" in lower or "malformed" in lower or "corrupt" in lower:
        why = f"is damaged ({text}); it was left as it is: restore a backup (see the README)"
    elif "unable to open" in lower:
        why = "cannot be opened or created"
    else:
        why = f"cannot be used ({text})"
    return DatabaseUnusable(f"{path} {why}")


def check_path(path: Path) -> None:
    """Refuse a path that cannot hold the database file, before SQLite tries it."""
    if path.is_dir():
        raise DatabaseUnusable(f"{path} is a directory, not a database file")
    parent = path.parent
    for above in (parent, *parent.parents):
        if above.exists():
            if not above.is_dir():
                raise DatabaseUnusable(f"{path} is under {above}, which is a file")
            break
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseUnusable(
            f"{path} cannot be created: {exc.strerror or exc} ({parent})"
        ) from None


def backup(database: Path, target: Path, *, overwrite: bool = False) -> int:
    """Copy the database at ``database`` to ``target`` while the bot may be running, with
    SQLite's online backup: one read transaction, so the copy is one consistent moment of the
    database, and the bot's writes go on meanwhile. The copy is checked, synced and renamed
    into place. An existing ``target`` is refused unless ``overwrite`` (then it is replaced
    only by a complete copy). Returns the number of games in the copy. Raise
    DatabaseUnusable when either file cannot be used, or ``target`` exists."""
    if not database.is_file():
        raise DatabaseUnusable(f"{database} does not exist: there is nothing to back up")
    if target.is_dir():
        raise DatabaseUnusable(f"{target} is a directory; name the backup file")
    if target.exists() and not overwrite:
        raise DatabaseUnusable(
            f"{target} already exists: name another file, or add --overwrite to replace it"
        )
    if target.resolve() == database.resolve():
        raise DatabaseUnusable(f"{target} is the database itself; name another file")
    check_path(target)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        source = sqlite3.connect(f"file:{quote(str(database))}?mode=rw", uri=True)
        try:
            dest = sqlite3.connect(partial)
            try:
                source.backup(dest)
                verdict = dest.execute("PRAGMA quick_check(1)").fetchone()[0]
                if verdict != "ok":
                    raise sqlite3.DatabaseError(f"database disk image is malformed: {verdict}")
                games = dest.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            finally:
                dest.close()
        finally:
            source.close()
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise unusable(database, exc) from None
    with open(partial, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(partial, target)
    return games
