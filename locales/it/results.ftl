# The rating changes shown in the end-of-game message.

result-ratings-title = 📈 Punteggi nel gruppo:
# $delta: the change with its sign (+12, -7, ±0)
result-rating-change = { $player }: { $before } → { $after } ({ $delta })
