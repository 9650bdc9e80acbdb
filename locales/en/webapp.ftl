# The table drawn as cards: the Mini App and the local table (python -m bot --local).

webapp-title = Tavolata
webapp-offline = Connection lost: retrying…
webapp-no-game = You have no seat in a game in progress. Open a table in the group with /new.
webapp-new-game = New game
webapp-play = Deal!
webapp-level = Computer
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
webapp-cards = taken
webapp-table-empty = Empty table
webapp-again = Another one!
webapp-your-turn = 👉 Your turn
webapp-unauthorized = Open the table from Telegram: the sign-in data is missing, forged or expired.
webapp-too-many = Too many tables open: close some.
webapp-local-player = Player
webapp-local-table = Local table
# The button on the hand message and the link on the group's table that open the Mini App
btn-webapp = 🎴 Table
btn-webapp-group = 🎴 Open the table
