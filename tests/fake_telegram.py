"""A fake Telegram Bot API: one world of users, chats and messages that answers like Telegram.

Every bot test talks to this instead of api.telegram.org, in one of two ways:

* in process: `FakeRequest(fake)` is a python-telegram-bot request backend;
* over HTTP: `fake.serve()` starts a threaded localhost server answering `/bot<token>/<method>`.

Both paths decode parameters the same way (the form encoding Telegram accepts: strings as they
are, everything else JSON), answer with Telegram's JSON envelope, status codes and error
descriptions, and enforce Telegram's limits, taken from `telegram.constants` where PTB has them.
Tests act as users (`send_text`, `press`, `inline_query`, ...), which queues updates for
`getUpdates` and also returns them for `Application.process_update`.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import email
import email.policy
import hashlib
import json
import math
import re
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from telegram.constants import (
    BotCommandLimit,
    BotDescriptionLimit,
    BotNameLimit,
    CallbackQueryLimit,
    InlineKeyboardButtonLimit,
    InlineKeyboardMarkupLimit,
    InlineQueryLimit,
    InlineQueryResultLimit,
    MessageLimit,
)
from telegram.error import TimedOut
from telegram.request import BaseRequest, RequestData

from tests.fake_telegram_markup import MarkupError, parse_entities, trim_formatted, utf16_len

__all__ = [
    "ApiError",
    "FailedCall",
    "FakeMessage",
    "FakeRequest",
    "FakeServer",
    "FakeTelegram",
]

# Telegram's descriptions, word for word.
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
CANT_EDIT = "Bad Request: message can't be edited"
CANT_DELETE = "Bad Request: message can't be deleted"
CANT_DELETE_FOR_EVERYONE = "Bad Request: message can't be deleted for everyone"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
CHAT_NOT_FOUND = "Bad Request: chat not found"
USER_NOT_FOUND = "Bad Request: user not found"
TEXT_EMPTY = "Bad Request: message text is empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
CANT_PARSE = "Bad Request: can't parse entities: "
UNSUPPORTED_PARSE_MODE = "Bad Request: unsupported parse_mode"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BLOCKED = "Forbidden: bot was blocked by the user"
KICKED = "Forbidden: bot was kicked from the {kind} chat"
NOT_MEMBER = "Forbidden: bot is not a member of the {kind} chat"
UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"
TOPIC_CLOSED = "Bad Request: TOPIC_CLOSED"
THREAD_NOT_FOUND = "Bad Request: message thread not found"
TEXT_BUTTONS = (
    "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline "
    "keyboard"
)
MARKUP_TOO_LONG = "Bad Request: reply markup is too long"
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
BUTTON_TEXT_INVALID = "Bad Request: BUTTON_TEXT_INVALID"
BUTTON_URL_INVALID = "Bad Request: BUTTON_URL_INVALID"
ANSWER_TOO_LONG = "Bad Request: MESSAGE_TOO_LONG"
URL_INVALID = "Bad Request: URL_INVALID"
RESULTS_TOO_MUCH = "Bad Request: RESULTS_TOO_MUCH"
RESULT_ID_DUPLICATE = "Bad Request: RESULT_ID_DUPLICATE"
RESULT_ID_INVALID = "Bad Request: RESULT_ID_INVALID"
START_PARAM_INVALID = "Bad Request: START_PARAM_INVALID"
BUTTON_TYPE_INVALID = "Bad Request: BUTTON_TYPE_INVALID"
POLL_CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is "
    "running"
)
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete "
    "the webhook first"
)
# Calls Telegram's flood control counts per group, and those it does not count at all.
_GROUP_LIMITED = frozenset({"sendMessage", "editMessageText", "editMessageReplyMarkup"})
_UNLIMITED = frozenset({"getUpdates", "getMe", "answerCallbackQuery", "answerInlineQuery"})
_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    500: "Internal Server Error",
    502: "Bad Gateway",
}

MAX_TEXT = MessageLimit.MAX_TEXT_LENGTH
MAX_ENTITIES = MessageLimit.MESSAGE_ENTITIES
MAX_ANSWER_TEXT = CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH
MIN_CALLBACK_DATA = InlineKeyboardButtonLimit.MIN_CALLBACK_DATA
MAX_CALLBACK_DATA = InlineKeyboardButtonLimit.MAX_CALLBACK_DATA
MAX_BUTTONS = InlineKeyboardMarkupLimit.TOTAL_BUTTON_NUMBER
MAX_BUTTONS_PER_ROW = InlineKeyboardMarkupLimit.BUTTONS_PER_ROW
MAX_INLINE_RESULTS = InlineQueryLimit.RESULTS
MAX_INLINE_QUERY = InlineQueryLimit.MAX_QUERY_LENGTH
MAX_RESULT_ID = InlineQueryResultLimit.MAX_ID_LENGTH
MAX_DEEP_LINK = MessageLimit.DEEP_LINK_LENGTH
# answerInlineQuery's cache_time when the bot gives none (seconds).
DEFAULT_INLINE_CACHE = 300
_START_PARAMETER = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# How often a waiting long poll over HTTP checks whether its client went away.
_DISCONNECT_GRACE = 0.05
# Telegram's documented "less than 48 hours ago" rule for deleting messages.
DELETE_WINDOW = 48 * 3600

_BOT_TEXT_LIMITS = {
    "description": BotDescriptionLimit.MAX_DESCRIPTION_LENGTH,
    "short": BotDescriptionLimit.MAX_SHORT_DESCRIPTION_LENGTH,
    "name": BotNameLimit.MAX_NAME_LENGTH,
}

_INT, _STR, _BOOL, _JSON, _CHAT, _FLOAT = "int", "str", "bool", "json", "chat", "float"
_BUTTON_ACTIONS = (
    "callback_data",
    "url",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
_CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
# Sent by default when allowed_updates is empty or was never given.
_DEFAULT_EXCLUDED_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
_ADMIN_RIGHTS = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_pin_messages": True,
    "can_manage_topics": False,
}


class ApiError(Exception):
    """A Bot API error answer: HTTP status, Telegram's description, optional parameters."""

    def __init__(self, code: int, description: str, parameters: dict | None = None) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description
        self.parameters = parameters


@dataclass(frozen=True)
class FailedCall:
    """A call the fake answered with an error (injected failures included)."""

    method: str
    params: dict
    error_code: int
    description: str


@dataclass(eq=False)
class FakeMessage:
    """A message as Telegram holds it now (after edits), plus what the bot sent to make it."""

    message_id: int
    chat_id: int | None
    text: str
    raw_text: str
    parse_mode: str | None
    entities: list[dict]
    reply_markup: dict | None
    sender: dict | None
    date: int
    chat: dict | None = None
    edits: int = 0
    deleted: bool = False
    edit_date: int | None = None
    inline_message_id: str | None = None
    reply_to: FakeMessage | None = None
    via_bot: dict | None = None
    protected: bool = False
    pinned: bool = False
    service: dict | None = None
    history: list[tuple[str, dict | None]] = field(default_factory=list)
    # The forum topic (or, outside topics, the reply thread) the message belongs to.
    thread_id: int | None = None
    topic_message: bool = False  # in a forum topic (not General, not a reply thread)

    @property
    def from_id(self) -> int | None:
        """Id of the sender."""
        return self.sender["id"] if self.sender else None

    @property
    def keyboard(self) -> list[list[dict]]:
        """Rows of the inline keyboard (empty without one)."""
        if not self.reply_markup:
            return []
        return self.reply_markup.get("inline_keyboard") or []

    @property
    def buttons(self) -> list[tuple[str, str | None]]:
        """Inline buttons in reading order as (text, callback_data or url or other action)."""
        return [(b.get("text", ""), _button_value(b)) for row in self.keyboard for b in row]

    def button(self, text_or_predicate: str | Callable[[dict], bool]) -> dict:
        """The first inline button with this text (or for which the predicate holds)."""
        for row in self.keyboard:
            for button in row:
                if callable(text_or_predicate):
                    if text_or_predicate(button):
                        return button
                elif button.get("text") == text_or_predicate:
                    return button
        texts = [text for text, _ in self.buttons]
        raise LookupError(f"no button {text_or_predicate!r} on message {self.message_id}: {texts}")

    def to_dict(self, *, with_reply: bool = True) -> dict:
        """The Telegram Message object for this message, as the Bot API returns it."""
        data: dict[str, Any] = {"message_id": self.message_id, "date": self.date}
        if self.sender is not None:
            data["from"] = self.sender
        data["chat"] = self.chat
        if self.thread_id is not None:
            data["message_thread_id"] = self.thread_id
        if self.topic_message:
            data["is_topic_message"] = True
        if self.via_bot is not None:
            data["via_bot"] = self.via_bot
        if with_reply and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_dict(with_reply=False)
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.protected:
            data["has_protected_content"] = True
        if self.service is not None:
            data.update(self.service)
        else:
            data["text"] = self.text
            if self.entities:
                data["entities"] = self.entities
        # Only inline keyboards come back in a Message; reply keyboards live on the client.
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            data["reply_markup"] = self.reply_markup
        return copy.deepcopy(data)


def _button_value(button: dict) -> str | None:
    for key in _BUTTON_ACTIONS:
        if key in button:
            value = button[key]
            if isinstance(value, str):
                return value
            if isinstance(value, dict):
                return value.get("url") or value.get("text") or json.dumps(value, sort_keys=True)
            return json.dumps(value)
    return None


@dataclass(eq=False)
class _User:
    data: dict
    started: bool = False
    blocked: bool = False


@dataclass(eq=False)
class _Chat:
    data: dict
    members: set[int] = field(default_factory=set)
    admins: dict[int, str] = field(default_factory=dict)
    bot_status: str = "member"
    messages: list[FakeMessage] = field(default_factory=list)
    next_id: int = 1
    migrated_to: int | None = None
    topics: dict[int, _Topic] = field(default_factory=dict)  # a forum's topics by thread id

    @property
    def id(self) -> int:
        return self.data["id"]

    @property
    def type(self) -> str:
        return self.data["type"]

    def find(self, message_id: int) -> FakeMessage | None:
        # Message ids only grow, so the index is known: no scan over a long game chat.
        index = message_id - (self.messages[0].message_id if self.messages else 1)
        if 0 <= index < len(self.messages) and self.messages[index].message_id == message_id:
            return self.messages[index]
        return next((m for m in self.messages if m.message_id == message_id), None)


@dataclass(eq=False)
class _Topic:
    """A forum topic: its thread id is the id of the service message that created it."""

    name: str
    icon_color: int
    closed: bool = False
    deleted: bool = False


@dataclass(eq=False)
class _Query:
    """A callback or inline query waiting for the bot's answer."""

    update: dict
    created: float
    answer: dict | None = None
    from_cache: bool = False  # answered by Telegram from an earlier answer; the bot never saw it


@dataclass
class _Failure:
    method: str | None
    error: int | str
    description: str
    parameters: dict | None
    match: Callable[[dict], bool] | None
    times: int
    applied: bool


@dataclass
class _Wait:
    """A getUpdates call waiting for updates (long polling)."""

    deadline: float
    generation: int
    limit: int
    call: tuple[str, dict]


@dataclass
class _Outcome:
    status: int
    envelope: dict | None = None
    timeout: bool = False
    wait: _Wait | None = None

    @property
    def body(self) -> bytes:
        return _json_bytes(self.envelope)


