"""Telegram's text formatting (HTML, MarkdownV2, legacy Markdown) as the Bot API parses it.

The parsers follow TDLib's `parse_html`, `parse_markdown_v2` and `parse_markdown`, which is what
the Bot API runs: they work on UTF-8 bytes (error messages name byte offsets), measure entities in
UTF-16 code units, and raise `MarkupError` with Telegram's own wording. The caller prefixes
"Bad Request: can't parse entities: ".

One deliberate difference: `parse_html(..., strict=True)` also rejects a bare `&` that starts no
entity and a bare `>`. Telegram's documentation says both "must be replaced with the corresponding
HTML entities"; its parser happens to let them through, but a bot that relies on that breaks as
soon as a player's name contains `<`.
"""

from __future__ import annotations

import re

__all__ = [
    "MarkupError",
    "parse_entities",
    "parse_html",
    "parse_markdown",
    "parse_markdown_v2",
    "trim_formatted",
    "utf16_len",
]


class MarkupError(ValueError):
    """Text that Telegram refuses to parse; the message is Telegram's description."""


def utf16_len(text: str) -> int:
    """Length of `text` in UTF-16 code units: the unit of entity offsets and of the limits."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


# TDLib's is_space: NUL counts, because its parsers read a NUL-terminated buffer.
_SPACES = frozenset(b" \t\r\n\x00\x0b\x0c")
_AMP, _LT, _GT, _SLASH, _EQ = ord("&"), ord("<"), ord(">"), ord("/"), ord("=")
_DQUOTE, _SQUOTE, _SEMI, _HASH = ord('"'), ord("'"), ord(";"), ord("#")

_HTML_TAGS = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "tg-time",
        "span",
        "pre",
        "code",
        "blockquote",
    }
)
_NAMED_REFS = {b"lt": ord("<"), b"gt": ord(">"), b"amp": ord("&"), b"quot": ord('"')}
# Order of entity types at the same offset and length (TDLib sorts by offset, length, priority).
_TYPE_ORDER = {
    t: n
    for n, t in enumerate(
        [
            "mention",
            "hashtag",
            "bot_command",
            "url",
            "email",
            "cashtag",
            "phone_number",
            "blockquote",
            "expandable_blockquote",
            "pre",
            "code",
            "text_link",
            "text_mention",
            "custom_emoji",
            "date_time",
            "bold",
            "italic",
            "underline",
            "strikethrough",
            "spoiler",
        ]
    )
}
_SURROGATE_ERROR = (
    "Text contains invalid Unicode characters after decoding HTML entities, "
    "check for unmatched surrogate code units"
)


def _sort_entities(entities: list[dict]) -> list[dict]:
    return sorted(
        entities, key=lambda e: (e["offset"], -e["length"], _TYPE_ORDER.get(e["type"], 99))
    )


def _is_first_unit(byte: int) -> bool:
    return (byte & 0xC0) != 0x80


def _units(byte: int) -> int:
    """UTF-16 code units of the character whose UTF-8 encoding starts with `byte`."""
    return 2 if byte >= 0xF0 else 1


class _Bytes:
    """A UTF-8 buffer read as TDLib reads a C string: past the end there is a NUL."""

    __slots__ = ("data", "size")

    def __init__(self, text: str) -> None:
        self.data = text.encode("utf-8", "surrogatepass")
        self.size = len(self.data)

    def __getitem__(self, i: int) -> int:
        return self.data[i] if i < self.size else 0

    def slice(self, start: int, end: int) -> bytes:
        return self.data[start:end]


def _decode_ref(src: _Bytes, pos: int) -> tuple[int, int] | None:
    """The character reference at `pos` as (code point, end), or None if it stays literal."""
    end = pos + 1
    code = 0
    if src[pos + 1] == _HASH:
        end += 1
        if src[pos + 2] == ord("x"):
            end += 1
            while chr(src[end]) in "0123456789abcdefABCDEF":
                code = code * 16 + int(chr(src[end]), 16)
                end += 1
        else:
            while 0x30 <= src[end] <= 0x39:
                code = code * 10 + src[end] - 0x30
                end += 1
        if code == 0 or code >= 0x10FFFF or end - pos >= 10:
            return None
    else:
        while chr(src[end]).isascii() and chr(src[end]).isalpha():
            end += 1
        named = _NAMED_REFS.get(src.slice(pos + 1, end))
        if named is None:
            return None
        code = named
    return code, end + 1 if src[end] == _SEMI else end


def _checked_link(url: str) -> str | None:
    """The URL a text link opens, or None when Telegram would drop the link."""
    url = url.strip()
    if not url or any(ch.isspace() for ch in url):
        return None
    match = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*)://", url)
    if match:
        return url if match.group(1).lower() in {"http", "https", "tg", "ton", "tonsite"} else None
    if re.match(r"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+([/?#:].*)?$", url):
        return "http://" + url
    return None


def _link_entity(url: str, offset: int, length: int) -> dict | None:
    """A text_mention for tg://user?id=N, a text_link for a valid URL, or None."""
    match = re.match(r"^tg://user\?id=(\d+)$", url.strip(), re.IGNORECASE)
    if match:
        entity = {"type": "text_mention", "offset": offset, "length": length}
        entity["user_id"] = int(match[1])
        return entity
    checked = _checked_link(url)
    if checked is None:
        return None
    return {"type": "text_link", "offset": offset, "length": length, "url": checked}


