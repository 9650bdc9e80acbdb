# Computer players seated from the lobby.

computer-level-easy = facile
computer-level-normal = normale
computer-level-hard = difficile
# $number: the seat's number (from 1); $level: the level's name
computer-name = 🤖 Computer { $number } ({ $level })

btn-computer-add = 🤖 { $level }
btn-computer-add-team = 🤖 { $level } · sq. { $team }
btn-computer-remove = ✖️ { $name }

toast-computer-added = Computer seduto al tavolo.
toast-computer-removed = Computer tolto dal tavolo.
alert-computer-unavailable = Per questo gioco non ci sono ancora giocatori computer.
alert-computer-gone = Quel computer non è più al tavolo.
