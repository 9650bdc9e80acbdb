# The table drawn as cards: the Mini App and the local table (python -m bot --local).

webapp-title = Tavolata
webapp-offline = Connessione persa: riprovo…
webapp-no-game = Non sei seduto a nessuna partita in corso. Apri un tavolo nel gruppo con /nuova.
webapp-new-game = Nuova partita
# "Nuova partita" while a game is open: another one cancels it
webapp-new-game-ask = C'è una partita in corso: se ne cominci un'altra, questa viene annullata.
webapp-new-game-other = Scegli un'altra partita
webapp-back-to-game = Torna alla partita
webapp-play = Si gioca!
webapp-level = Livello
webapp-game = Gioco
webapp-stock = Mazzo
webapp-last-trick = Ultima presa
webapp-last-play = Ultima giocata
webapp-trump = Briscola
webapp-turned = Carta girata
webapp-bergere = bergère
webapp-bergere-title = Ultima carta del mazzo, in vista per tutti (la bergère)
webapp-face-up = fuori gioco
webapp-face-up-title = La carta girata, rimasta in tavola fuori gioco
webapp-choose-capture = Cosa prendi?
webapp-cancel = Annulla
webapp-close = Chiudi
webapp-you = Tu
webapp-dealer = Mazziere
webapp-cards = carte
webapp-table-empty = Tavola vuota
webapp-again = Un'altra!
webapp-your-turn = Tocca a te
webapp-unauthorized = Apri il tavolo da Telegram: i dati di accesso mancano, sono falsi o scaduti.
webapp-too-many = Troppi tavoli aperti: chiudine qualcuno.
webapp-local-player = Giocatore
webapp-server-down = Il tavolo non risponde: il programma è fermo o la rete manca. Riprova tra poco.
webapp-cannot-play = Questa carta non si può giocare ora.
# Belòta's word for the trump suit
webapp-atu = Atù
webapp-no-trump = Senza atù
webapp-result = Risultato
webapp-confirm = Confermi:
# What a seat said this deal, on its tag (Belòta)
webapp-said-pass = { $person ->
    [second] passi
   *[third] passa
}
webapp-said-take = { $person ->
    [second] mandi { $suit }
   *[third] manda { $suit }
}
webapp-said-sensa = sensa
webapp-said-contru = contru
# What a bid means, under its button
webapp-help-pass = non prendi
webapp-help-take = il seme girato è atù
webapp-help-sensa = senza atù, punti ×2
webapp-help-contru = contro la sensa, punti ×3
webapp-help-declare = i tuoi accusi, con la prima carta
webapp-help-knock = dichiari la buona
# A computer player's short name on the table (its level is said once, in the header)
webapp-computer = Computer { $number }
webapp-computer-alone = Computer
webapp-local-table = Tavolo locale
# The button on the hand message and the link on the group's table that open the Mini App
btn-webapp = 🎴 Tavolo
btn-webapp-group = 🎴 Apri il tavolo
