"""Where a table lives: a chat and, in a forum supergroup, a topic.

A forum's topic is named by its ``message_thread_id``, on every message written in it together
with ``is_topic_message``. A message of the General topic carries no thread id; nor does one of
a plain group, except a reply, whose thread id names its chain of replies (no topic: Telegram
leaves ``is_topic_message`` unset). The bot keys a table by (chat id, topic), the topic 0 for a
plain group, a forum's General topic and a private chat.
"""

from __future__ import annotations

from typing import NamedTuple

from telegram import Message

# The topic of a plain group, of a forum's General topic, of a private chat.
NO_TOPIC = 0


def topic_of(message: Message | None) -> int:
    """The forum topic a message belongs to (its thread id), or ``NO_TOPIC``."""
    if message is None or not message.is_topic_message or not message.message_thread_id:
        return NO_TOPIC
    return message.message_thread_id


def is_forum_message(message: Message | None) -> bool:
    """Whether a message was written in a forum supergroup (a chat with topics)."""
    return message is not None and bool(message.chat.is_forum)


class ShutTopics:
    """The forum topics the bot cannot write in for now: closed (new messages refused with
    "TOPIC_CLOSED", and a forum_topic_closed message seen) or deleted ("message thread not
    found"). Their tables' group messages wait, rather than being tried again at every move;
    the games go on in private and in the Mini App. A topic that reopens is open again (its
    tables come back below: ``bot.table.topics``); a deleted one never reopens, and after a
    restart the bot tries it once more."""

    def __init__(self) -> None:
        self._shut: set[tuple[int, int]] = set()

    def is_shut(self, chat_id: int, topic: int) -> bool:
        """Whether the bot holds back the group messages of this topic."""
        return (chat_id, topic) in self._shut

    def shut(self, chat_id: int, topic: int) -> None:
        """The topic refused a message, or was closed."""
        if topic != NO_TOPIC:  # General and plain groups: no service message would reopen them
            self._shut.add((chat_id, topic))

    def reopen(self, chat_id: int, topic: int) -> bool:
        """The topic was reopened; False if it was not known as shut."""
        if (chat_id, topic) not in self._shut:
            return False
        self._shut.discard((chat_id, topic))
        return True


class Place(NamedTuple):
    """Where a table's group messages go: its chat, and its forum topic (``NO_TOPIC``: the
    chat as a whole, or a forum's General topic)."""

    chat_id: int
    thread_id: int = NO_TOPIC
