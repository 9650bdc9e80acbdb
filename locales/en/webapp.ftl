# The table drawn as cards: the Mini App and the local table (python -m bot --local).

webapp-title = Tavolata
webapp-offline = Connection lost: retrying…
webapp-no-game = You have no seat in a game in progress. Open a table in the group with /new.
webapp-new-game = New game
# "New game" while a game is open: another one cancels it
webapp-new-game-ask = A game is in progress: starting another one cancels it.
webapp-new-game-other = Choose another game
webapp-back-to-game = Back to the game
webapp-play = Deal!
webapp-level = Level
webapp-game = Game
webapp-stock = Stock
webapp-last-trick = Last trick
webapp-last-play = Last play
webapp-trump = Trump
webapp-turned = Turned card
webapp-bergere = bergère
webapp-bergere-title = The last card of the pack, face up for all (la bergère)
webapp-face-up = out of play
webapp-face-up-title = The turned card, left face up out of play
webapp-choose-capture = What do you take?
webapp-cancel = Cancel
webapp-close = Close
webapp-you = You
webapp-dealer = Dealer
webapp-cards = cards
webapp-table-empty = Empty table
webapp-again = Another one!
webapp-your-turn = Your turn
webapp-unauthorized = Open the table from Telegram: the sign-in data is missing, forged or expired.
webapp-too-many = Too many tables open: close some.
webapp-local-player = Player
webapp-server-down = The table does not answer: the program has stopped or the network is down. Try again shortly.
webapp-cannot-play = This card cannot be played now.
# Belòta's word for the trump suit
webapp-atu = Trump
webapp-no-trump = No trump
webapp-result = Result
webapp-confirm = Confirm:
# What a seat said this deal, on its tag (Belòta)
webapp-said-pass = { $person ->
    [second] pass
   *[third] passes
}
webapp-said-take = { $person ->
    [second] take { $suit }
   *[third] takes { $suit }
}
webapp-said-sensa = sensa
webapp-said-contru = contru
# What a bid means, under its button
webapp-help-pass = you do not take
webapp-help-take = the turned suit is trump
webapp-help-sensa = no trump, points ×2
webapp-help-contru = against the sensa, points ×3
webapp-help-declare = your declarations, with your first card
webapp-help-knock = you declare your buona
# A computer player's short name on the table (its level is said once, in the header)
webapp-computer = Computer { $number }
webapp-computer-alone = Computer
webapp-local-table = Local table
# The button on the hand message and the link on the group's table that open the Mini App
btn-webapp = 🎴 Table
btn-webapp-group = 🎴 Open the table