def _json_bytes(envelope: Any) -> bytes:
    """JSON as Telegram sends it: UTF-8, with a lone surrogate (which UTF-8 cannot carry)
    written as its escape."""
    try:
        return json.dumps(envelope, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(envelope).encode("utf-8")


def _ok(result: Any) -> _Outcome:
    return _Outcome(200, {"ok": True, "result": result})


def _error(error: ApiError) -> _Outcome:
    envelope: dict[str, Any] = {
        "ok": False,
        "error_code": error.code,
        "description": error.description,
    }
    if error.parameters:
        envelope["parameters"] = error.parameters
    return _Outcome(error.code, envelope)


def _params(**kinds: str) -> dict[str, str]:
    return kinds


_CHAT_MSG = _params(business_connection_id=_STR, chat_id=_CHAT, message_id=_INT)
_TEXT = _params(
    text=_STR,
    parse_mode=_STR,
    entities=_JSON,
    link_preview_options=_JSON,
    disable_web_page_preview=_BOOL,
    reply_markup=_JSON,
)
_EDIT = {**_CHAT_MSG, "inline_message_id": _STR}
_LANG = _params(language_code=_STR)
_SCOPE = _params(scope=_JSON, language_code=_STR)
# The methods the fake answers: parameter kinds, then the required parameters.
_METHODS: dict[str, tuple[dict[str, str], tuple[str, ...]]] = {
    "getMe": ({}, ()),
    "logOut": ({}, ()),
    "close": ({}, ()),
    "getUpdates": (_params(offset=_INT, limit=_INT, timeout=_INT, allowed_updates=_JSON), ()),
    "setWebhook": (
        _params(
            url=_STR,
            max_connections=_INT,
            allowed_updates=_JSON,
            drop_pending_updates=_BOOL,
            secret_token=_STR,
            ip_address=_STR,
        ),
        ("url",),
    ),
    "deleteWebhook": (_params(drop_pending_updates=_BOOL), ()),
    "getWebhookInfo": ({}, ()),
    "sendMessage": (
        {
            **_CHAT_MSG,
            **_TEXT,
            "message_thread_id": _INT,
            "direct_messages_topic_id": _INT,
            "disable_notification": _BOOL,
            "protect_content": _BOOL,
            "allow_paid_broadcast": _BOOL,
            "message_effect_id": _STR,
            "suggested_post_parameters": _JSON,
            "reply_parameters": _JSON,
            "reply_to_message_id": _INT,
            "allow_sending_without_reply": _BOOL,
        },
        ("chat_id", "text"),
    ),
    "editMessageText": ({**_EDIT, **_TEXT}, ("text",)),
    "editMessageReplyMarkup": ({**_EDIT, "reply_markup": _JSON}, ()),
    "deleteMessage": (_params(chat_id=_CHAT, message_id=_INT), ("chat_id", "message_id")),
    "deleteMessages": (_params(chat_id=_CHAT, message_ids=_JSON), ("chat_id", "message_ids")),
    "answerCallbackQuery": (
        _params(callback_query_id=_STR, text=_STR, show_alert=_BOOL, url=_STR, cache_time=_INT),
        ("callback_query_id",),
    ),
    "answerInlineQuery": (
        _params(
            inline_query_id=_STR,
            results=_JSON,
            cache_time=_INT,
            is_personal=_BOOL,
            next_offset=_STR,
            button=_JSON,
        ),
        ("inline_query_id", "results"),
    ),
    "getChat": (_params(chat_id=_CHAT), ("chat_id",)),
    "getChatMember": (_params(chat_id=_CHAT, user_id=_INT), ("chat_id", "user_id")),
    "getChatAdministrators": (_params(chat_id=_CHAT), ("chat_id",)),
    "getChatMemberCount": (_params(chat_id=_CHAT), ("chat_id",)),
    "leaveChat": (_params(chat_id=_CHAT), ("chat_id",)),
    "sendChatAction": (
        _params(business_connection_id=_STR, chat_id=_CHAT, message_thread_id=_INT, action=_STR),
        ("chat_id", "action"),
    ),
    "pinChatMessage": ({**_CHAT_MSG, "disable_notification": _BOOL}, ("chat_id", "message_id")),
    "unpinChatMessage": (_CHAT_MSG, ("chat_id",)),
    "unpinAllChatMessages": (_params(chat_id=_CHAT), ("chat_id",)),
    "setMyCommands": ({**_SCOPE, "commands": _JSON}, ("commands",)),
    "getMyCommands": (_SCOPE, ()),
    "deleteMyCommands": (_SCOPE, ()),
    "setMyDescription": ({**_LANG, "description": _STR}, ()),
    "getMyDescription": (_LANG, ()),
    "setMyShortDescription": ({**_LANG, "short_description": _STR}, ()),
    "getMyShortDescription": (_LANG, ()),
    "setMyName": ({**_LANG, "name": _STR}, ()),
    "getMyName": (_LANG, ()),
    "setChatMenuButton": (_params(chat_id=_INT, menu_button=_JSON), ()),
    "getChatMenuButton": (_params(chat_id=_INT), ()),
}
# Telegram matches method names case-insensitively.
_CANONICAL = {name.lower(): name for name in _METHODS}
_JSON_LABELS = {"reply_markup": "reply keyboard markup", "entities": "message entities"}


def _convert(name: str, kind: str, value: Any) -> Any:
    """One parameter as the Bot API reads it: form strings are decoded by the field's type."""
    if kind == _STR:
        return value if isinstance(value, str) else json.dumps(value)
    if kind == _JSON:
        if not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except ValueError:
            label = _JSON_LABELS.get(name, name)
            raise ApiError(400, f"Bad Request: can't parse {label} JSON object") from None
    if kind == _BOOL:
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return value != 0
        return str(value).strip().lower() in ("true", "1", "yes")
    if kind == _FLOAT:
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ApiError(400, f'Bad Request: field "{name}" must be a Number') from None
    if isinstance(value, bool):
        raise ApiError(400, f'Bad Request: field "{name}" must be an Integer')
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    text = str(value).strip()
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if re.fullmatch(r"[+-]?\d+\.0*", text):
        return int(float(text))
    if kind == _CHAT:
        return text  # "@username"; anything else is simply a chat Telegram cannot find
    raise ApiError(400, f'Bad Request: field "{name}" must be an Integer')


def _decode_params(method: str, raw: dict[str, Any]) -> dict[str, Any]:
    kinds, required = _METHODS[method]
    params: dict[str, Any] = {}
    for name, value in raw.items():
        if value is None:
            continue
        kind = kinds.get(name)
        # Telegram ignores parameters it does not know; keep them for the call log.
        params[name] = value if kind is None else _convert(name, kind, value)
    for name in required:
        if name not in params:
            if name == "text":
                raise ApiError(400, TEXT_EMPTY)
            if name == "message_id":
                raise ApiError(400, "Bad Request: message identifier is not specified")
            raise ApiError(400, f"Bad Request: {name} is empty")
    return params


_COMMAND = re.compile(r"(?<![\w/])/([A-Za-z0-9_]{1,64})(?:@([A-Za-z0-9_]{3,64}))?(?![\w@])")
_MENTION = re.compile(r"(?<![\w@])@([A-Za-z0-9_]{4,32})\b")
_START_LINK = re.compile(
    r"^(?:https?://)?(?:t\.me|telegram\.me)/([A-Za-z0-9_]{4,32})/?(?:\?(.*))?$", re.IGNORECASE
)
_RESOLVE_LINK = re.compile(r"^tg://resolve\?(.*)$", re.IGNORECASE)
_PAYLOAD = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_DEEP_LINK}}}")


def _u16_offset(text: str, index: int) -> int:
    return utf16_len(text[:index])


def _detect_entities(text: str) -> list[dict]:
    """Entities Telegram finds by itself in a user's text: bot commands and mentions."""
    found = []
    for regex, kind in ((_COMMAND, "bot_command"), (_MENTION, "mention")):
        for match in regex.finditer(text):
            offset = _u16_offset(text, match.start())
            found.append({"type": kind, "offset": offset, "length": utf16_len(match.group(0))})
    return sorted(found, key=lambda e: e["offset"])


class _Enforced:
    """A rate regime of Telegram's own (see `FakeTelegram.enforce`): sliding one-second windows
    of the calls let through, overall and per private chat."""

    def __init__(
        self, overall_rate: int, private_rate: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.overall_rate = overall_rate
        self.private_rate = private_rate
        self.clock = clock
        self.served: list[float] = []  # the clock's time of every call let through
        self.refused = 0
        self._recent: deque[float] = deque()
        self._private: dict[int, deque[float]] = {}

    def check(self, method: str, params: dict) -> None:
        """Let the call through (and count it), or raise the 429."""
        if method == "getUpdates":
            return
        now = self.clock()
        while self._recent and self._recent[0] <= now - 1:
            self._recent.popleft()
        chat_id = params.get("chat_id")
        mine = None
        if isinstance(chat_id, int) and chat_id > 0:
            mine = self._private.setdefault(chat_id, deque())
            while mine and mine[0] <= now - 1:
                mine.popleft()
        if len(self._recent) >= self.overall_rate or (
            mine is not None and len(mine) >= self.private_rate
        ):
            self.refused += 1
            raise ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1})
        self._recent.append(now)
        if mine is not None:
            mine.append(now)
        self.served.append(now)


