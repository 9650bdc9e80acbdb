"""A power cut for SQLite, in the process that writes: only what was synced survives.

``install(shadow_dir)`` registers, through ctypes, an SQLite VFS that wraps the default one and
becomes the default: every file SQLite opens (the database, its WAL, journals) works as usual,
and each time SQLite syncs a file (``xSync``, the fsync it relies on), the file's content at
that moment is copied into ``shadow_dir``. Whatever was written but never synced is not there.
After the process is killed, ``shadow_dir`` is the disk as a power cut that drops every unsynced
write would leave it (the worst case a commit must survive; the harm a lost write can do lies
between this and "everything survived").

It needs the ``sqlite3`` module linked to a shared libsqlite3 (the VFS is registered in that
library); ``syncs()`` counts the syncs seen, so a harness can check the shim was in the path.

Run the bot under it: ``python -m tests.powercut SHADOW_DIR`` (what ``python -m bot`` does,
with the shim installed first).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import sqlite3
import sys
import threading
from pathlib import Path

_lib: ctypes.CDLL | None = None
_keep: list[object] = []  # the structures and callbacks SQLite points to: never collected
_paths: dict[int, str] = {}  # sqlite3_file address -> the file's path
_syncs = 0
_lock = threading.Lock()

_FN = ctypes.c_void_p


class _Vfs(ctypes.Structure):
    _fields_ = [
        ("iVersion", ctypes.c_int),
        ("szOsFile", ctypes.c_int),
        ("mxPathname", ctypes.c_int),
        ("pNext", ctypes.c_void_p),
        ("zName", ctypes.c_char_p),
        ("pAppData", ctypes.c_void_p),
        *[
            (name, _FN)
            for name in [
                "xOpen",
                "xDelete",
                "xAccess",
                "xFullPathname",
                "xDlOpen",
                "xDlError",
                "xDlSym",
                "xDlClose",
                "xRandomness",
                "xSleep",
                "xCurrentTime",
                "xGetLastError",
                "xCurrentTimeInt64",
                "xSetSystemCall",
                "xGetSystemCall",
                "xNextSystemCall",
            ]
        ],
    ]


class _IoMethods(ctypes.Structure):
    _fields_ = [
        ("iVersion", ctypes.c_int),
        *[
            (name, _FN)
            for name in [
                "xClose",
                "xRead",
                "xWrite",
                "xTruncate",
                "xSync",
                "xFileSize",
                "xLock",
                "xUnlock",
                "xCheckReservedLock",
                "xFileControl",
                "xSectorSize",
                "xDeviceCharacteristics",
                "xShmMap",
                "xShmLock",
                "xShmBarrier",
                "xShmUnmap",
                "xFetch",
                "xUnfetch",
            ]
        ],
    ]


class _File(ctypes.Structure):
    _fields_ = [("pMethods", ctypes.POINTER(_IoMethods))]


_XOPEN = ctypes.CFUNCTYPE(
    ctypes.c_int,
    ctypes.c_void_p,
    ctypes.c_void_p,  # sqlite3_filename: passed on as it is (SQLite reads past its end)
    ctypes.POINTER(_File),
    ctypes.c_int,
    ctypes.POINTER(ctypes.c_int),
)
_XDELETE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int)
_XSYNC = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_File), ctypes.c_int)
_XCLOSE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(_File))


def syncs() -> int:
    """How many syncs the shim has seen (0: SQLite does not go through it)."""
    return _syncs


def install(shadow_dir: Path | str) -> None:
    """Register the syncing-copy VFS as SQLite's default (see the module's docstring)."""
    global _lib
    if _lib is not None:
        raise RuntimeError("installed already")
    shadow = Path(shadow_dir)
    shadow.mkdir(parents=True, exist_ok=True)
    sqlite3.connect(":memory:").close()  # the library the sqlite3 module uses is loaded now
    lib = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
    lib.sqlite3_vfs_find.restype = ctypes.POINTER(_Vfs)
    lib.sqlite3_vfs_find.argtypes = [ctypes.c_char_p]
    lib.sqlite3_vfs_register.argtypes = [ctypes.POINTER(_Vfs), ctypes.c_int]
    lib.sqlite3_libversion.restype = ctypes.c_char_p
    if lib.sqlite3_libversion().decode() != sqlite3.sqlite_version:
        raise RuntimeError("the sqlite3 module does not use the shared libsqlite3")
    real = lib.sqlite3_vfs_find(None).contents
    real_open = _XOPEN(real.xOpen)
    real_delete = _XDELETE(real.xDelete)
    patched: dict[int, _IoMethods] = {}

    def shadow_of(path: str) -> Path:
        return shadow / Path(path).name

    def make_methods(methods: ctypes.POINTER(_IoMethods)) -> _IoMethods:
        address = ctypes.addressof(methods.contents)
        if address in patched:
            return patched[address]
        original = methods.contents
        real_sync = _XSYNC(original.xSync)
        real_close = _XCLOSE(original.xClose)

        def x_sync(file: ctypes.POINTER(_File), flags: int) -> int:
            global _syncs
            rc = real_sync(file, flags)
            path = _paths.get(ctypes.addressof(file.contents))
            if rc == 0 and path is not None:
                with _lock:
                    _syncs += 1
                    shutil.copyfile(path, shadow_of(path))
            return rc

        def x_close(file: ctypes.POINTER(_File)) -> int:
            _paths.pop(ctypes.addressof(file.contents), None)
            return real_close(file)

        ours = _IoMethods()
        ctypes.pointer(ours)[0] = original  # a copy of every method...
        sync_cb, close_cb = _XSYNC(x_sync), _XCLOSE(x_close)
        ours.xSync = ctypes.cast(sync_cb, ctypes.c_void_p).value  # ...but these two
        ours.xClose = ctypes.cast(close_cb, ctypes.c_void_p).value
        _keep.extend((ours, sync_cb, close_cb, real_sync, real_close))
        patched[address] = ours
        return ours

    def x_open(vfs, name, file, flags, out_flags) -> int:
        rc = real_open(ctypes.addressof(real), name, file, flags, out_flags)
        if rc == 0 and name and file.contents.pMethods:
            _paths[ctypes.addressof(file.contents)] = ctypes.string_at(name).decode()
            file.contents.pMethods = ctypes.pointer(make_methods(file.contents.pMethods))
        return rc

    def x_delete(vfs, name, sync_dir) -> int:
        rc = real_delete(ctypes.addressof(real), name, sync_dir)
        if rc == 0 and name:
            shadow_of(name.decode()).unlink(missing_ok=True)
        return rc

    ours = _Vfs()
    ctypes.pointer(ours)[0] = real
    ours.zName = b"powercut"
    ours.pNext = None
    open_cb, delete_cb = _XOPEN(x_open), _XDELETE(x_delete)
    ours.xOpen = ctypes.cast(open_cb, ctypes.c_void_p).value
    ours.xDelete = ctypes.cast(delete_cb, ctypes.c_void_p).value
    _keep.extend((ours, open_cb, delete_cb, real_open, real_delete))
    if lib.sqlite3_vfs_register(ctypes.byref(ours), 1) != 0:
        raise RuntimeError("sqlite3_vfs_register failed")
    _lib = lib


if __name__ == "__main__":
    install(sys.argv[1])
    from bot.__main__ import main
    from bot.core import storage

    storage.SYNCHRONOUS = os.environ.get("POWERCUT_SYNCHRONOUS", storage.SYNCHRONOUS)

    code = main([])
    sys.stdout.flush()
    sys.stderr.flush()
    # Not through the interpreter's finalisation: it frees the callbacks before SQLite's last
    # calls to them.
    os._exit(code)
