## The bot's own texts: lobby, table and hand messages, alerts, commands.

-bot-name = Tavolata

## Lists and names
pair = { $a } e { $b }
list-and = { $head } e { $last }
# The reader's own name in a line about them (a list, a label), alone and with their partner
you = Tu
you-pair = Voi

## Court cards, by the pack's faces: the letter each rank shows (the engine's J, Q, K).
# Italian cards: fante, cavallo, re. French cards keep the J, Q, K printed on their corners.
rank-italian-J = F
rank-italian-Q = C
rank-italian-K = R
rank-french-J = J
rank-french-Q = Q
rank-french-K = K

## Suits, by the pack's faces
suit-italian-H = coppe { $symbol }
suit-italian-D = denari { $symbol }
suit-italian-C = bastoni { $symbol }
suit-italian-S = spade { $symbol }
suit-french-H = cuori { $symbol }
suit-french-D = quadri { $symbol }
suit-french-C = fiori { $symbol }
suit-french-S = picche { $symbol }

## Games
game-briscola = Briscola
game-cirulla = Cirulla
game-belota = Belòta
game-option = { $game } · { $players } giocatori
game-option-pairs = { $game } · 4 giocatori, a coppie

## Commands (the menu of commands)
command-nuova = apri una nuova partita nel gruppo
command-mano = rimanda in privato le tue carte
command-annulla = annulla la partita del gruppo

## /nuova
new-group-only = Le partite si giocano nei gruppi: aggiungimi a un gruppo e scrivi lì /nuova.
# The command as this language types it (its alias)
new-command = /nuova
new-unknown-game = Non conosco questo gioco. Prova: { $options }
new-busy = In questo gruppo c'è già una partita. Chi l'ha creata o un amministratore può annullarla con /annulla. Un gruppo con gli argomenti (topic) può tenere un tavolo per argomento.
new-busy-topic = In questo argomento c'è già una partita. Chi l'ha creata o un amministratore può annullarla con /annulla; per un altro tavolo, scrivete /nuova in un altro argomento.
new-busy-general = Qui c'è già una partita. Chi l'ha creata o un amministratore può annullarla con /annulla; per un altro tavolo, scrivete /nuova in un argomento del gruppo.

## Lobby
lobby-choose = 🃏 <b>Nuova partita</b>
    { $creator } sceglie il gioco:
lobby-choose-count = 🃏 <b>Nuova partita a { $game }</b>
    { $creator } sceglie in quanti si gioca:
lobby-title = 🃏 <b>{ $title }</b>
lobby-creator = Creata da { $creator }
lobby-team = Squadra { $team }: { $a }, { $b }
lobby-players = Giocatori: { $players }
lobby-rules = Regole della casa: { $rules }
lobby-rules-standard = Regole standard.
lobby-how-to-join = Premi «Siediti» per giocare: le carte arrivano in privato, quindi serve la chat con me (il bottone la apre, poi premi Avvia).
lobby-full = Il tavolo è al completo: si può cominciare!
lobby-no-game = Nuova partita
lobby-cancelled = 🃏 { $title }: partita annullata.

btn-join = 🪑 Siediti
btn-join-team = 🪑 Siediti in squadra { $team }
btn-leave = 🚶 Alzati
btn-rules = ⚙️ Regole
btn-rules-done = ✅ Fatto
btn-start = ▶️ Comincia
btn-cancel = ✖️ Annulla
btn-show-hand = 🂠 Le mie carte
btn-play-inline = ✋ Gioca qui
btn-rematch = 🔁 Rivincita

rule-on = sì
rule-off = no

toast-seated = Hai preso posto al tavolo.
toast-left = Hai lasciato il tavolo.
toast-cancelled = Partita annullata.

## Table message (in the group)
# $deal: the deal in the game's own word ("smazzata 2")
table-title = 🃏 <b>{ $title }</b> · { $deal }
table-title-single = 🃏 <b>{ $title }</b>
table-turn = { $person ->
    [second] 👉 Tocca a te
   *[third] 👉 È il turno di { $player }
}
table-over = 🏁 Partita finita.
table-cancelled = ✖️ Partita annullata.

## Hand message (in private)
hand-title = 🃏 <b>{ $group }</b> · { $title }
hand-cards = Le tue carte: { $cards }
hand-your-turn = 👉 Tocca a te!
hand-your-turn-table = 👉 Tocca a te: scegli sul messaggio del tavolo, nel gruppo.
hand-wait = Aspetta il tuo turno.
hand-none = Non stai giocando nessuna partita.
hand-open-private = Non posso scriverti in privato: apri la chat con me e premi Avvia: { $link }