class FakeTelegram:
    """The whole fake world: the bot, users, chats, messages, pending updates and the call log.

    Options: `privacy_mode` (Telegram's default for bots is on: in groups the bot then gets only
    commands, mentions and replies to it; the fake defaults to off), `strict_html` (reject a bare
    `&` or `>` in HTML text), `max_poll_seconds` (cap on a getUpdates long poll, so tests stay
    fast), `query_timeout` (seconds within which a callback or inline query must be answered; move
    the clock with `advance`), `inline_feedback` (queue chosen_inline_result updates),
    `flood_limits` (answer 429 with retry_after, as Telegram does, past `group_rate` messages a
    minute in one group or `overall_rate` calls a second in all chats). `enforce()` sets a
    stricter regime of Telegram's own (429 past N calls a second counting every method, and past
    one a second in each private chat), whatever the bot assumes. `outage()` makes every call
    fail for a while, as when the Bot API cannot be reached.
    """

    def __init__(
        self,
        bot_username: str = "TavolataBot",
        *,
        bot_name: str | None = None,
        bot_id: int = 7_000_000_001,
        privacy_mode: bool = False,
        strict_html: bool = True,
        max_poll_seconds: float = 1.0,
        query_timeout: float = 15.0,
        inline_feedback: bool = False,
        flood_limits: bool = False,
        group_rate: int = 20,
        overall_rate: int = 30,
    ) -> None:
        """Create an empty world around one bot."""
        self._lock = threading.RLock()
        self._cond = threading.Condition(self._lock)
        self.bot_id = bot_id
        self.bot_username = bot_username
        secret = hashlib.sha256(f"{bot_id}:{bot_username}".encode()).hexdigest()
        self.token = f"{bot_id}:AA{secret[:33]}"
        self.bot_user = {
            "id": bot_id,
            "is_bot": True,
            "first_name": bot_name or bot_username,
            "username": bot_username,
        }
        # Bots start with privacy mode on; the fake defaults to off so tests see every message.
        self.privacy_mode = privacy_mode
        self.strict_html = strict_html
        self.max_poll_seconds = max_poll_seconds
        self.query_timeout = query_timeout
        self.inline_feedback = inline_feedback
        self.flood_limits = flood_limits
        self.group_rate = group_rate
        self.overall_rate = overall_rate
        self._flood: dict[int | None, list[float]] = {}  # chat (None: all) -> recent call times
        self.enforced: _Enforced | None = None  # the regime set by enforce(), if any
        self._down: int | str | None = None  # the outage's error, while there is one
        self.calls: list[tuple[str, dict]] = []
        self.errors: list[FailedCall] = []
        self.internal_errors: list[BaseException] = []
        self.alerts: list[dict] = []
        self.inline_answers: list[dict] = []
        self.updates: list[dict] = []
        self.commands: dict[tuple[str, str], list[dict]] = {}
        self.bot_texts: dict[tuple[str, str], str] = {}
        self.menu_buttons: dict[int | None, dict] = {}
        self.webhook_url = ""
        self.webhook_secret = ""  # the secret_token Telegram would send with each update
        self._pending: list[dict] = []
        self._users: dict[int, _User] = {}
        self._chats: dict[int, _Chat] = {}
        self._inline_messages: dict[str, FakeMessage] = {}
        self._callbacks: dict[str, _Query] = {}
        self._inline_queries: dict[str, _Query] = {}
        # Telegram's cache of inline answers: (query, offset, user id or None) -> (answer, until).
        self._inline_cache: dict[tuple[str, str, int | None], tuple[dict, float]] = {}
        self._deliveries: dict[tuple[int, int], dict] = {}
        self._failures: list[_Failure] = []
        self._allowed_updates: list[str] | None = None
        self._poll_generation = 0
        self._async_waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self._clock_offset = 0.0
        self._next_user = 1_000_001
        self._next_group = 1
        self._next_update = 1
        self._next_query = 1
        self._handlers: dict[str, Callable[[dict], Any]] = {
            "getMe": self._get_me,
            "logOut": lambda p: True,
            "close": lambda p: True,
            "getUpdates": self._get_updates,
            "setWebhook": self._set_webhook,
            "deleteWebhook": self._delete_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "sendMessage": self._send_message,
            "editMessageText": self._edit_message_text,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "deleteMessage": self._delete_message,
            "deleteMessages": self._delete_messages,
            "answerCallbackQuery": self._answer_callback_query,
            "answerInlineQuery": self._answer_inline_query,
            "getChat": self._get_chat,
            "getChatMember": self._get_chat_member,
            "getChatAdministrators": self._get_chat_administrators,
            "getChatMemberCount": self._get_chat_member_count,
            "leaveChat": self._leave_chat,
            "sendChatAction": self._send_chat_action,
            "pinChatMessage": self._pin_chat_message,
            "unpinChatMessage": self._unpin_chat_message,
            "unpinAllChatMessages": self._unpin_all_chat_messages,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "setMyDescription": self._bot_text_setter("description", "description"),
            "getMyDescription": self._bot_text_getter("description", "description"),
            "setMyShortDescription": self._bot_text_setter("short_description", "short"),
            "getMyShortDescription": self._bot_text_getter("short_description", "short"),
            "setMyName": self._bot_text_setter("name", "name"),
            "getMyName": self._bot_text_getter("name", "name"),
            "setChatMenuButton": self._set_chat_menu_button,
            "getChatMenuButton": self._get_chat_menu_button,
        }

    # ----------------------------------------------------------------------------- the clock

    def _time(self) -> float:
        return time.time() + self._clock_offset

    def now(self) -> int:
        """Telegram's idea of the current Unix time (moved on by `advance`)."""
        return int(self._time())

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward, e.g. past a callback query's answer deadline."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        with self._lock:
            self._clock_offset += seconds

    # ------------------------------------------------------------------------ world building

    def add_user(
        self,
        first_name: str,
        username: str | None = None,
        language_code: str | None = None,
        *,
        last_name: str | None = None,
        is_premium: bool = False,
    ) -> dict:
        """Create a Telegram user; returns the User object."""
        if not first_name:
            raise ValueError("a Telegram user has a non-empty first name")
        with self._lock:
            user: dict[str, Any] = {"id": self._next_user, "is_bot": False}
            user["first_name"] = first_name
            if last_name:
                user["last_name"] = last_name
            if username:
                user["username"] = username
            if language_code:
                user["language_code"] = language_code
            if is_premium:
                user["is_premium"] = True
            self._next_user += 1
            self._users[user["id"]] = _User(user)
            return dict(user)

    def add_group(
        self,
        title: str,
        members: Iterable[dict] = (),
        *,
        type: str = "supergroup",
        username: str | None = None,
        bot_member: bool = True,
        forum: bool = False,
    ) -> dict:
        """Create a group or supergroup with these members and the bot; returns the Chat.
        ``forum``: a supergroup with topics (``is_forum``; see ``create_topic``)."""
        if type not in ("group", "supergroup"):
            raise ValueError("type is 'group' or 'supergroup'")
        if forum and type != "supergroup":
            raise ValueError("only a supergroup can have topics")
        if not title:
            raise ValueError("a group has a non-empty title")
        with self._lock:
            if type == "supergroup":
                chat_id = -1_001_000_000_000 - self._next_group
            else:
                chat_id = -4_000_000_000 - self._next_group
            self._next_group += 1
            data: dict[str, Any] = {"id": chat_id, "type": type, "title": title}
            if username:
                data["username"] = username
            if forum:
                data["is_forum"] = True
            chat = _Chat(data, bot_status="member" if bot_member else "left")
            if forum:
                chat.next_id = 2  # 1 is General's id, never a message's the bot can name
            for member in members:
                chat.members.add(self._user(member).data["id"])
            self._chats[chat_id] = chat
            return dict(data)

    def add_member(self, group: dict | int, user: dict) -> None:
        """Make the user a member of the group."""
        with self._lock:
            self._group(group).members.add(self._user(user).data["id"])

    def remove_member(self, group: dict | int, user: dict) -> None:
        """The user leaves the group."""
        with self._lock:
            chat = self._group(group)
            uid = self._user(user).data["id"]
            chat.members.discard(uid)
            chat.admins.pop(uid, None)

    def set_admin(self, group: dict | int, user: dict, *, owner: bool = False) -> None:
        """Make the user (or the bot, given `fake.bot_user`) an administrator or the owner."""
        with self._lock:
            chat = self._group(group)
            if user["id"] == self.bot_id:
                chat.bot_status = "administrator"
                return
            uid = self._user(user).data["id"]
            chat.members.add(uid)
            chat.admins[uid] = "creator" if owner else "administrator"

    def start_private(self, user: dict, payload: str | None = None) -> dict:
        """The user presses Start (optionally from a deep link): queues "/start [payload]"."""
        if payload is not None and not _PAYLOAD.fullmatch(payload):
            raise ValueError(
                f"a start payload is 1-{MAX_DEEP_LINK} characters of A-Z, a-z, 0-9, _ and -: "
                f"{payload!r}"
            )
        with self._lock:
            record = self._user(user)
            chat = self._private_chat(record)
            record.started = True
            if record.blocked:
                self._set_blocked(record, chat, False)
            text = "/start" if payload is None else f"/start {payload}"
            update = self._user_message(record, chat, text)
            assert update is not None  # private messages always reach the bot
            return update

    def follow_url(self, user: dict, url: str) -> dict | None:
        """The user opens a t.me link to the bot; a start link sends "/start payload"."""
        with self._lock:
            name, query = None, ""
            match = _START_LINK.match(url.strip())
            if match:
                name, query = match[1], match[2] or ""
            else:
                match = _RESOLVE_LINK.match(url.strip())
                if match:
                    args = dict(parse_qsl(match[1]))
                    name = args.pop("domain", None)
                    query = "&".join(f"{k}={v}" for k, v in args.items())
            if name is None or name.lower() != self.bot_username.lower():
                raise ValueError(f"{url!r} is not a link to @{self.bot_username}")
            args = dict(parse_qsl(query, keep_blank_values=True))
            if "start" in args:
                return self.start_private(user, args["start"] or None)
            if set(args) & {"startgroup", "startchannel", "startapp"}:
                raise ValueError(f"the fake does not follow {url!r}")
            record = self._user(user)
            # Opening an already started chat sends nothing; a new one shows the Start button.
            return None if record.started and not record.blocked else self.start_private(user)

    def block(self, user: dict) -> dict | None:
        """The user blocks the bot; returns the my_chat_member update if the chat was open."""
        with self._lock:
            record = self._user(user)
            chat = self._chats.get(record.data["id"])
            if record.blocked:
                return None
            record.blocked = True
            if chat is None:
                return None
            change = self._member_change(chat, user, "member", "kicked")
            return self._queue("my_chat_member", change)

    def unblock(self, user: dict) -> dict | None:
        """The user unblocks the bot without pressing Restart."""
        with self._lock:
            record = self._user(user)
            chat = self._chats.get(record.data["id"])
            if not record.blocked:
                return None
            if chat is None:
                record.blocked = False
                return None
            return self._set_blocked(record, chat, False)

    def _set_blocked(self, record: _User, chat: _Chat, blocked: bool) -> dict:
        record.blocked = blocked
        old, new = ("member", "kicked") if blocked else ("kicked", "member")
        return self._queue("my_chat_member", self._member_change(chat, record.data, old, new))

    def migrate_group(self, group: dict | int) -> dict:
        """Upgrade a basic group to a supergroup; sends to the old id then answer 400."""
        with self._lock:
            old = self._group(group)
            if old.type != "group":
                raise ValueError("only a basic group (type='group') can be upgraded")
            if old.migrated_to is not None:
                raise ValueError("this group was already upgraded")
            new_id = -1_001_000_000_000 - self._next_group
            self._next_group += 1
            data = {**old.data, "id": new_id, "type": "supergroup"}
            new = _Chat(data, set(old.members), dict(old.admins), old.bot_status)
            self._chats[new_id] = new
            old.migrated_to = new_id
            if old.bot_status in ("member", "administrator"):
                actor = self._someone_in(old)
                self._service_message(old, actor, {"migrate_to_chat_id": new_id})
                self._service_message(new, actor, {"migrate_from_chat_id": old.id})
            return dict(data)

    def remove_bot(self, group: dict | int, *, by: dict | None = None) -> dict:
        """Someone removes the bot from the group; later calls there answer 403."""
        with self._lock:
            chat = self._group(group)
            actor = by or self._someone_in(chat)
            if actor is None:
                raise ValueError("the group has no members: say who removes the bot (by=user)")
            old = chat.bot_status
            chat.bot_status = "kicked"
            change = self._member_change(chat, actor, old, "kicked", subject=self.bot_user)
            return self._queue("my_chat_member", change)

    def add_bot(self, group: dict | int, *, by: dict | None = None) -> dict:
        """Someone adds the bot to the group (again)."""
        with self._lock:
            chat = self._group(group)
            actor = by or self._someone_in(chat)
            if actor is None:
                raise ValueError("the group has no members: say who adds the bot (by=user)")
            old = chat.bot_status
            chat.bot_status = "member"
            change = self._member_change(chat, actor, old, "member", subject=self.bot_user)
            return self._queue("my_chat_member", change)

    # -------------------------------------------------------------------------- forum topics
    # A forum supergroup (``add_group(..., forum=True)``) has a General topic, where messages
    # carry no message_thread_id, and topics made with ``create_topic``. A topic's thread id is
    # the id of its forum_topic_created service message; every message in it carries that id
    # and is_topic_message. Sending to General means giving no message_thread_id (General's
    # own id, 1, is "message thread not found", as for a deleted topic); a closed topic refuses
    # new messages from the bot (TOPIC_CLOSED: it lacks the right to manage topics), while its
    # messages can still be edited and deleted; a deleted topic takes its messages with it.

    def create_topic(
        self, group: dict | int, name: str, *, by: dict | None = None, icon_color: int = 0x6FB9F0
    ) -> int:
        """Someone opens a topic in a forum; returns its thread id (the bot gets the
        forum_topic_created service message, in the topic)."""
        if not name or len(name) > 128:
            raise ValueError("a topic's name has 1-128 characters")
        with self._lock:
            chat = self._forum(group)
            thread = chat.next_id
            chat.topics[thread] = _Topic(name, icon_color)
            content = {"forum_topic_created": {"name": name, "icon_color": icon_color}}
            self._topic_service(chat, thread, content, by)
            return thread

    def close_topic(self, group: dict | int, thread: int, *, by: dict | None = None) -> None:
        """An administrator closes a topic: only administrators may write there until it
        reopens (the forum_topic_closed service message goes into the topic)."""
        with self._lock:
            chat = self._forum(group)
            self._live_topic(chat, thread).closed = True
            self._topic_service(chat, thread, {"forum_topic_closed": {}}, by)

    def reopen_topic(self, group: dict | int, thread: int, *, by: dict | None = None) -> None:
        """An administrator reopens a closed topic (forum_topic_reopened)."""
        with self._lock:
            chat = self._forum(group)
            self._live_topic(chat, thread).closed = False
            self._topic_service(chat, thread, {"forum_topic_reopened": {}}, by)

    def delete_topic(self, group: dict | int, thread: int) -> None:
        """An administrator deletes a topic with all its messages (Telegram sends no update)."""
        with self._lock:
            chat = self._forum(group)
            self._live_topic(chat, thread).deleted = True
            for msg in chat.messages:
                if msg.topic_message and msg.thread_id == thread:
                    msg.deleted = True

    def topic_messages(
        self, group: dict | int, thread: int | None, *, include_users: bool = False
    ) -> list[FakeMessage]:
        """Messages of one topic of a forum in order (``thread`` None: the General topic);
        only the bot's unless include_users."""
        return [
            m
            for m in self.messages(group, include_users=include_users)
            if (m.thread_id if m.topic_message else None) == thread
        ]

    def _forum(self, group: dict | int) -> _Chat:
        chat = self._group(group)
        if not chat.data.get("is_forum"):
            raise ValueError(f"{chat.data['title']} has no topics: add_group(..., forum=True)")
        return chat

    def _live_topic(self, chat: _Chat, thread: int) -> _Topic:
        topic = chat.topics.get(thread)
        if topic is None or topic.deleted:
            raise LookupError(f"no topic {thread} in {chat.data['title']}")
        return topic

    def _topic_service(self, chat: _Chat, thread: int, content: dict, by: dict | None) -> None:
        actor = by or self._someone_in(chat)
        self._service_message(
            chat, actor, content, thread, queue=chat.bot_status in ("member", "administrator")
        )

    def _user_thread(
        self, chat: _Chat, user_id: int, topic: int | None, replied: FakeMessage | None
    ) -> tuple[int | None, bool]:
        """Where a user's message goes: (message_thread_id, is_topic_message)."""
        if topic is not None:
            if not chat.data.get("is_forum"):
                raise ValueError("only a forum has topics")
            if self._live_topic(chat, topic).closed and user_id not in chat.admins:
                raise ValueError("the topic is closed: only administrators write there")
            if replied is not None and (replied.thread_id, replied.topic_message) != (topic, True):
                raise ValueError("that message is in another topic")
            return topic, True
        if replied is None or chat.type != "supergroup":
            return None, False
        if replied.topic_message:
            return replied.thread_id, True  # a reply stays in its message's topic
        # Outside topics a reply joins its message's reply thread, which Telegram names by the
        # thread's first message: a message_thread_id without is_topic_message.
        return replied.thread_id or replied.message_id, False

    def _sent_thread(
        self, chat: _Chat, p: dict, reply_to: FakeMessage | None
    ) -> tuple[int | None, bool]:
        """Where the bot's message goes (sendMessage's message_thread_id), or Telegram's 400."""
        thread = p.get("message_thread_id")
        forum = bool(chat.data.get("is_forum"))
        if thread is None and reply_to is not None and reply_to.topic_message:
            thread = reply_to.thread_id  # a reply goes into its message's topic
        if thread is None:
            return None, False
        topic = chat.topics.get(thread) if forum else None
        if topic is None or topic.deleted:
            raise ApiError(400, THREAD_NOT_FOUND)
        if reply_to is not None and (reply_to.thread_id, reply_to.topic_message) != (thread, True):
            raise ApiError(400, REPLY_NOT_FOUND)
        if topic.closed:
            raise ApiError(400, TOPIC_CLOSED)
        return thread, True

    # ------------------------------------------------------------------------- user actions

    def send_text(
        self,
        user: dict,
        chat: dict | int | None,
        text: str,
        *,
        reply_to: Any = None,
        topic: int | None = None,
    ) -> dict | None:
        """The user writes `text` in a group or in the private chat (`chat` = the user or None);
        in a forum, `topic` is the thread id of the topic written in (None: General).

        Returns the queued message update, or None when Telegram would not deliver it to the
        bot (privacy mode, or the bot is not in the group).
        """
        if not text or utf16_len(text) > MAX_TEXT:
            raise ValueError(f"a Telegram text message has 1-{MAX_TEXT} characters")
        with self._lock:
            record = self._user(user)
            uid = record.data["id"]
            chat_id = uid if chat is None else self._chat_id_of(chat)
            if chat_id == uid:
                if not record.started or record.blocked:
                    raise ValueError("the user must press Start first (start_private)")
                target = self._private_chat(record)
            else:
                target = self._group(chat_id)
                if uid not in target.members:
                    name, title = record.data["first_name"], target.data["title"]
                    raise ValueError(f"{name} is not a member of {title}")
                if target.migrated_to is not None:
                    raise ValueError("this group was upgraded: write in the supergroup")
            replied = self._resolve_message(reply_to) if reply_to is not None else None
            thread = self._user_thread(target, record.data["id"], topic, replied)
            return self._user_message(record, target, text, reply_to=replied, thread=thread)

    def press(self, user: dict, message: Any, callback_data: str) -> dict:
        """The user presses an inline button carrying `callback_data` on a message."""
        if not isinstance(callback_data, str):
            raise TypeError("callback_data is a string")
        with self._lock:
            record = self._user(user)
            msg = self._resolve_message(message)
            if msg.deleted:
                raise ValueError("the message was deleted: nothing left to press")
            payload: dict[str, Any] = {"id": self._new_query_id(), "from": record.data}
            if msg.inline_message_id is not None:
                # A button under an inline-mode message names it only by inline_message_id.
                payload["inline_message_id"] = msg.inline_message_id
                payload["chat_instance"] = _instance(msg.inline_message_id)
            else:
                chat = self._chats[msg.chat_id]
                visible = msg.chat_id == record.data["id"] or record.data["id"] in chat.members
                if not visible:
                    raise ValueError("the user cannot see that chat")
                payload["message"] = msg.to_dict()
                payload["chat_instance"] = _instance(msg.chat_id)
            payload["data"] = callback_data
            update = self._queue("callback_query", payload)
            self._callbacks[payload["id"]] = _Query(update, self._time())
            return update

    def press_button(
        self, user: dict, message: Any, text_or_predicate: str | Callable[[dict], bool]
    ) -> dict | None:
        """Find a button by its text (or a predicate) and press it; a t.me button is followed."""
        with self._lock:
            msg = self._resolve_message(message)
            button = msg.button(text_or_predicate)
            if "callback_data" in button:
                return self.press(user, msg, button["callback_data"])
            if "url" in button:
                return self.follow_url(user, button["url"])
            raise ValueError(f"the fake cannot press {button!r}")

    def inline_query(
        self, user: dict, query: str, *, offset: str = "", chat_type: str | None = "sender"
    ) -> dict:
        """The user types "@bot query" in some chat; queues an inline_query update.

        Like Telegram, an answer given before to the same query and offset is served again from
        the cache while its cache_time lasts (to everybody, unless it was is_personal, then to
        the same user only): the bot then gets no update, and the returned update is already
        answered (see `from_cache`).
        """
        if utf16_len(query) > MAX_INLINE_QUERY:
            raise ValueError(f"an inline query has at most {MAX_INLINE_QUERY} characters")
        with self._lock:
            record = self._user(user)
            payload: dict[str, Any] = {
                "id": self._new_query_id(),
                "from": record.data,
                "query": query,
                "offset": offset,
            }
            if chat_type is not None:
                payload["chat_type"] = chat_type
            cached = self._cached_answer(query, offset, record.data["id"])
            if cached is not None:
                update = {"update_id": None, "inline_query": copy.deepcopy(payload)}
                served = {**cached, "inline_query_id": payload["id"]}
                self._inline_queries[payload["id"]] = _Query(
                    update, self._time(), served, from_cache=True
                )
                return copy.deepcopy(update)
            update = self._queue("inline_query", payload)
            self._inline_queries[payload["id"]] = _Query(update, self._time())
            return update

    def switch_inline(self, user: dict, message: Any, text: str, *, offset: str = "") -> dict:
        """The user presses a message's `switch_inline_query_current_chat` button (found by its
        text) and sends the query it puts in the input field, in that message's chat."""
        with self._lock:
            msg = self._resolve_message(message)
            button = msg.button(text)
            if "switch_inline_query_current_chat" not in button:
                raise ValueError(f"{text!r} does not switch to inline mode in the current chat")
            chat_type = None
            if msg.chat_id is not None:
                chat = self._chats[msg.chat_id]
                # In the user's own chat with the bot, Telegram says "sender".
                chat_type = "sender" if chat.type == "private" else self._kind(chat)
            return self.inline_query(
                user, button["switch_inline_query_current_chat"], offset=offset, chat_type=chat_type
            )

    def from_cache(self, update: dict) -> bool:
        """Whether Telegram answered this inline query from its cache (the bot never saw it)."""
        with self._lock:
            query = self._inline_queries.get(update["inline_query"]["id"])
            return bool(query and query.from_cache)

    def _cached_answer(self, query: str, offset: str, user_id: int) -> dict | None:
        now = self._time()
        for key in ((query, offset, user_id), (query, offset, None)):
            found = self._inline_cache.get(key)
            if found is not None and found[1] > now:
                return found[0]
        return None

    def choose_inline_result(
        self,
        user: dict,
        update: dict,
        result_id: str,
        *,
        chat: dict | int | None = None,
        topic: int | None = None,
    ) -> FakeMessage:
        """The user picks one of the bot's answers to an inline query and sends it.

        `chat` is where it lands if the bot can see that chat (else the message exists only as
        an inline message), in the forum topic `topic` if given. A result with an inline
        keyboard gets an inline_message_id, which is how the bot edits it later.
        """
        with self._lock:
            record = self._user(user)
            query = self._inline_queries.get(update["inline_query"]["id"])
            if query is None or query.answer is None:
                raise ValueError("the bot has not answered that inline query")
            if update["inline_query"]["from"]["id"] != record.data["id"]:
                raise ValueError("only whoever typed an inline query sees its results")
            result = next((r for r in query.answer["results"] if r.get("id") == result_id), None)
            if result is None:
                raise LookupError(f"no result {result_id!r} in the bot's answer")
            content = result.get("input_message_content") or {}
            if "message_text" not in content:
                raise ValueError("the fake only sends results with a text message content")
            raw = content["message_text"]
            text, entities = self._format(raw, content.get("parse_mode"), content.get("entities"))
            markup = result.get("reply_markup")
            target = self._chats[self._chat_id_of(chat)] if chat is not None else None
            uid = record.data["id"]
            if target is not None and uid not in target.members and target.id != uid:
                raise ValueError("the user cannot write in that chat")
            msg = FakeMessage(
                message_id=target.next_id if target else 0,
                chat_id=target.id if target else None,
                text=text,
                raw_text=raw,
                parse_mode=content.get("parse_mode"),
                entities=entities,
                reply_markup=markup,
                sender=record.data,
                date=self.now(),
                chat=target.data if target else None,
                via_bot=self.bot_user,
            )
            if target is not None:
                msg.thread_id, msg.topic_message = self._user_thread(target, uid, topic, None)
            if markup:
                msg.inline_message_id = f"AQAAA{self._new_query_id()}"
                self._inline_messages[msg.inline_message_id] = msg
            if target is not None:
                target.messages.append(msg)
                target.next_id += 1
                # Messages sent via the bot reach it even in privacy mode, in a group it is in.
                if target.type != "private" and target.bot_status in ("member", "administrator"):
                    delivered = self._queue("message", msg.to_dict())
                    self._deliveries[(target.id, msg.message_id)] = delivered
            if self.inline_feedback:
                chosen: dict[str, Any] = {"result_id": result_id, "from": record.data}
                chosen["query"] = update["inline_query"]["query"]
                if msg.inline_message_id:
                    chosen["inline_message_id"] = msg.inline_message_id
                self._queue("chosen_inline_result", chosen)
            return msg

    # --------------------------------------------------------------------- what the bot did

    def messages(self, chat: dict | int, *, include_users: bool = False) -> list[FakeMessage]:
        """Messages of a chat in order, as they are now; only the bot's unless include_users."""
        with self._lock:
            found = self._chats.get(self._chat_id_of(chat))
            if found is None:
                return []
            if include_users:
                return list(found.messages)
            return [m for m in found.messages if m.from_id == self.bot_id]

    def last_message(self, chat: dict | int) -> FakeMessage | None:
        """The bot's last message in a chat (deleted or not), or None."""
        sent = self.messages(chat)
        return sent[-1] if sent else None

    def message(self, chat: dict | int, message_id: int) -> FakeMessage:
        """One message of a chat by id."""
        with self._lock:
            found = self._chats.get(self._chat_id_of(chat))
            msg = found.find(message_id) if found else None
            if msg is None:
                raise LookupError(f"no message {message_id} in chat {self._chat_id_of(chat)}")
            return msg

    def inline_message(self, inline_message_id: str) -> FakeMessage:
        """A message sent through inline mode, by its inline_message_id."""
        with self._lock:
            return self._inline_messages[inline_message_id]

    def calls_of(self, method: str) -> list[dict]:
        """Parameters of every call to one method, in order."""
        with self._lock:
            return [params for name, params in self.calls if name == method]

    def answered(self, update: dict) -> dict | None:
        """The answerCallbackQuery for this callback query update, or None."""
        with self._lock:
            query = self._callbacks.get(update["callback_query"]["id"])
            return query.answer if query else None

    def delivery(self, message: FakeMessage) -> dict | None:
        """The message update the bot got for a message a user sent via the bot, or None."""
        with self._lock:
            return copy.deepcopy(self._deliveries.get((message.chat_id, message.message_id)))

    def inline_answer(self, update: dict) -> dict | None:
        """The answerInlineQuery for this inline query update, or None."""
        with self._lock:
            query = self._inline_queries.get(update["inline_query"]["id"])
            return query.answer if query else None

    def chat(self, chat: dict | int) -> dict:
        """The Chat object for an id (a user's id gives the private chat)."""
        with self._lock:
            return dict(self._chat_by_id(self._chat_id_of(chat)).data)

    def raw_update(self, payload: dict) -> dict:
        """Queue an update exactly as given (a shape the bot may not be able to read): its
        update_id is set; returns it."""
        with self._lock:
            update = {"update_id": self._next_update, **payload}
            self._next_update += 1
            self.updates.append(update)
            self._pending.append(update)
            self._notify()
            return copy.deepcopy(update)

    def allowed_updates(self) -> list[str] | None:
        """The update types the bot last asked getUpdates for (None: Telegram's default)."""
        with self._lock:
            return copy.deepcopy(self._allowed_updates)

    def pending_updates(self) -> list[dict]:
        """Updates queued and not yet confirmed by a getUpdates offset."""
        with self._lock:
            return copy.deepcopy(self._pending)

    # ----------------------------------------------------------------- failures on demand

    def fail_next(
        self,
        method: str | None,
        error: int | str,
        description: str | None = None,
        *,
        retry_after: int | None = None,
        migrate_to_chat_id: int | None = None,
        match: Callable[[dict], bool] | None = None,
        times: int = 1,
        applied: bool = False,
    ) -> None:
        """Make the next `times` calls of `method` (None = any) fail with a status or "timeout".

        `match(params)` narrows which calls fail. `applied=True` lets the call take effect
        before it fails, like a message Telegram sent but whose answer was lost.
        """
        if times < 1:
            raise ValueError("times is at least 1")
        if error != "timeout" and not (isinstance(error, int) and 400 <= error <= 599):
            raise ValueError('error is an HTTP status 400-599 or "timeout"')
        parameters: dict[str, int] = {}
        if error == 429:
            parameters["retry_after"] = retry_after if retry_after is not None else 1
            description = description or (
                f"Too Many Requests: retry after {parameters['retry_after']}"
            )
        elif retry_after is not None:
            parameters["retry_after"] = retry_after
        if migrate_to_chat_id is not None:
            parameters["migrate_to_chat_id"] = migrate_to_chat_id
        if isinstance(error, int):
            description = description or _DEFAULT_DESCRIPTIONS.get(error, "Internal Server Error")
        name = _CANONICAL.get(method.lower(), method) if method else None
        with self._lock:
            rule = _Failure(
                name, error, description or "", parameters or None, match, times, applied
            )
            self._failures.append(rule)

    @contextlib.contextmanager
    def outage(self, error: int | str = 502) -> Iterator[None]:
        """While inside, every call fails (getUpdates too) with `error`: an HTTP status (502,
        as a proxy in front of an unreachable Bot API answers) or "timeout"."""
        with self._lock:
            self._down = error
        try:
            yield
        finally:
            with self._lock:
                self._down = None
                self._notify()

    def _check_flood(self, method: str, params: dict) -> None:
        """Telegram's flood control: a group's messages per minute, the bot's calls per second."""
        chat_id = params.get("chat_id")
        if chat_id is None or method in _UNLIMITED:
            return
        now = time.monotonic()
        if isinstance(chat_id, int) and chat_id < 0 and method in _GROUP_LIMITED:
            recent = self._flood.setdefault(chat_id, [])
            recent[:] = [t for t in recent if t > now - 60]
            if len(recent) >= self.group_rate:
                wait = max(1, math.ceil(recent[0] + 60 - now))
                raise ApiError(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})
            recent.append(now)
        overall = self._flood.setdefault(None, [])
        overall[:] = [t for t in overall if t > now - 1]
        if len(overall) >= self.overall_rate:
            raise ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1})
        overall.append(now)

    def enforce(
        self,
        overall_rate: int,
        private_rate: int = 1,
        clock: Callable[[], float] = time.monotonic,
    ) -> _Enforced:
        """Refuse with 429 (retry_after 1) past `overall_rate` calls in any second, counting
        every method but getUpdates (answers to presses included), and past `private_rate`
        calls a second in one private chat; returns the regime, whose `served` lists the time
        of each call it let through (to measure the bot's rate under it). `clock` tells the
        seconds (a virtual event loop's `time`, for a test on virtual time)."""
        with self._lock:
            self.enforced = _Enforced(overall_rate, private_rate, clock)
            return self.enforced

    def _take_failure(self, method: str, params: dict) -> _Failure | None:
        for rule in self._failures:
            if rule.method not in (None, method):
                continue
            if rule.match is not None:
                try:
                    matched = rule.match(params)
                except Exception as exc:
                    # A broken match() in a test: record it and let the call through.
                    self.internal_errors.append(exc)
                    matched = False
                if not matched:
                    continue
            rule.times -= 1
            if rule.times == 0:
                self._failures.remove(rule)
            return rule
        return None

    # --------------------------------------------------------------------- serving requests

    def serve(self, port: int = 0, host: str = "127.0.0.1") -> FakeServer:
        """Start answering over HTTP on localhost; close the returned server when done."""
        return FakeServer(self, host, port)

    def handle(self, method: str, params: dict[str, Any]) -> tuple[int, dict]:
        """Answer one call directly: (HTTP status, JSON envelope); getUpdates never waits."""
        with self._lock:
            outcome = self._serve(self.token, method, params)
            if outcome.wait is not None:
                outcome = self._poll_result(outcome.wait, give_up=True)
            return outcome.status, copy.deepcopy(outcome.envelope) or {}

    def _serve(self, token: str | None, method: str, raw: dict[str, Any]) -> _Outcome:
        """Answer one call under the lock; getUpdates may come back as a _Wait."""
        if token != self.token:
            return _error(ApiError(401, "Unauthorized"))
        name = _CANONICAL.get(method.lower())
        if name is None:
            self.calls.append((method, dict(raw)))
            return self._failed(method, dict(raw), ApiError(404, "Not Found"))
        try:
            params = _decode_params(name, raw)
        except ApiError as exc:
            self.calls.append((name, dict(raw)))
            return self._failed(name, dict(raw), exc)
        self.calls.append((name, params))
        if self._down is not None:
            failure = _Failure(
                name, self._down, _DEFAULT_DESCRIPTIONS.get(self._down, ""), None, None, 1, False
            )
            return self._injected(name, params, failure)
        if self.flood_limits:
            try:
                self._check_flood(name, params)
            except ApiError as exc:
                return self._failed(name, params, exc)
        if self.enforced is not None:
            try:
                self.enforced.check(name, params)
            except ApiError as exc:
                return self._failed(name, params, exc)
        failure = self._take_failure(name, params)
        if failure is not None and not failure.applied:
            return self._injected(name, params, failure)
        try:
            result = self._handlers[name](params)
        except ApiError as exc:
            outcome = self._failed(name, params, exc)
        except Exception as exc:
            # A bug in the fake: keep it visible (internal_errors) without killing the bot.
            self.internal_errors.append(exc)
            outcome = self._failed(name, params, ApiError(500, f"Internal Server Error: {exc!r}"))
        else:
            if isinstance(result, _Wait):
                result.call = (name, params)
                outcome = _Outcome(200, wait=result)
            else:
                outcome = _ok(copy.deepcopy(result))
        if failure is not None:
            return self._injected(name, params, failure)
        return outcome

    def _injected(self, name: str, params: dict, failure: _Failure) -> _Outcome:
        if failure.error == "timeout":
            return _Outcome(0, timeout=True)
        assert isinstance(failure.error, int)
        return self._failed(
            name, params, ApiError(failure.error, failure.description, failure.parameters)
        )

    def _failed(self, name: str, params: dict, exc: ApiError) -> _Outcome:
        self.errors.append(FailedCall(name, params, exc.code, exc.description))
        return _error(exc)

    def _poll_result(self, wait: _Wait, *, give_up: bool) -> _Outcome | None:
        """The answer to a waiting getUpdates, or None while it should keep waiting."""
        if wait.generation != self._poll_generation:
            return self._failed(*wait.call, ApiError(409, POLL_CONFLICT))
        updates = self._deliverable(wait.limit)
        if updates or give_up or time.monotonic() >= wait.deadline:
            return _ok(updates)
        return None

    def _serve_blocking(
        self,
        token: str | None,
        method: str,
        raw: dict[str, Any],
        closing: Callable[[], bool],
        client_gone: Callable[[], bool],
    ) -> _Outcome | None:
        """Answer a call from a server thread, waiting out a long poll.

        None means nobody is left to answer: the client dropped a long poll (a bot stopping or
        killed), which Telegram forgets rather than counting as a conflict.
        """
        with self._cond:
            outcome = self._serve(token, method, raw)
            wait = outcome.wait
            while wait is not None:
                if client_gone():
                    return None
                if wait.generation != self._poll_generation:
                    # A client that cancels a poll and polls again closes the old connection
                    # just before; give that close a moment to arrive before calling conflict.
                    self._cond.wait(_DISCONNECT_GRACE)
                    if client_gone():
                        return None
                result = self._poll_result(wait, give_up=closing())
                if result is not None:
                    return result
                # Wake now and then: a client going away does not notify the condition.
                remaining = max(wait.deadline - time.monotonic(), 0.0)
                self._cond.wait(min(remaining, _DISCONNECT_GRACE))
            return outcome

    async def _serve_async(self, token: str | None, method: str, raw: dict[str, Any]) -> _Outcome:
        """Answer a call in process, waiting out a long poll without blocking the event loop."""
        loop = asyncio.get_running_loop()
        with self._lock:
            outcome = self._serve(token, method, raw)
        wait = outcome.wait
        while wait is not None:
            event = asyncio.Event()
            with self._lock:
                result = self._poll_result(wait, give_up=False)
                if result is not None:
                    return result
                waiter = (loop, event)
                self._async_waiters.add(waiter)
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), max(wait.deadline - time.monotonic(), 0))
            finally:
                with self._lock:
                    self._async_waiters.discard(waiter)
        return outcome

    def _notify(self) -> None:
        """Wake every waiting getUpdates (called with the lock held)."""
        self._cond.notify_all()
        for loop, event in list(self._async_waiters):
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits there
                loop.call_soon_threadsafe(event.set)

    # --------------------------------------------------------------------------- internals

    def _user(self, user: dict | int) -> _User:
        uid = user if isinstance(user, int) else user["id"]
        record = self._users.get(uid)
        if record is None:
            raise LookupError(f"no user {uid}: create users with add_user")
        return record

    def _group(self, group: dict | int) -> _Chat:
        chat = self._chats.get(self._chat_id_of(group))
        if chat is None or chat.type == "private":
            raise LookupError(f"no group {self._chat_id_of(group)}: create it with add_group")
        return chat

    def _chat_id_of(self, chat: Any) -> int:
        if isinstance(chat, bool):
            raise TypeError("a chat is a dict, an id or a FakeMessage")
        if isinstance(chat, int):
            return chat
        if isinstance(chat, FakeMessage):
            if chat.chat_id is None:
                raise ValueError("that inline message is in no chat the bot can see")
            return chat.chat_id
        if isinstance(chat, dict) and "id" in chat:
            return chat["id"]
        raise TypeError(f"not a chat: {chat!r}")

    def _chat_by_id(self, chat_id: int) -> _Chat:
        chat = self._chats.get(chat_id)
        if chat is None:
            raise LookupError(f"no chat {chat_id}")
        return chat

    def _private_chat(self, record: _User) -> _Chat:
        uid = record.data["id"]
        chat = self._chats.get(uid)
        if chat is None:
            data = {"id": uid, "type": "private", "first_name": record.data["first_name"]}
            for key in ("last_name", "username"):
                if key in record.data:
                    data[key] = record.data[key]
            chat = _Chat(data, members={uid})
            self._chats[uid] = chat
        return chat

    def _someone_in(self, chat: _Chat) -> dict | None:
        ordered = sorted(chat.admins, key=lambda uid: chat.admins[uid] != "creator")
        for uid in [*ordered, *sorted(chat.members)]:
            return self._users[uid].data
        return None

    def _resolve_message(self, message: Any) -> FakeMessage:
        """A FakeMessage from itself, a Message dict, or a PTB Message."""
        if isinstance(message, FakeMessage):
            return message
        if hasattr(message, "to_dict"):
            message = message.to_dict()
        if isinstance(message, dict):
            if "inline_message_id" in message and "message_id" not in message:
                return self._inline_messages[message["inline_message_id"]]
            if "message_id" in message and "chat" in message:
                return self.message(message["chat"]["id"], message["message_id"])
        raise TypeError(f"not a message: {message!r}")

    def _new_query_id(self) -> str:
        self._next_query += 1
        return str(4_000_000_000_000_000 + self._next_query * 7919)

    def _queue(self, kind: str, payload: dict) -> dict:
        update = {"update_id": self._next_update, kind: copy.deepcopy(payload)}
        self._next_update += 1
        self.updates.append(update)
        self._pending.append(update)
        self._notify()
        return copy.deepcopy(update)

    def _user_message(
        self,
        record: _User,
        chat: _Chat,
        text: str,
        reply_to: FakeMessage | None = None,
        thread: tuple[int | None, bool] = (None, False),
    ) -> dict | None:
        msg = FakeMessage(
            message_id=chat.next_id,
            chat_id=chat.id,
            text=text,
            raw_text=text,
            parse_mode=None,
            entities=_detect_entities(text),
            reply_markup=None,
            sender=record.data,
            date=self.now(),
            chat=chat.data,
            reply_to=reply_to,
            thread_id=thread[0],
            topic_message=thread[1],
        )
        chat.messages.append(msg)
        chat.next_id += 1
        if chat.type != "private" and not self._delivered_to_bot(chat, msg):
            return None
        return self._queue("message", msg.to_dict())

    def _delivered_to_bot(self, chat: _Chat, msg: FakeMessage) -> bool:
        """Whether a group message reaches the bot (membership and privacy mode)."""
        if chat.bot_status not in ("member", "administrator"):
            return False
        if not self.privacy_mode or chat.bot_status == "administrator":
            return True
        if msg.reply_to is not None and msg.reply_to.from_id == self.bot_id:
            return True
        name = self.bot_username.lower()
        for match in _COMMAND.finditer(msg.text):
            if match.start() == 0 and (match[2] is None or match[2].lower() == name):
                return True
        return any(m[1].lower() == name for m in _MENTION.finditer(msg.text))

    def _service_message(
        self,
        chat: _Chat,
        actor: dict | None,
        content: dict,
        thread: int | None = None,
        *,
        queue: bool = True,
    ) -> FakeMessage:
        msg = FakeMessage(
            message_id=chat.next_id,
            chat_id=chat.id,
            text="",
            raw_text="",
            parse_mode=None,
            entities=[],
            reply_markup=None,
            sender=actor,
            date=self.now(),
            chat=chat.data,
            service=content,
            thread_id=thread,
            topic_message=thread is not None,
        )
        chat.messages.append(msg)
        chat.next_id += 1
        if queue:
            self._queue("message", msg.to_dict())
        return msg

    def _member_dict(self, chat: _Chat, user: dict, status: str) -> dict:
        if status == "administrator":
            return {"status": status, "user": user, **_ADMIN_RIGHTS}
        if status == "creator":
            return {"status": status, "user": user, "is_anonymous": False}
        if status == "kicked":
            return {"status": status, "user": user, "until_date": 0}
        return {"status": status, "user": user}

    def _member_change(
        self, chat: _Chat, actor: dict, old: str, new: str, *, subject: dict | None = None
    ) -> dict:
        """A ChatMemberUpdated about the bot (subject) or about a private chat's user."""
        subject = subject or self.bot_user
        return {
            "chat": chat.data,
            "from": actor,
            "date": self.now(),
            "old_chat_member": self._member_dict(chat, subject, old),
            "new_chat_member": self._member_dict(chat, subject, new),
        }

    def _status_of(self, chat: _Chat, user_id: int) -> str:
        if user_id == self.bot_id:
            return chat.bot_status
        if chat.type == "private":
            return "member" if user_id == chat.id else "left"
        if user_id in chat.admins:
            return chat.admins[user_id]
        return "member" if user_id in chat.members else "left"

    def _kind(self, chat: _Chat) -> str:
        return "supergroup" if chat.type == "supergroup" else "group"

    def _lookup_chat(self, chat_id: int | str) -> _Chat:
        """The chat a chat_id names, or 400 chat not found."""
        if isinstance(chat_id, str):
            if chat_id.startswith("@"):
                name = chat_id[1:].lower()
                for chat in self._chats.values():
                    if chat.type != "private" and chat.data.get("username", "").lower() == name:
                        return chat
            raise ApiError(400, CHAT_NOT_FOUND)
        chat = self._chats.get(chat_id)
        if chat is None:
            raise ApiError(400, CHAT_NOT_FOUND)
        return chat

    def _reachable_chat(self, chat_id: int | str) -> _Chat:
        """A chat the bot may act in now, or the 400/403 Telegram gives instead."""
        if isinstance(chat_id, int) and chat_id in self._users and chat_id not in self._chats:
            raise ApiError(403, CANT_INITIATE)
        chat = self._lookup_chat(chat_id)
        if chat.type == "private":
            record = self._users[chat.id]
            if record.blocked:
                raise ApiError(403, BLOCKED)
            if not record.started:
                raise ApiError(403, CANT_INITIATE)
            return chat
        if chat.migrated_to is not None:
            raise ApiError(400, UPGRADED, {"migrate_to_chat_id": chat.migrated_to})
        if chat.bot_status == "kicked":
            raise ApiError(403, KICKED.format(kind=self._kind(chat)))
        if chat.bot_status == "left":
            raise ApiError(403, NOT_MEMBER.format(kind=self._kind(chat)))
        return chat

    def _visible_chat(self, chat_id: int | str) -> _Chat:
        """A chat the bot may read about (getChat and friends)."""
        chat = self._lookup_chat(chat_id)
        if chat.type == "private":
            if not self._users[chat.id].started:
                raise ApiError(400, CHAT_NOT_FOUND)
            return chat
        return self._reachable_chat(chat_id)

    def _format(self, text: str, parse_mode: str | None, entities: Any) -> tuple[str, list[dict]]:
        """Parse a text as Telegram does: (plain text, entities)."""
        if parse_mode and parse_mode.lower() != "none":
            if parse_mode.lower() not in ("html", "markdownv2", "markdown"):
                raise ApiError(400, UNSUPPORTED_PARSE_MODE)
            try:
                plain, found = parse_entities(text, parse_mode, strict_html=self.strict_html)
            except MarkupError as exc:
                raise ApiError(400, CANT_PARSE + str(exc)) from None
        else:
            plain, found = trim_formatted(text, self._given_entities(text, entities))
        resolved = []
        for entity in found:
            if entity["type"] == "text_mention":
                user_id = entity.pop("user_id", None) or (entity.get("user") or {}).get("id")
                record = self._users.get(user_id)
                if record is None:
                    continue  # Telegram drops a mention of a user it cannot resolve
                entity["user"] = record.data
            resolved.append(entity)
        return plain, resolved[:MAX_ENTITIES]

    def _given_entities(self, text: str, entities: Any) -> list[dict]:
        """Entities passed explicitly: well-formed and inside the text, or dropped."""
        if not entities:
            return []
        if not isinstance(entities, list):
            raise ApiError(400, "Bad Request: can't parse message entities JSON object")
        total = utf16_len(text)
        kept = []
        for entity in entities:
            if not isinstance(entity, dict) or not isinstance(entity.get("type"), str):
                raise ApiError(400, "Bad Request: can't parse MessageEntity: wrong type")
            offset, length = entity.get("offset"), entity.get("length")
            if not isinstance(offset, int) or not isinstance(length, int):
                raise ApiError(400, "Bad Request: can't parse MessageEntity: wrong offset")
            if offset >= 0 and length > 0 and offset + length <= total:
                kept.append(dict(entity))
        return kept

    def _check_text(self, text: str) -> None:
        if not text:
            raise ApiError(400, TEXT_EMPTY)
        if utf16_len(text) > MAX_TEXT:
            raise ApiError(400, TEXT_TOO_LONG)

    def _check_markup(self, markup: Any, *, inline_only: bool) -> dict | None:
        """Validate a reply_markup like Telegram; returns it as stored."""
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            if inline_only:
                raise ApiError(400, "Bad Request: inline keyboard expected")
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise ApiError(
                400,
                'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup should be an '
                "Array of Arrays",
            )
        total = sum(len(row) for row in rows)
        if total > MAX_BUTTONS or any(len(row) > MAX_BUTTONS_PER_ROW for row in rows):
            raise ApiError(400, MARKUP_TOO_LONG)
        for row in rows:
            for button in row:
                self._check_button(button)
        return markup

    def _check_web_app(self, markup: dict | None, private: bool) -> None:
        """Web App buttons: https only, and in private chats only (a group gets
        BUTTON_TYPE_INVALID)."""
        rows = (markup or {}).get("inline_keyboard") or []
        for button in (b for row in rows for b in row if "web_app" in b):
            url = str((button["web_app"] or {}).get("url", ""))
            if not url.startswith("https://"):
                raise ApiError(
                    400,
                    f"Bad Request: inline keyboard button Web App URL '{url}' is invalid: Only"
                    " HTTPS links are allowed",
                )
            if not private:
                raise ApiError(400, BUTTON_TYPE_INVALID)

    def _check_button(self, button: Any) -> None:
        if not isinstance(button, dict) or not isinstance(button.get("text"), str):
            raise ApiError(
                400,
                'Bad Request: can\'t parse inline keyboard button: Field "text" must be of '
                "type String",
            )
        if not any(key in button for key in _BUTTON_ACTIONS):
            raise ApiError(400, TEXT_BUTTONS)
        if not button["text"].strip():
            raise ApiError(400, BUTTON_TEXT_INVALID)
        if "callback_data" in button:
            data = button["callback_data"]
            if not isinstance(data, str):
                raise ApiError(400, BUTTON_DATA_INVALID)
            size = len(data.encode("utf-8"))
            if not MIN_CALLBACK_DATA <= size <= MAX_CALLBACK_DATA:
                raise ApiError(400, BUTTON_DATA_INVALID)
        if "url" in button and not _valid_button_url(button["url"]):
            raise ApiError(400, BUTTON_URL_INVALID)

    def _is_start_link(self, url: str) -> bool:
        match = _START_LINK.match(url.strip())
        if match:
            return match[1].lower() == self.bot_username.lower()
        match = _RESOLVE_LINK.match(url.strip())
        return bool(match) and dict(parse_qsl(match[1])).get("domain", "").lower() == (
            self.bot_username.lower()
        )

    # ---------------------------------------------------------------------- method handlers

    def _get_me(self, p: dict) -> dict:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": True,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def _get_updates(self, p: dict) -> list[dict] | _Wait:
        if self.webhook_url:
            raise ApiError(409, WEBHOOK_CONFLICT)
        if "allowed_updates" in p:
            allowed = p["allowed_updates"]
            if not isinstance(allowed, list):
                raise ApiError(400, "Bad Request: can't parse allowed_updates JSON object")
            self._allowed_updates = allowed or None
        offset = p.get("offset")
        if offset is not None:
            if offset < 0:
                self._pending = self._pending[offset:]
            else:
                self._pending = [u for u in self._pending if u["update_id"] >= offset]
        self._poll_generation += 1
        self._notify()  # an older poll still waiting is now terminated with 409
        limit = min(max(p.get("limit", 100), 1), 100)
        timeout = max(p.get("timeout", 0), 0)
        updates = self._deliverable(limit)
        if updates or timeout == 0:
            return updates
        deadline = time.monotonic() + min(timeout, self.max_poll_seconds)
        return _Wait(deadline, self._poll_generation, limit, ("getUpdates", p))

    def _deliverable(self, limit: int) -> list[dict]:
        """Pending updates the bot asked for; Telegram drops the kinds it did not ask for."""
        allowed = self._allowed_updates

        def wanted(update: dict) -> bool:
            kind = next(key for key in update if key != "update_id")
            if allowed:
                return kind in allowed
            return kind not in _DEFAULT_EXCLUDED_UPDATES

        self._pending = [u for u in self._pending if wanted(u)]
        return copy.deepcopy(self._pending[:limit])

    def _set_webhook(self, p: dict) -> bool:
        url = p["url"]
        if url and not url.lower().startswith("https://"):
            raise ApiError(
                400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"
            )
        self.webhook_url = url
        self.webhook_secret = p.get("secret_token") or ""
        if "allowed_updates" in p:  # as getUpdates: kept until changed
            allowed = p["allowed_updates"]
            if not isinstance(allowed, list):
                raise ApiError(400, "Bad Request: can't parse allowed_updates JSON object")
            self._allowed_updates = allowed or None
        if p.get("drop_pending_updates"):
            self._pending.clear()
        return True

    def _delete_webhook(self, p: dict) -> bool:
        self.webhook_url = ""
        if p.get("drop_pending_updates"):
            self._pending.clear()
        return True

    def _get_webhook_info(self, p: dict) -> dict:
        return {
            "url": self.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }

    def _send_message(self, p: dict) -> dict:
        text, entities = self._format(p["text"], p.get("parse_mode"), p.get("entities"))
        markup = self._check_markup(p.get("reply_markup"), inline_only=False)
        chat = self._reachable_chat(p["chat_id"])
        self._check_web_app(markup, chat.type == "private")
        self._check_text(text)
        reply_to = self._reply_target(chat, p)
        thread_id, in_topic = self._sent_thread(chat, p, reply_to)
        msg = FakeMessage(
            message_id=chat.next_id,
            chat_id=chat.id,
            text=text,
            raw_text=p["text"],
            parse_mode=p.get("parse_mode"),
            entities=entities,
            reply_markup=markup,
            sender=self.bot_user,
            date=self.now(),
            chat=chat.data,
            reply_to=reply_to,
            protected=bool(p.get("protect_content")),
            thread_id=thread_id,
            topic_message=in_topic,
        )
        chat.messages.append(msg)
        chat.next_id += 1
        return msg.to_dict()

    def _reply_target(self, chat: _Chat, p: dict) -> FakeMessage | None:
        reply = p.get("reply_parameters")
        if reply is None and "reply_to_message_id" in p:
            reply = {"message_id": p["reply_to_message_id"]}
            reply["allow_sending_without_reply"] = p.get("allow_sending_without_reply", False)
        if not reply:
            return None
        if not isinstance(reply, dict) or not isinstance(reply.get("message_id"), int):
            raise ApiError(400, "Bad Request: can't parse reply parameters JSON object")
        target = chat
        if "chat_id" in reply:
            target = self._reachable_chat(_convert("chat_id", _CHAT, reply["chat_id"]))
        found = target.find(reply["message_id"])
        if found is None or found.deleted:
            if reply.get("allow_sending_without_reply"):
                return None
            raise ApiError(400, REPLY_NOT_FOUND)
        return found

    def _edit_target(self, p: dict) -> FakeMessage:
        if p.get("inline_message_id"):
            msg = self._inline_messages.get(p["inline_message_id"])
            if msg is None:
                raise ApiError(400, EDIT_NOT_FOUND)
            return msg
        if "chat_id" not in p:
            raise ApiError(400, "Bad Request: chat_id is empty")
        if "message_id" not in p:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        chat = self._reachable_chat(p["chat_id"])
        msg = chat.find(p["message_id"])
        if msg is None or msg.deleted:
            raise ApiError(400, EDIT_NOT_FOUND)
        if msg.from_id != self.bot_id or msg.service is not None:
            raise ApiError(400, CANT_EDIT)
        return msg

    def _apply_edit(
        self, msg: FakeMessage, text: str, entities: list, markup: Any, *, inline: bool
    ) -> Any:
        if text == msg.text and entities == msg.entities and markup == msg.reply_markup:
            raise ApiError(400, NOT_MODIFIED)
        msg.history.append((msg.text, msg.reply_markup))
        msg.text, msg.entities, msg.reply_markup = text, entities, markup
        msg.edits += 1
        msg.edit_date = self.now()
        # Telegram answers True for inline messages, the edited Message otherwise.
        return True if inline else msg.to_dict()

    def _edit_message_text(self, p: dict) -> Any:
        text, entities = self._format(p["text"], p.get("parse_mode"), p.get("entities"))
        markup = self._check_markup(p.get("reply_markup"), inline_only=True)
        msg = self._edit_target(p)
        self._check_web_app(markup, msg.chat_id is not None and msg.chat_id > 0)
        self._check_text(text)
        result = self._apply_edit(msg, text, entities, markup, inline=_inline(p))
        msg.raw_text, msg.parse_mode = p["text"], p.get("parse_mode")
        return result

    def _edit_message_reply_markup(self, p: dict) -> Any:
        markup = self._check_markup(p.get("reply_markup"), inline_only=True)
        msg = self._edit_target(p)
        self._check_web_app(markup, msg.chat_id is not None and msg.chat_id > 0)
        return self._apply_edit(msg, msg.text, msg.entities, markup, inline=_inline(p))

    def _deletable(self, chat: _Chat, message_id: int) -> FakeMessage:
        msg = chat.find(message_id)
        if msg is None or msg.deleted:
            raise ApiError(400, DELETE_NOT_FOUND)
        own = msg.from_id == self.bot_id
        if chat.type != "private" and not own and chat.bot_status != "administrator":
            raise ApiError(400, CANT_DELETE)
        if self.now() - msg.date >= DELETE_WINDOW:
            raise ApiError(400, CANT_DELETE_FOR_EVERYONE)
        return msg

    def _delete_message(self, p: dict) -> bool:
        chat = self._reachable_chat(p["chat_id"])
        self._deletable(chat, p["message_id"]).deleted = True
        return True

    def _delete_messages(self, p: dict) -> bool:
        ids = p["message_ids"]
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise ApiError(400, "Bad Request: message_ids must contain 1-100 identifiers")
        chat = self._reachable_chat(p["chat_id"])
        for message_id in ids:
            # Telegram skips the messages it cannot find or delete.
            with contextlib.suppress(ApiError):
                self._deletable(chat, int(message_id)).deleted = True
        return True

    def _answer_callback_query(self, p: dict) -> bool:
        text = p.get("text")
        if text is not None and utf16_len(text) > MAX_ANSWER_TEXT:
            raise ApiError(400, ANSWER_TOO_LONG)
        url = p.get("url")
        if url is not None and not self._is_start_link(url):
            raise ApiError(400, URL_INVALID)
        query = self._callbacks.get(p["callback_query_id"])
        if query is None or query.answer is not None or self._expired(query):
            raise ApiError(400, QUERY_TOO_OLD)
        query.answer = {
            "callback_query_id": p["callback_query_id"],
            "text": text,
            "show_alert": p.get("show_alert", False),
            "url": url,
            "cache_time": p.get("cache_time", 0),
        }
        self.alerts.append(query.answer)
        return True

    def _expired(self, query: _Query) -> bool:
        return self._time() - query.created > self.query_timeout

    def _answer_inline_query(self, p: dict) -> bool:
        results = p["results"]
        if not isinstance(results, list):
            raise ApiError(400, "Bad Request: can't parse results JSON object")
        if len(results) > MAX_INLINE_RESULTS:
            raise ApiError(400, RESULTS_TOO_MUCH)
        seen: set[str] = set()
        for result in results:
            if not isinstance(result, dict) or not isinstance(result.get("type"), str):
                raise ApiError(400, "Bad Request: can't parse InlineQueryResult: wrong type")
            result_id = result.get("id")
            if not isinstance(result_id, str) or not result_id:
                raise ApiError(400, RESULT_ID_INVALID)
            if len(result_id.encode("utf-8")) > MAX_RESULT_ID:
                raise ApiError(400, RESULT_ID_INVALID)
            if result_id in seen:
                raise ApiError(400, RESULT_ID_DUPLICATE)
            seen.add(result_id)
            self._check_result(result)
        if p.get("button") is not None:
            self._check_results_button(p["button"])
        query = self._inline_queries.get(p["inline_query_id"])
        if query is None or query.answer is not None or self._expired(query):
            raise ApiError(400, QUERY_TOO_OLD)
        query.answer = dict(p)
        self.inline_answers.append(query.answer)
        cache_time = p.get("cache_time", DEFAULT_INLINE_CACHE)
        if cache_time > 0:
            asked = query.update["inline_query"]
            who = asked["from"]["id"] if p.get("is_personal") else None
            key = (asked["query"], asked.get("offset", ""), who)
            self._inline_cache[key] = (dict(p), self._time() + cache_time)
        return True

    def _check_results_button(self, button: Any) -> None:
        """An InlineQueryResultsButton: a text, and a start_parameter or a web_app."""
        if not isinstance(button, dict) or not isinstance(button.get("text"), str):
            raise ApiError(400, BUTTON_TYPE_INVALID)
        if not button["text"].strip():
            raise ApiError(400, BUTTON_TEXT_INVALID)
        if ("start_parameter" in button) == ("web_app" in button):
            raise ApiError(400, BUTTON_TYPE_INVALID)
        start = button.get("start_parameter")
        if start is not None and not (isinstance(start, str) and _START_PARAMETER.match(start)):
            raise ApiError(400, START_PARAM_INVALID)

    def _check_result(self, result: dict) -> None:
        if result["type"] == "article" and not isinstance(result.get("title"), str):
            raise ApiError(
                400,
                'Bad Request: can\'t parse InlineQueryResult: Field "title" must be of type String',
            )
        content = result.get("input_message_content")
        if isinstance(content, dict) and "message_text" in content:
            text, _ = self._format(
                content["message_text"], content.get("parse_mode"), content.get("entities")
            )
            self._check_text(text)
        elif result["type"] == "article":
            raise ApiError(400, "Bad Request: can't parse InlineQueryResult: wrong message content")
        self._check_markup(result.get("reply_markup"), inline_only=True)

    def _get_chat(self, p: dict) -> dict:
        chat = self._visible_chat(p["chat_id"])
        info = {
            **chat.data,
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }
        pinned = [m for m in chat.messages if m.pinned and not m.deleted]
        if pinned:
            info["pinned_message"] = pinned[-1].to_dict()
        return info

    def _get_chat_member(self, p: dict) -> dict:
        chat = self._visible_chat(p["chat_id"])
        user_id = p["user_id"]
        if user_id == self.bot_id:
            return self._member_dict(chat, self.bot_user, chat.bot_status)
        record = self._users.get(user_id)
        if record is None:
            raise ApiError(400, USER_NOT_FOUND)
        return self._member_dict(chat, record.data, self._status_of(chat, user_id))

    def _get_chat_administrators(self, p: dict) -> list[dict]:
        chat = self._visible_chat(p["chat_id"])
        if chat.type == "private":
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        admins = [
            self._member_dict(chat, self._users[uid].data, status)
            for uid, status in sorted(chat.admins.items(), key=lambda kv: kv[1] != "creator")
        ]
        if chat.bot_status == "administrator":
            admins.append(self._member_dict(chat, self.bot_user, "administrator"))
        return admins

    def _get_chat_member_count(self, p: dict) -> int:
        chat = self._visible_chat(p["chat_id"])
        if chat.type == "private":
            return 2
        return len(chat.members) + (chat.bot_status in ("member", "administrator"))

    def _leave_chat(self, p: dict) -> bool:
        chat = self._visible_chat(p["chat_id"])
        if chat.type == "private":
            raise ApiError(400, "Bad Request: chat member status can't be changed in private chats")
        chat.bot_status = "left"
        return True

    def _send_chat_action(self, p: dict) -> bool:
        chat = self._reachable_chat(p["chat_id"])
        if p["action"] not in _CHAT_ACTIONS:
            raise ApiError(400, "Bad Request: wrong parameter action in request")
        del chat
        return True

    def _can_pin(self, chat: _Chat) -> None:
        if chat.type != "private" and chat.bot_status != "administrator":
            raise ApiError(
                400, "Bad Request: not enough rights to manage pinned messages in the chat"
            )

    def _pin_chat_message(self, p: dict) -> bool:
        chat = self._reachable_chat(p["chat_id"])
        self._can_pin(chat)
        msg = chat.find(p["message_id"])
        if msg is None or msg.deleted:
            raise ApiError(400, "Bad Request: message to pin not found")
        msg.pinned = True
        return True

    def _unpin_chat_message(self, p: dict) -> bool:
        chat = self._reachable_chat(p["chat_id"])
        self._can_pin(chat)
        pinned = [m for m in chat.messages if m.pinned]
        if "message_id" in p:
            pinned = [m for m in pinned if m.message_id == p["message_id"]]
        if not pinned:
            raise ApiError(400, "Bad Request: message to unpin not found")
        pinned[-1].pinned = False
        return True

    def _unpin_all_chat_messages(self, p: dict) -> bool:
        chat = self._reachable_chat(p["chat_id"])
        self._can_pin(chat)
        for msg in chat.messages:
            msg.pinned = False
        return True

    @staticmethod
    def _scope_key(p: dict) -> tuple[str, str]:
        scope = p.get("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), p.get("language_code", "")

    def _set_my_commands(self, p: dict) -> bool:
        commands = p["commands"]
        if not isinstance(commands, list):
            raise ApiError(400, "Bad Request: can't parse commands JSON object")
        if len(commands) > BotCommandLimit.MAX_COMMAND_NUMBER:
            raise ApiError(400, "Bad Request: BOT_COMMANDS_TOO_MUCH")
        for command in commands:
            name = command.get("command") if isinstance(command, dict) else None
            if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_]{1,32}", name):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            description = command.get("description")
            if not isinstance(description, str) or not (
                1 <= len(description) <= BotCommandLimit.MAX_DESCRIPTION
            ):
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._scope_key(p)] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    def _get_my_commands(self, p: dict) -> list[dict]:
        return self.commands.get(self._scope_key(p), [])

    def _delete_my_commands(self, p: dict) -> bool:
        self.commands.pop(self._scope_key(p), None)
        return True

    def _bot_text_setter(self, param: str, kind: str) -> Callable[[dict], bool]:
        def setter(p: dict) -> bool:
            value = p.get(param, "")
            if len(value) > _BOT_TEXT_LIMITS[kind]:
                raise ApiError(400, f"Bad Request: {param} is too long")
            key = (kind, p.get("language_code", ""))
            if value:
                self.bot_texts[key] = value
            else:
                self.bot_texts.pop(key, None)
            return True

        return setter

    def _bot_text_getter(self, param: str, kind: str) -> Callable[[dict], dict]:
        def getter(p: dict) -> dict:
            value = self.bot_texts.get((kind, p.get("language_code", "")))
            if value is None and kind == "name":
                value = self.bot_user["first_name"]
            return {param: value or ""}

        return getter

    def _set_chat_menu_button(self, p: dict) -> bool:
        self.menu_buttons[p.get("chat_id")] = p.get("menu_button") or {"type": "default"}
        return True

    def _get_chat_menu_button(self, p: dict) -> dict:
        chat_id = p.get("chat_id")
        return self.menu_buttons.get(chat_id) or self.menu_buttons.get(None) or {"type": "default"}


