# Glossary of dialect terms and sayings: /glossario, its buttons, inline answers.
# Placeholders holding user or data text ($term, $text, $query, ...) arrive HTML-escaped.

glossary-game = { $game ->
    [belota] Belòta
    [briscola] Briscola
   *[cirulla] Cirulla
 }
glossary-dialect-name = { $dialect ->
    [lij] ligure
    [egl] emiliano
   *[it] italiano
 }
glossary-dialect = Dialetto: { glossary-dialect-name }
glossary-kind = { $kind ->
    [saying] modo di dire
   *[term] termine
 }

glossary-entry-title = <b>{ $term }</b>
glossary-entry-subtitle = <i>{ glossary-game } · { glossary-kind } · { glossary-dialect }</i>
glossary-entry-aliases = Anche: { $aliases }
glossary-entry-meaning = <b>Significato:</b> { $text }
glossary-entry-literal = <b>Letteralmente:</b> «{ $text }»
glossary-entry-note = <b>Nota:</b> { $text }
glossary-entry-related = <b>Vedi anche:</b> { $terms }

glossary-results-title = Risultati per «{ $query }»:
glossary-results-more = …e { $count ->
    [one] un’altra voce
   *[other] altre { $count } voci
 }: scrivi qualcosa di più per restringere la ricerca.
glossary-no-results = Nessun risultato per «{ $query }».
glossary-did-you-mean = Forse cercavi: { $suggestions }
glossary-no-suggestions = Prova con un’altra parola, oppure sfoglia il glossario con /glossario.

glossary-browse-title = <b>Glossario</b>: termini e modi di dire dei nostri giochi, in dialetto e in italiano.
glossary-browse-hint = Scegli un gioco, oppure cerca un termine: <code>/glossario stròsa ad fèmna</code>
glossary-browse-game-title = <b>{ glossary-game }</b>: { $count } voci (pagina { $page } di { $pages })

glossary-button-game = { glossary-game } ({ $count })
glossary-button-prev = ‹ Indietro
glossary-button-next = Avanti ›
glossary-button-games = ↩ Tutti i giochi
glossary-button-back-game = ↩ { glossary-game }

glossary-inline-description = { glossary-game } · { glossary-dialect-name }: { $meaning }
glossary-stale-button = Questo pulsante non è più valido.