## Announcements
game-winners = { $person ->
    [second] 🏆 Hai vinto!
    [second-plural] 🏆 Vincete voi!
   *[third] { $count ->
        [one] 🏆 Vince { $winners }!
       *[other] 🏆 Vincono { $winners }!
    }
}
game-draw = 🤝 La partita finisce pari.
deal-forced-plays = 🤖 Nessuno aveva più scelta: le ultime carte le ha giocate il bot.

## Notices in the group
notice-private-closed = ⚠️ Non riesco a mandare in privato le carte di { $player }: apri la chat con { $bot } e premi Avvia (o sblocca il bot), poi si continua da dove eravamo. Intanto si può giocare dal gruppo col bottone «✋ Gioca qui» del tavolo: le carte le vede solo chi gioca.

## Playing from the group through inline mode (the table's "play here" button)
# The message a choice sends into the group: it names no card.
inline-play-message = ✋ { $player } ha scelto la sua mossa dal gruppo.
# The button above the results (it opens the private chat with the bot).
inline-play-choose = Scegli la tua mossa: le carte le vedi solo tu
inline-play-group-only = Si gioca dal gruppo della partita, col bottone «✋ Gioca qui» del tavolo.
inline-play-stale = Questa scelta era per una mossa già passata: non è cambiato nulla.
# $reason: why the choice was not played (one of the alerts)
inline-play-refused = ⚠️ { $player }: { $reason }

## Alerts (short, in a popup)
alert-hand = Le tue carte: { $cards }
alert-malformed = Questo bottone non è valido.
alert-stale = Questo bottone è scaduto: la partita è andata avanti.
alert-not-your-game = Non giochi a questo tavolo.
alert-not-your-turn = Non è il tuo turno.
alert-game-over = La partita è finita.
alert-illegal = Questa mossa non è permessa ora.
alert-unknown-game = Questa partita non c'è più.
alert-lobby-closed = Questo tavolo non accetta più cambi.
alert-already-seated = Hai già un posto a questo tavolo.
alert-team-full = Questa squadra è al completo.
alert-table-full = Il tavolo è al completo.
alert-creator-only = Solo { $creator } può farlo.
alert-not-seated = Non hai un posto a questo tavolo.
alert-rule-conflict = Questa regola non si può usare con questo tavolo.
alert-not-full = Il tavolo non è ancora al completo.
alert-cancel-who = Solo chi ha creato la partita o un amministratore del gruppo può annullarla.
alert-busy = In questo gruppo c'è già una partita.
alert-error = Qualcosa è andato storto; riprova.
alert-flood = Troppi tocchi tutti insieme: riprova tra qualche secondo.

## Private chat
start-welcome = Ciao! Sono { -bot-name }: ospito partite a Briscola, Cirulla e Belòta nei gruppi.
    Aggiungimi a un gruppo e scrivi /nuova per aprire un tavolo; chi vuole giocare preme «Siediti».
    Qui in privato ti mando le tue carte e i bottoni per giocare. /mano le rimanda.
start-group = Scrivimi in privato (@{ $bot }) per vedere le tue carte; qui nel gruppo usa /nuova.
start-join-closed = Quel tavolo non accetta più giocatori.
start-joined = Hai preso posto: { $game } nel gruppo <b>{ $group }</b>. Qui riceverai le tue carte.

cancel-none = Non c'è nessuna partita da annullare.

## Reasons the engine gives for refusing an action
illegal-not-your-turn = Non è il tuo turno.
illegal-card-not-in-hand = Non hai questa carta.
illegal-game-over = La partita è finita.
illegal-unknown-action = Questa mossa non esiste.

## Following a game: the turn's ping, the table brought down (/tavolo)
command-tavolo = riporta in fondo alla chat il tavolo della partita
hand-reminder = ⏳ Hai ancora { $seconds } secondi.
hand-moved = 🃏 Le tue carte sono più in basso.
table-unreachable = 📵 { $player } non riceve le carte in privato: gioca dal gruppo con «✋ Gioca qui».
table-moved = 🃏 Il tavolo è più in basso.
table-command-none = Non c'è nessuna partita aperta in questo gruppo. Per aprirne una: /nuova
table-command-private = Il tavolo è nel gruppo: scrivi /tavolo lì. Qui /mano ti rimanda le carte.
