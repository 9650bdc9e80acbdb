# Glossary of dialect terms and sayings: /glossary, its buttons, inline answers.
# Placeholders holding user or data text ($term, $text, $query, ...) arrive HTML-escaped.

glossary-game = { $game ->
    [belota] Belòta
    [briscola] Briscola
   *[cirulla] Cirulla
 }
glossary-dialect-name = { $dialect ->
    [lij] Ligurian
    [egl] Emilian
   *[it] Italian
 }
glossary-dialect = Dialect: { glossary-dialect-name }
glossary-kind = { $kind ->
    [saying] saying
   *[term] term
 }

glossary-entry-title = <b>{ $term }</b>
glossary-entry-subtitle = <i>{ glossary-game } · { glossary-kind } · { glossary-dialect }</i>
glossary-entry-aliases = Also: { $aliases }
glossary-entry-meaning = <b>Meaning:</b> { $text }
glossary-entry-literal = <b>Literally:</b> “{ $text }”
glossary-entry-note = <b>Note:</b> { $text }
glossary-entry-related = <b>See also:</b> { $terms }

glossary-results-title = Results for “{ $query }”:
glossary-results-more = …and { $count ->
    [one] one more entry
   *[other] { $count } more entries
 }: type a little more to narrow the search.
glossary-no-results = No results for “{ $query }”.
glossary-did-you-mean = Did you mean: { $suggestions }
glossary-no-suggestions = Try another word, or browse the glossary with /glossary.

glossary-browse-title = <b>Glossary</b>: the terms and sayings of our games, in dialect and in Italian.
glossary-browse-hint = Choose a game, or look a term up: <code>/glossary stròsa ad fèmna</code>
glossary-browse-game-title = <b>{ glossary-game }</b>: { $count } entries (page { $page } of { $pages })

glossary-button-game = { glossary-game } ({ $count })
glossary-button-prev = ‹ Back
glossary-button-next = Next ›
glossary-button-games = ↩ All games
glossary-button-back-game = ↩ { glossary-game }

glossary-inline-description = { glossary-game } · { glossary-dialect-name }: { $meaning }
glossary-stale-button = This button is no longer valid.
