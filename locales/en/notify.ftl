# The call for the next game: /notify in a group or a topic.

command-avvisami = tell me in private when a table opens here
call-on = 🔔 { $player }, I'll write to you in private when a table opens here (at most once an hour). To stop: /notify off
call-open-private = First open the chat with me and press Start, or I cannot write to you: { $link }
call-off = 🔕 { $player }, I won't tell you about the tables that open here any more.
call-usage = Type /notify to be told when a table opens here, /notify off to stop.
call-group-only = Type /notify in the group (or the topic) where you want to be told.
# The private message: $game is "Briscola · 2 players", $group the group's name.
call-table-open = 🔔 A table opened: <b>{ $game }</b> in the group <b>{ $group }</b>, opened by { $creator }. Press the button to sit down.
btn-call-sit = 🪑 Sit down
