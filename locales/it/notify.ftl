# La chiamata per la prossima partita: /avvisami in un gruppo o in un argomento.

command-avvisami = avvisami in privato quando si apre un tavolo qui
call-on = 🔔 { $player }, ti scriverò in privato quando si apre un tavolo qui (al massimo una volta all'ora). Per smettere: /avvisami off
call-open-private = Prima apri la chat con me e premi Avvia, altrimenti non posso scriverti: { $link }
call-off = 🔕 { $player }, non ti avviserò più dei tavoli che si aprono qui.
call-usage = Scrivi /avvisami per essere avvisato quando si apre un tavolo qui, /avvisami off per smettere.
call-group-only = Scrivi /avvisami nel gruppo (o nell'argomento) dove vuoi essere avvisato.
# Il messaggio privato: $game è "Briscola · 2 giocatori", $group il nome del gruppo.
call-table-open = 🔔 Si è aperto un tavolo: <b>{ $game }</b> nel gruppo <b>{ $group }</b>, aperto da { $creator }. Premi il bottone per sederti.
btn-call-sit = 🪑 Siediti
