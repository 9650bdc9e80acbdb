# The rating changes shown in the end-of-game message.

result-ratings-title = 📈 Ratings in this group:
# $delta: the change with its sign (+12, -7, ±0)
result-rating-change = { $player }: { NUMBER($before, useGrouping: 0) } → { NUMBER($after, useGrouping: 0) } ({ $delta })

command-classifica = the group's leaderboard (in private: the global one)
command-stats = your statistics (or those of the person you reply to)