def parse_html(text: str, *, strict: bool = True) -> tuple[str, list[dict]]:
    """Parse Telegram HTML into (plain text, entities); raise MarkupError like Telegram does."""
    src = _Bytes(text)
    out = bytearray()
    entities: list[list] = []  # [entity, language of a code tag waiting for its pre]
    open_tags: list[tuple[str, str, int, int, int]] = []  # name, argument, unix, u16, out pos
    u16 = 0
    decoded_surrogate = False
    i = 0
    while i < src.size:
        c = src[i]
        if c == _AMP:
            ref = _decode_ref(src, i)
            if ref is not None:
                code, i = ref
                decoded_surrogate |= 0xD800 <= code <= 0xDFFF
                out += chr(code).encode("utf-8", "surrogatepass")
                u16 += 2 if code > 0xFFFF else 1
                continue
            if strict:
                raise MarkupError(f'Unescaped "&" at byte offset {i}: write it as "&amp;"')
        if c != _LT:
            if strict and c == _GT:
                raise MarkupError(f'Unescaped ">" at byte offset {i}: write it as "&gt;"')
            if _is_first_unit(c):
                u16 += _units(c)
            out.append(c)
            i += 1
            continue

        begin = i
        i += 1
        if src[i] != _SLASH:
            while src[i] not in _SPACES and src[i] != _GT:
                i += 1
            if src[i] == 0:
                raise MarkupError(f"Unclosed start tag at byte offset {begin}")
            name = src.slice(begin + 1, i).lower().decode("utf-8", "replace")
            if name not in _HTML_TAGS:
                raise MarkupError(f'Unsupported start tag "{name}" at byte offset {begin}')
            argument, unix = "", 0
            while src[i] != _GT:
                while src[i] != 0 and src[i] in _SPACES:
                    i += 1
                if src[i] == _GT:
                    break
                attr_begin = i
                while src[i] not in _SPACES and src[i] not in (_EQ, _GT, _SLASH, _DQUOTE, _SQUOTE):
                    i += 1
                attr = src.slice(attr_begin, i).decode("utf-8", "replace")
                if not attr:
                    raise MarkupError(
                        f'Empty attribute name in the tag "{name}" at byte offset {begin}'
                    )
                while src[i] != 0 and src[i] in _SPACES:
                    i += 1
                if src[i] != _EQ:
                    if src[i] == 0:
                        raise MarkupError(f'Unclosed start tag "{name}" at byte offset {begin}')
                    if name == "blockquote" and attr == "expandable":
                        argument = "1"
                    continue
                i += 1
                while src[i] != 0 and src[i] in _SPACES:
                    i += 1
                if src[i] == 0:
                    raise MarkupError(f'Unclosed start tag "{name}" at byte offset {begin}')
                if src[i] not in (_SQUOTE, _DQUOTE):
                    token_begin = i
                    while chr(src[i]).isascii() and (chr(src[i]).isalnum() or src[i] in b".-"):
                        i += 1
                    value = src.slice(token_begin, i).lower().decode("utf-8", "replace")
                    if src[i] not in _SPACES and src[i] != _GT:
                        raise MarkupError(
                            f"Unexpected end of name token at byte offset {token_begin}"
                        )
                else:
                    quote = src[i]
                    i += 1
                    raw = bytearray()
                    while src[i] != quote and src[i] != 0:
                        if src[i] == _AMP:
                            ref = _decode_ref(src, i)
                            if ref is not None:
                                raw += chr(ref[0]).encode("utf-8", "surrogatepass")
                                i = ref[1]
                                continue
                        raw.append(src[i])
                        i += 1
                    if src[i] == quote:
                        i += 1
                    value = raw.decode("utf-8", "replace")
                if src[i] == 0:
                    raise MarkupError(f"Unclosed start tag at byte offset {begin}")
                if name == "tg-time" and attr == "unix":
                    found = re.match(r"^-?\d+", value)
                    unix = int(found[0]) if found else 0
                argument = _tag_argument(name, attr, value, argument)
            if name == "span" and argument != "spoiler":
                raise MarkupError(f'Tag "span" must have class "tg-spoiler" at byte offset {begin}')
            open_tags.append((name, argument, unix, u16, len(out)))
            i += 1
            continue

        if not open_tags:
            raise MarkupError(f"Unexpected end tag at byte offset {begin}")
        while src[i] not in _SPACES and src[i] != _GT:
            i += 1
        end_name = src.slice(begin + 2, i).lower().decode("utf-8", "replace")
        while src[i] in _SPACES and src[i] != 0:
            i += 1
        if src[i] != _GT:
            raise MarkupError(f"Unclosed end tag at byte offset {begin}")
        name, argument, unix, offset, out_pos = open_tags[-1]
        if end_name and end_name != name:
            raise MarkupError(
                f'Unmatched end tag at byte offset {begin}, expected "</{name}>", '
                f'found "</{end_name}>"'
            )
        if u16 > offset:
            inner = bytes(out[out_pos:]).decode("utf-8", "replace")
            _close_html_tag(name, argument, unix, offset, u16 - offset, inner, entities)
        open_tags.pop()
        i += 1

    if open_tags:
        raise MarkupError(f'Can\'t find end tag corresponding to start tag "{open_tags[-1][0]}"')
    if decoded_surrogate:
        raise MarkupError(_SURROGATE_ERROR)
    return bytes(out).decode("utf-8"), _sort_entities([e for e, _ in entities])


