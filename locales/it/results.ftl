# The rating changes shown in the end-of-game message.

result-ratings-title = 📈 Punteggi nel gruppo:
# $delta: the change with its sign (+12, -7, ±0)
result-rating-change = { $player }: { NUMBER($before, useGrouping: 0) } → { NUMBER($after, useGrouping: 0) } ({ $delta })

command-classifica = la classifica del gruppo (in privato: quella generale)
command-stats = le tue statistiche (o quelle della persona a cui rispondi)
