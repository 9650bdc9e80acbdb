"""The page follows Telegram's theme while it is open: the colours it opens with, then every
``theme_changed`` event, however Telegram delivers it (its apps call
``Telegram.WebView.receiveEvent``, the web version posts a message from the parent frame, and
with Telegram's own script on the page ``Telegram.WebApp`` fires ``themeChanged``)."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from tests.webapp.conftest import PHONE

pytestmark = pytest.mark.asyncio(loop_scope="session")

DAY = {"bg_color": "#ffffff", "text_color": "#000000", "button_color": "#3390ec"}
NIGHT = {"bg_color": "#212121", "text_color": "#ffffff", "button_color": "#8774e1"}
WHITE, DARK = "rgb(255, 255, 255)", "rgb(33, 33, 33)"
BACKGROUND = "getComputedStyle(document.body).backgroundColor"
# Telegram's app as the page sees it: the proxy it posts its events to.
APP = "window.__posted = []; window.TelegramWebviewProxy = {postEvent: (t) => __posted.push(t)};"
# Telegram's own script on the page, reduced to what the page uses of it.
WEBAPP = """
window.Telegram = {WebApp: {themeParams: %s, handlers: {},
  onEvent(name, f) { (this.handlers[name] = this.handlers[name] || []).push(f); }}};
"""


def themed(url: str, theme: dict) -> str:
    return f"{url}#tgWebAppThemeParams={quote(json.dumps(theme), safe='')}"


async def test_the_apps_theme_change_is_followed(browser, local):
    """In Telegram's apps: the page asks for the theme when it opens and takes each new one
    at once, by either name of the app's entry point; a value that is not a colour is
    never written into the style."""
    context = await browser.new_context(viewport=PHONE)
    await context.add_init_script(APP)
    page = await context.new_page()
    try:
        await page.goto(themed(local.url, DAY))
        await page.wait_for_selector(".chooser")
        assert await page.evaluate(BACKGROUND) == WHITE
        assert "web_app_request_theme" in await page.evaluate("window.__posted")
        change = "([via, t]) => eval(via)('theme_changed', {theme_params: t})"
        await page.evaluate(change, ["Telegram.WebView.receiveEvent", NIGHT])
        assert await page.evaluate(BACKGROUND) == DARK
        await page.evaluate(change, ["TelegramGameProxy.receiveEvent", DAY])
        assert await page.evaluate(BACKGROUND) == WHITE
        await page.evaluate(change, ["Telegram.WebView.receiveEvent", {"bg_color": "red;x"}])
        style = "document.documentElement.style.getPropertyValue('--tg-bg-color')"
        assert await page.evaluate(style) == ""
        # Other events leave the colours alone.
        await page.evaluate(change, ["Telegram.WebView.receiveEvent", NIGHT])
        await page.evaluate("Telegram.WebView.receiveEvent('viewport_changed', {height: 500})")
        assert await page.evaluate(BACKGROUND) == DARK
    finally:
        await context.close()


async def test_the_web_versions_theme_change_is_followed(browser, local):
    """In Telegram's web version the page is a frame: a theme_changed message from the parent
    frame is followed; the same message from anywhere else is not. (The parent is a page of
    the same site: the Content-Security-Policy lets only it and Telegram's web clients frame
    the table, and those are https sites that a browser does not let frame a local address.)"""
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    try:
        parent = f'<iframe src="{themed(local.url, DAY)}" width="390" height="800">'
        await page.route(
            f"{local.url}parent.html",
            lambda route: route.fulfill(body=parent, content_type="text/html"),
        )
        await page.goto(f"{local.url}parent.html")
        frame = await (await page.wait_for_selector("iframe")).content_frame()
        await frame.wait_for_selector(".chooser")
        assert await frame.evaluate(BACKGROUND) == WHITE
        message = "t => JSON.stringify({eventType: 'theme_changed', eventData: {theme_params: t}})"
        post = (
            f"t => document.querySelector('iframe').contentWindow.postMessage(({message})(t), '*')"
        )
        await page.evaluate(post, NIGHT)
        await frame.wait_for_function(f"{BACKGROUND} === '{DARK}'")
        await frame.evaluate(f"t => window.postMessage(({message})(t), '*')", DAY)
        await page.wait_for_timeout(100)
        assert await frame.evaluate(BACKGROUND) == DARK
    finally:
        await context.close()


async def test_telegram_webapp_theme_changed_is_followed(browser, local):
    """With Telegram's script on the page, its themeChanged event brings the new colours."""
    context = await browser.new_context(viewport=PHONE)
    await context.add_init_script(WEBAPP % json.dumps(DAY))
    page = await context.new_page()
    try:
        await page.goto(local.url)
        await page.wait_for_selector(".chooser")
        assert await page.evaluate(BACKGROUND) == WHITE
        fire = "t => { Telegram.WebApp.themeParams = t; Telegram.WebApp.handlers.themeChanged"
        await page.evaluate(fire + ".forEach((f) => f()); }", NIGHT)
        assert await page.evaluate(BACKGROUND) == DARK
    finally:
        await context.close()