def _tag_argument(name: str, attr: str, value: str, current: str) -> str:
    """The argument a tag takes from one of its attributes (TDLib ignores all others)."""
    if name == "a" and attr == "href":
        return value
    if name == "code" and attr == "class" and value.startswith("language-"):
        return value[len("language-") :]
    if name == "span" and attr == "class" and value.startswith("tg-"):
        return value[len("tg-") :]
    if (name == "tg-emoji" and attr == "emoji-id") or (name == "tg-time" and attr == "format"):
        return value
    if name == "blockquote" and attr == "expandable":
        return "1"
    return current


_SIMPLE_HTML = {
    "i": "italic",
    "em": "italic",
    "b": "bold",
    "strong": "bold",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "u": "underline",
    "ins": "underline",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
}


def _close_html_tag(
    name: str, argument: str, unix: int, offset: int, length: int, inner: str, entities: list
) -> None:
    """Turn a closed tag with content into its entity, merging <pre><code class=...>."""
    previous = entities[-1] if entities else None
    same_span = (
        previous is not None and previous[0]["offset"] == offset and previous[0]["length"] == length
    )
    if name in _SIMPLE_HTML:
        entities.append([{"type": _SIMPLE_HTML[name], "offset": offset, "length": length}, ""])
    elif name == "tg-emoji":
        if not re.fullmatch(r"[1-9]\d{0,18}", argument):
            raise MarkupError("Invalid custom emoji identifier specified")
        entity = {"type": "custom_emoji", "offset": offset, "length": length}
        entity["custom_emoji_id"] = argument
        entities.append([entity, ""])
    elif name == "tg-time":
        if unix > 0:
            entity = {"type": "date_time", "offset": offset, "length": length, "unix_time": unix}
            if argument:
                entity["date_time_format"] = argument
            entities.append([entity, ""])
    elif name == "a":
        entity = _link_entity(argument or inner, offset, length)
        if entity is not None:
            entities.append([entity, ""])
    elif name == "pre":
        if same_span and previous[0]["type"] == "code" and previous[1]:
            previous[0] = {"type": "pre", "offset": offset, "length": length}
            previous[0]["language"] = previous[1]
            previous[1] = ""
        else:
            entities.append([{"type": "pre", "offset": offset, "length": length}, ""])
    elif name == "code":
        bare_pre = same_span and previous[0]["type"] == "pre" and "language" not in previous[0]
        if bare_pre and argument:
            previous[0] = {"type": "pre", "offset": offset, "length": length, "language": argument}
        else:
            entities.append([{"type": "code", "offset": offset, "length": length}, argument])
    elif name == "blockquote":
        kind = "expandable_blockquote" if argument else "blockquote"
        entities.append([{"type": kind, "offset": offset, "length": length}, ""])