def _inline(p: dict) -> bool:
    return bool(p.get("inline_message_id"))


def _instance(key: int | str) -> str:
    """A stable chat_instance for a chat or an inline message."""
    return str(int(hashlib.sha256(str(key).encode()).hexdigest()[:15], 16))


def _valid_button_url(url: Any) -> bool:
    if not isinstance(url, str) or not url or any(ch.isspace() for ch in url):
        return False
    if re.match(r"^(https?|tg)://\S+$", url, re.IGNORECASE):
        return True
    return bool(re.match(r"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(/\S*)?$", url))


_URL_PATH = re.compile(r"/bot([^/]*)/([^/]+)$")


class FakeRequest(BaseRequest):
    """A python-telegram-bot request backend answering from a FakeTelegram, in process."""

    def __init__(
        self, fake: FakeTelegram, *, read_timeout: float | None = 5.0, latency: float = 0.0
    ) -> None:
        """Bind to the world; several FakeRequests may share one FakeTelegram. ``latency``:
        seconds each call waits before its answer, like a distant server (benchmarks)."""
        self.fake = fake
        self._read_timeout = read_timeout
        self.latency = latency

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout (PTB adds it to getUpdates' long-poll timeout)."""
        return self._read_timeout

    async def initialize(self) -> None:
        """Nothing to open: the world is in memory."""

    async def shutdown(self) -> None:
        """Nothing to close."""

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """Answer one Bot API request: (HTTP status, JSON body), or raise TimedOut on demand."""
        # A real request always yields to the event loop; so does this one.
        await asyncio.sleep(self.latency)
        match = _URL_PATH.search(urlsplit(url).path)
        if match is None:
            return 404, b'{"ok":false,"error_code":404,"description":"Not Found"}'
        params = dict(request_data.json_parameters) if request_data else {}
        outcome = await self.fake._serve_async(match[1], match[2], params)
        if outcome.timeout:
            raise TimedOut("Timed out (injected by the fake Bot API)")
        return outcome.status, outcome.body


class _Handler(BaseHTTPRequestHandler):
    """One HTTP request to the fake; bound to a world and a server by FakeServer."""

    fake: FakeTelegram
    closing: threading.Event
    hang_limit: float = 30.0

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self._answer()

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: the call log is in fake.calls."""

    def _answer(self) -> None:
        split = urlsplit(self.path)
        match = _URL_PATH.fullmatch(split.path)
        if match is None:
            self._send(404, {"ok": False, "error_code": 404, "description": "Not Found"})
            return
        params: dict[str, Any] = dict(parse_qsl(split.query, keep_blank_values=True))
        try:
            params.update(self._body_params())
        except ValueError:
            self._send(400, {"ok": False, "error_code": 400, "description": "Bad Request"})
            return
        outcome = self.fake._serve_blocking(
            match[1], match[2], params, self.closing.is_set, self._client_gone
        )
        if outcome is None:
            self.close_connection = True
            return
        if outcome.timeout:
            self._hang()
            return
        self._send(outcome.status, outcome.envelope)

    def _body_params(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if not body:
            return {}
        content_type = self.headers.get_content_type()
        if content_type == "application/json":
            data = json.loads(body)
            if not isinstance(data, dict):
                raise ValueError("a JSON body is an object")
            return data
        if content_type == "multipart/form-data":
            header = f"Content-Type: {self.headers['Content-Type']}\r\n\r\n".encode()
            message = email.message_from_bytes(header + body, policy=email.policy.HTTP)
            fields: dict[str, Any] = {}
            for part in message.iter_parts():
                name = part.get_param("name", header="content-disposition")
                if part.get_filename():
                    fields[name] = part.get_payload(decode=True)
                else:
                    fields[name] = part.get_content()
            return fields
        return dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True))

    def _send(self, status: int, envelope: dict | None) -> None:
        body = _json_bytes(envelope)
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (or was killed) while its long poll waited

    def _readable(self, timeout: float) -> bool:
        """Whether the connection has something to read, or was closed, within ``timeout``
        seconds. By poll, not select, which refuses a descriptor past 1,023: a test that holds a
        thousand sockets of its own (``test_crowded_ports``) made the fake fail the bot's
        requests on new connections then."""
        poller = select.poll()
        poller.register(self.connection, select.POLLIN)
        return bool(poller.poll(timeout * 1000))

    def _client_gone(self) -> bool:
        """Whether the client closed its end (readable with nothing to read)."""
        try:
            return self._readable(0) and self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _hang(self) -> None:
        """Answer nothing until the client gives up, the server closes, or hang_limit passes."""
        deadline = time.monotonic() + self.hang_limit
        while not self.closing.is_set() and time.monotonic() < deadline:
            if self._readable(0.05):
                try:
                    if not self.connection.recv(1024):
                        break  # the client closed the connection
                except OSError:
                    break
        self.close_connection = True


class FakeServer:
    """The fake Bot API over HTTP on localhost (stdlib ThreadingHTTPServer in a thread)."""

    def __init__(self, fake: FakeTelegram, host: str = "127.0.0.1", port: int = 0) -> None:
        """Bind and start serving at once."""
        self.fake = fake
        self._closing = threading.Event()
        handler = type("_BoundHandler", (_Handler,), {"fake": fake, "closing": self._closing})
        self._httpd = ThreadingHTTPServer((host, port), handler)
        self._httpd.daemon_threads = True
        self.host = host
        self.port: int = self._httpd.server_address[1]
        self.base_url = f"http://{host}:{self.port}/bot"
        self.base_file_url = f"http://{host}:{self.port}/file/bot"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        """Stop serving; waiting long polls answer at once and hanging requests are dropped."""
        if self._closing.is_set():
            return
        self._closing.set()
        with self.fake._lock:
            self.fake._notify()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()

    def __enter__(self) -> FakeServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
