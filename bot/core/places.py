"""Where a table lives: a chat and, in a forum supergroup, a topic.

A forum's topic is named by its ``message_thread_id``, on every message written in it together
with ``is_topic_message``. A message of the General topic carries no thread id; nor does one of
a plain group, except a reply, whose thread id names its chain of replies (no topic: Telegram
leaves ``is_topic_message`` unset). The bot keys a table by (chat id, topic), the topic 0 for a
plain group, a forum's General topic and a private chat.
"""

from __future__ import annotations

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
