# Leaderboards and statistics (/classifica, /top, /leaderboard, /stats).

ratings-game-belota = Belòta
ratings-game-briscola = Briscola
ratings-game-cirulla = Cirulla

## /classifica

ratings-board-title-group = 🏆 Leaderboard — { $chat }
ratings-board-title-global = 🏆 Global leaderboard
ratings-col-rank = #
ratings-col-player = Player
ratings-col-rating = Rating
ratings-col-games = Games
ratings-col-wins = Wins
ratings-board-empty = Nobody ranked yet.
ratings-none-group = No rated games in this group yet.
ratings-none-global = No rated games yet.
ratings-you-unranked = You: { $games ->
    [one] one rated game
   *[other] { $games } rated games
}, { $missing ->
    [one] one more
   *[other] { $missing } more
} to be ranked.
ratings-min-games = Ranked: players with at least { $count ->
    [one] one rated game
   *[other] { $count } rated games
}. Cancelled games and games with computer players are not rated.
ratings-unknown-game = I don't know the game “{ $name }”. Choose one of: { $games }.

## /stats

ratings-stats-title = 📊 Statistics of { $name }
ratings-stats-none = { $name } has no finished games yet.
ratings-stats-note = Every finished game counts, games with computer players too.
ratings-stat-games = Games
ratings-stat-wins = Wins
ratings-stat-wins-value = { $wins } ({ $rate }%)
ratings-stat-best-streak = Best streak
ratings-stat-partner = Favourite partner
ratings-stat-partner-value = { $name } ({ $games ->
    [one] one game
   *[other] { $games } games
})
ratings-stat-scope = Scopas
ratings-stat-buone = Buone
ratings-stat-capotti = Capots (every trick)
ratings-stat-contracts = Contracts made
ratings-stat-contracts-value = { $made } of { $taken }
ratings-stat-points = Average points
ratings-stat-points-value = { NUMBER($points, minimumFractionDigits: 1, maximumFractionDigits: 1) }
