# Turn timers, absent players, tables that close themselves.

command-tempo = mostra o cambia il tempo per ogni turno

# $seconds: the turn timer in seconds (0: none)
timer-choice = { $seconds ->
    [0] nessun limite
    [30] 30 secondi
    [60] 1 minuto
    [120] 2 minuti
    [300] 5 minuti
   *[other] { $seconds } secondi
}
timer-current = ⏱️ Tempo per turno: { timer-choice }. Per cambiarlo, mentre il tavolo è aperto: /tempo off, /tempo 30s, /tempo 1m, /tempo 2m o /tempo 5m.
timer-set = ⏱️ Tempo per turno: { timer-choice }.
# The lobby's line and its button (the button moves to the next choice).
lobby-timer = ⏱️ Tempo per turno: { timer-choice }.
btn-timer = ⏱️ Tempo: { timer-choice }
timer-bad-choice = Scegli tra: off, 30s, 1m, 2m, 5m (per esempio /tempo 2m).
timer-during-game = Il tempo per turno si cambia prima di cominciare la partita.
timer-who = Solo chi ha aperto il tavolo o un amministratore del gruppo può cambiare il tempo per turno.
timer-group-only = Il tempo per turno si sceglie in un gruppo.
timer-reminder-group = ⏳ { $player }, tocca a te: hai ancora { $seconds } secondi.
timer-expired = ⌛ { $player } ha finito il tempo: per questo turno gioca il computer.
timer-takeover = 🤖 { $player } ha finito il tempo tre volte di fila: il computer gioca al suo posto finché non torna.
btn-timer-back = 🙋 Eccomi, gioco io
timer-back = 🙋 { $player } torna a giocare.
toast-timer-back = Di nuovo al tavolo!
alert-timer-back-who = Questo posto non è tuo.
timer-lobby-expired = 🕰️ Tavolo chiuso: nessuno l'ha fatto cominciare in { $minutes } minuti. Per aprirne un altro: /nuova
timer-idle-closed = 🕰️ Partita chiusa: nessuna mossa da { $days } giorni.