_RESERVED_V2 = b"_*[]()~`>#+-=|{}.!\n"
_V2_NAMES = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "code": "Code",
    "pre": "Pre",
    "pre_code": "PreCode",
    "text_link": "TextUrl",
    "custom_emoji": "CustomEmoji",
    "blockquote": "BlockQuote",
}


def _reserved(char: int) -> MarkupError:
    return MarkupError(
        f"Character '{chr(char)}' is reserved and must be escaped with the preceding '\\'"
    )


def _read_url(src: _Bytes, i: int) -> tuple[str, int]:
    """Read a MarkdownV2 URL from `i` up to its ')'; return (url, index of the ')')."""
    url = bytearray()
    while i < src.size and src[i] != ord(")"):
        if src[i] == ord("\\") and 0 < src[i + 1] <= 126:
            url.append(src[i + 1])
            i += 2
            continue
        url.append(src[i])
        i += 1
    return url.decode("utf-8", "replace"), i


def parse_markdown_v2(text: str) -> tuple[str, list[dict]]:
    """Parse Telegram MarkdownV2 into (plain text, entities); raise MarkupError like Telegram."""
    src = _Bytes(text)
    out = bytearray()
    entities: list[dict] = []
    nested: list[dict] = []  # type, argument, u16 offset, byte offset in source, out position
    u16 = 0
    have_blockquote = False
    can_start_blockquote = True
    i = 0
    while i < src.size:
        c = src[i]
        if c == ord("\\") and 0 < src[i + 1] <= 126:
            i += 1
            u16 += 1
            out.append(src[i])
            if src[i] != ord("\r"):
                can_start_blockquote = src[i] == ord("\n")
            i += 1
            continue
        reserved = _RESERVED_V2
        if nested and nested[-1]["type"] in ("code", "pre", "pre_code"):
            reserved = b"`"
        if c not in reserved:
            if _is_first_unit(c):
                u16 += _units(c)
                if c != ord("\r"):
                    can_start_blockquote = False
            out.append(c)
            i += 1
            continue

        ends = False
        if nested:
            kind = nested[-1]["type"]
            if have_blockquote and c == ord("\n") and (i + 1 == src.size or src[i + 1] != ord(">")):
                ends = True
            elif kind == "bold":
                ends = c == ord("*")
            elif kind == "italic":
                ends = c == ord("_") and src[i + 1] != ord("_")
            elif kind == "code":
                ends = c == ord("`")
            elif kind in ("pre", "pre_code"):
                ends = c == ord("`") and src[i + 1] == ord("`") and src[i + 2] == ord("`")
            elif kind in ("text_link", "custom_emoji"):
                ends = c == ord("]")
            elif kind == "underline":
                ends = c == ord("_") and src[i + 1] == ord("_")
            elif kind == "strikethrough":
                ends = c == ord("~")
            elif kind == "spoiler":
                ends = c == ord("|") and src[i + 1] == ord("|")

        if not ends:
            kind, argument, byte_offset = None, "", i
            if c == ord("_"):
                if src[i + 1] == ord("_"):
                    kind = "underline"
                    i += 1
                else:
                    kind = "italic"
            elif c == ord("*"):
                kind = "bold"
            elif c == ord("~"):
                kind = "strikethrough"
            elif c == ord("|"):
                if src[i + 1] != ord("|"):
                    raise _reserved(c)
                i += 1
                kind = "spoiler"
            elif c == ord("["):
                kind = "text_link"
            elif c == ord("`"):
                if src[i + 1] == ord("`") and src[i + 2] == ord("`"):
                    i += 3
                    kind = "pre"
                    lang_end = i
                    while src[lang_end] not in _SPACES and src[lang_end] != ord("`"):
                        lang_end += 1
                    if i != lang_end and lang_end < src.size and src[lang_end] != ord("`"):
                        kind = "pre_code"
                        argument = src.slice(i, lang_end).decode("utf-8", "replace")
                        i = lang_end
                    if src[i] in (ord("\n"), ord("\r")):
                        pair = src[i + 1] in (ord("\n"), ord("\r")) and src[i] != src[i + 1]
                        i += 2 if pair else 1
                    i -= 1
                else:
                    kind = "code"
            elif c == ord("!"):
                if src[i + 1] != ord("["):
                    raise _reserved(c)
                i += 1
                kind = "custom_emoji"
            elif c == ord("\n"):
                u16 += 1
                out.append(c)
                can_start_blockquote = True
            elif c == ord(">"):
                if not can_start_blockquote:
                    raise _reserved(c)
                if not have_blockquote:
                    kind = "blockquote"
                    have_blockquote = True
            else:
                raise _reserved(c)
            if kind is not None:
                opened = {"type": kind, "arg": argument, "u16": u16, "byte": byte_offset}
                nested.append({**opened, "pos": len(out)})
            i += 1
            continue

        top = nested[-1]
        kind = top["type"]
        if c == ord("\n") and kind != "blockquote":
            after_cr = top["byte"] == i - 3 and out and out[-1] == ord("\r")
            if kind != "spoiler" or not (top["byte"] == i - 2 or after_cr):
                raise MarkupError(
                    f"Can't find end of {_V2_NAMES[kind]} entity at byte offset {top['byte']}"
                )
            nested.pop()
            top = nested[-1]
            if top["type"] != "blockquote":
                raise MarkupError(
                    f"Can't find end of {_V2_NAMES[top['type']]} entity at byte offset "
                    f"{top['byte']}"
                )
            kind = "expandable_blockquote"
        argument = top["arg"]
        skip = u16 == top["u16"]
        entity: dict | None = None
        if kind in ("underline", "spoiler"):
            i += 1
        elif kind in ("pre", "pre_code"):
            i += 2
        elif kind == "text_link":
            if src[i + 1] != ord("("):
                url = bytes(out[top["pos"] :]).decode("utf-8", "replace")
            else:
                url_begin = i + 2
                url, i = _read_url(src, url_begin)
                if src[i] != ord(")"):
                    raise MarkupError(f"Can't find end of a URL at byte offset {url_begin}")
            entity = _link_entity(url, top["u16"], u16 - top["u16"])
            skip = skip or entity is None
        elif kind == "custom_emoji":
            if src[i + 1] != ord("("):
                raise MarkupError("Custom emoji entity must contain a tg://emoji URL")
            url_begin = i + 2
            url, i = _read_url(src, url_begin)
            if src[i] != ord(")"):
                raise MarkupError(
                    f"Can't find end of a custom emoji URL at byte offset {url_begin}"
                )
            found = re.match(r"^tg://emoji/?\?(?:[^#]*&)?id=([1-9]\d{0,18})(?:[&#].*)?$", url, re.I)
            if not found:
                raise MarkupError("Custom emoji URL must have an emoji identifier")
            argument = found[1]
        elif kind in ("blockquote", "expandable_blockquote"):
            have_blockquote = False
            out.append(c)
            can_start_blockquote = True
            u16 += 1
            skip = False
        if not skip:
            length = u16 - top["u16"]
            if entity is None:
                entity = {"type": "pre" if kind == "pre_code" else kind}
                entity.update(offset=top["u16"], length=length)
                if kind == "pre_code":
                    entity["language"] = argument
                elif kind == "custom_emoji":
                    entity["custom_emoji_id"] = argument
            entities.append(entity)
        nested.pop()
        i += 1

    if have_blockquote:
        kind = "blockquote"
        if nested[-1]["type"] == "spoiler" and nested[-1]["byte"] == src.size - 2:
            nested.pop()
            kind = "expandable_blockquote"
        if nested[-1]["type"] == "blockquote":
            top = nested.pop()
            if u16 != top["u16"]:
                entities.append({"type": kind, "offset": top["u16"], "length": u16 - top["u16"]})
    if nested:
        top = nested[-1]
        name = _V2_NAMES[top["type"]]
        raise MarkupError(f"Can't find end of {name} entity at byte offset {top['byte']}")
    return bytes(out).decode("utf-8", "replace"), _sort_entities(entities)


