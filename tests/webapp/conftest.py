"""Shared pieces of the web table's tests: one headless Chromium for the whole run (the
distribution's package, driven by Playwright), and servers on free ports of localhost."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
from pathlib import Path

import pytest
import pytest_asyncio
import uvicorn

SCREENSHOTS = Path(__file__).resolve().parent.parent.parent / "build" / "screenshots"
PHONE = {"width": 390, "height": 844}


def chromium_path() -> str:
    """The distribution's Chromium (``apt-get install chromium libatomic1``: Playwright's driver
    needs the library): no browser downloads."""
    found = (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )
    if not found:
        pytest.fail("the browser tests need Chromium: apt-get install -y chromium libatomic1")
    return found


class Served:
    """An ASGI app served by uvicorn on this loop, on a free port of localhost."""

    def __init__(self, app) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        config = uvicorn.Config(
            app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1
        )
        self.server = uvicorn.Server(config)
        self.task: asyncio.Task | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/"

    async def __aenter__(self) -> Served:
        self.task = asyncio.create_task(self.server.serve(sockets=[self.sock]))
        while not self.server.started:
            await asyncio.sleep(0.01)
        return self

    async def __aexit__(self, *exc) -> None:
        self.server.should_exit = True
        await self.task
        self.sock.close()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser():
    """One headless Chromium shared by every browser test."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=chromium_path())
        yield browser
        await browser.close()


@pytest_asyncio.fixture(loop_scope="session")
async def local(tmp_path):
    """Local mode on a temporary database, computer players without a pause, served."""
    from bot.webapp.local import LocalServer
    from tests.translator import TR

    server = await LocalServer.open(tmp_path / "local.sqlite3", TR, "it", 0, 20)
    async with Served(server.web.app) as served:
        server.url = served.url
        yield server
        server.web.tables.close()  # the pages' streams end, so the server stops at once
    await server.close()
