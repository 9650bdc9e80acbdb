# Computer players seated from the lobby.

computer-level-easy = easy
computer-level-normal = normal
computer-level-hard = hard
# $number: the seat's number (from 1); $level: the level's name
computer-name = 🤖 Computer { $number } ({ $level })

btn-computer-add = 🤖 { $level }
btn-computer-add-team = 🤖 { $level } · team { $team }
btn-computer-remove = ✖️ { $name }

toast-computer-added = A computer player sat down.
toast-computer-removed = The computer player left the table.
alert-computer-unavailable = This game has no computer players yet.
alert-computer-gone = That computer player is no longer at the table.