def parse_markdown(text: str) -> tuple[str, list[dict]]:
    """Parse Telegram's legacy Markdown into (plain text, entities); raise MarkupError."""
    src = _Bytes(text)
    out = bytearray()
    entities: list[dict] = []
    u16 = 0
    i = 0
    while i < src.size:
        c = src[i]
        if c == ord("\\") and src[i + 1] in b"_*`[":
            out.append(src[i + 1])
            u16 += 1
            i += 2
            continue
        if c not in b"_*`[":
            if _is_first_unit(c):
                u16 += _units(c)
            out.append(c)
            i += 1
            continue
        begin = i
        end_char = ord("]") if c == ord("[") else c
        i += 1
        is_pre, language = False, ""
        if c == ord("`") and src[i] == ord("`") and src[i + 1] == ord("`"):
            i += 2
            is_pre = True
            lang_end = i
            while src[lang_end] not in _SPACES and src[lang_end] != ord("`"):
                lang_end += 1
            if i != lang_end and lang_end < src.size and src[lang_end] != ord("`"):
                language = src.slice(i, lang_end).decode("utf-8", "replace")
                i = lang_end
            if src[i] in (ord("\n"), ord("\r")):
                pair = src[i + 1] in (ord("\n"), ord("\r")) and src[i] != src[i + 1]
                i += 2 if pair else 1
        length = 0
        start_pos = len(out)
        while i < src.size and (
            src[i] != end_char or (is_pre and not (src[i + 1] == ord("`") == src[i + 2]))
        ):
            if _is_first_unit(src[i]):
                length += _units(src[i])
            out.append(src[i])
            i += 1
        if i == src.size:
            raise MarkupError(f"Can't find end of the entity starting at byte offset {begin}")
        if length > 0:
            entity: dict | None = None
            if c == ord("_"):
                entity = {"type": "italic", "offset": u16, "length": length}
            elif c == ord("*"):
                entity = {"type": "bold", "offset": u16, "length": length}
            elif c == ord("["):
                if src[i + 1] == ord("("):
                    i += 2
                    url_begin = i
                    while i < src.size and src[i] != ord(")"):
                        i += 1
                    url = src.slice(url_begin, i).decode("utf-8", "replace")
                else:
                    url = bytes(out[start_pos:]).decode("utf-8", "replace")
                entity = _link_entity(url, u16, length)
            elif is_pre:
                entity = {"type": "pre", "offset": u16, "length": length}
                if language:
                    entity["language"] = language
            else:
                entity = {"type": "code", "offset": u16, "length": length}
            if entity is not None:
                entities.append(entity)
            u16 += length
        if is_pre:
            i += 2
        i += 1
    return bytes(out).decode("utf-8", "replace"), _sort_entities(entities)


