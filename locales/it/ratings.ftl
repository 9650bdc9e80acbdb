# Classifiche e statistiche (/classifica, /top, /leaderboard, /stats).

ratings-game-belota = Belòta
ratings-game-briscola = Briscola
ratings-game-cirulla = Cirulla

## /classifica

ratings-board-title-group = 🏆 Classifica — { $chat }
ratings-board-title-global = 🏆 Classifica generale
ratings-col-rank = #
ratings-col-player = Giocatore
ratings-col-rating = Punteggio
ratings-col-games = Part.
ratings-col-wins = Vinte
ratings-board-empty = Ancora nessuno in classifica.
ratings-none-group = Ancora nessuna partita valutata in questo gruppo.
ratings-none-global = Ancora nessuna partita valutata.
ratings-you-unranked = Tu: { $games ->
    [one] una partita valutata
   *[other] { $games } partite valutate
}, { $missing ->
    [one] ne manca una
   *[other] ne mancano { $missing }
} per entrare in classifica.
ratings-min-games = In classifica chi ha almeno { $count ->
    [one] una partita valutata
   *[other] { $count } partite valutate
}. Le partite annullate o con giocatori al computer non sono valutate.
ratings-unknown-game = Non conosco il gioco «{ $name }». Scegli tra: { $games }.

## /stats

ratings-stats-title = 📊 Statistiche di { $name }
ratings-stats-none = { $name } non ha ancora partite finite.
ratings-stats-note = Contano tutte le partite finite, anche quelle con giocatori al computer.
ratings-stat-games = Partite
ratings-stat-wins = Vittorie
ratings-stat-wins-value = { $wins } ({ $rate }%)
ratings-stat-best-streak = Serie migliore
ratings-stat-partner = Spesso in coppia con
ratings-stat-partner-value = { $name } ({ $games ->
    [one] una partita
   *[other] { $games } partite
})
ratings-stat-scope = Scope
ratings-stat-buone = Buone
ratings-stat-capotti = Cappotti
ratings-stat-contracts = Contratti fatti
ratings-stat-contracts-value = { $made } su { $taken }
ratings-stat-points = Punti medi
ratings-stat-points-value = { NUMBER($points, minimumFractionDigits: 1, maximumFractionDigits: 1) }
