"""Open files: the process's limit, raised at start-up, and the share of it each web server
may take in connections (``bot.core.webserver``), so that no client can take the files the bot
needs for its own work.

Kept apart from the web servers so that start-up raises the limit before loading them.
"""

from __future__ import annotations

import contextlib

# Open files the bot keeps for its own work whatever its web servers receive: the database,
# its connections to the Bot API, the log.
FILES_KEPT = 256
# Connections the kernel queues before a server accepts them, and the most one wake-up of the
# server accepts before its connections are counted.
BACKLOG = 64


def raise_open_file_limit() -> int:
    """Raise this process's open-file limit to the most it is allowed (its hard limit) and
    return the limit now in force (0: no such limit on this system)."""
    try:
        import resource
    except ImportError:  # not a Unix system
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        # Some systems cap a process below its hard limit: then it keeps what it has.
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def connection_cap(wanted: int, servers: int = 2) -> int:
    """The connections one of ``servers`` web servers may hold: ``wanted``, or fewer when the
    open-file limit has no room for them beside the bot's own files."""
    try:
        import resource
    except ImportError:
        return wanted
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return wanted
    room = (soft - FILES_KEPT) // servers - BACKLOG
    return max(8, min(wanted, room))