_TRIMMED = " \t\r\n"


def trim_formatted(text: str, entities: list[dict]) -> tuple[str, list[dict]]:
    """Strip leading and trailing whitespace as Telegram does, clipping entities to match."""
    stripped_left = text.lstrip(_TRIMMED)
    left = utf16_len(text) - utf16_len(stripped_left)
    result = stripped_left.rstrip(_TRIMMED)
    total = utf16_len(result)
    kept = []
    for entity in entities:
        start = max(entity["offset"] - left, 0)
        end = min(entity["offset"] + entity["length"] - left, total)
        if end > start:
            kept.append({**entity, "offset": start, "length": end - start})
    return result, kept


def parse_entities(
    text: str, parse_mode: str | None, *, strict_html: bool = True
) -> tuple[str, list[dict]]:
    """Parse `text` with a Bot API parse_mode (None for plain text); trim like Telegram."""
    mode = (parse_mode or "").lower()
    if mode in ("", "none"):
        plain, entities = text, []
    elif mode == "html":
        plain, entities = parse_html(text, strict=strict_html)
    elif mode == "markdownv2":
        plain, entities = parse_markdown_v2(text)
    elif mode == "markdown":
        plain, entities = parse_markdown(text)
    else:
        raise ValueError(parse_mode)
    return trim_formatted(plain, entities)
