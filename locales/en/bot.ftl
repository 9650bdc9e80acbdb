## The bot's own texts: lobby, table and hand messages, alerts, commands.

-bot-name = Tavolata

## Lists and names
pair = { $a } and { $b }
list-and = { $head } and { $last }
# The reader's own name in a line about them (a list, a label), alone and with their partner
you = You
you-pair = You

## Court cards, by the pack's faces: the letter each rank shows (the engine's J, Q, K).
# Italian cards in English: jack, knight, king (J, Kn, K), the figures the cards show.
rank-italian-J = J
rank-italian-Q = Kn
rank-italian-K = K
rank-french-J = J
rank-french-Q = Q
rank-french-K = K

## Suits, by the pack's faces
suit-italian-H = cups { $symbol }
suit-italian-D = coins { $symbol }
suit-italian-C = clubs { $symbol }
suit-italian-S = swords { $symbol }
suit-french-H = hearts { $symbol }
suit-french-D = diamonds { $symbol }
suit-french-C = clubs { $symbol }
suit-french-S = spades { $symbol }

## Games
game-briscola = Briscola
game-cirulla = Cirulla
game-belota = Belòta
game-option = { $game } · { $players } players
game-option-pairs = { $game } · 4 players, in pairs

## Commands (the menu of commands)
command-nuova = open a new game in the group
command-mano = send your cards again in private
command-annulla = cancel the group's game

## /nuova
new-group-only = Games are played in groups: add me to a group and type /new there.
# The command as this language types it (its alias)
new-command = /new
new-unknown-game = I don't know that game. Try: { $options }
new-busy = This group already has a game. Its creator or an admin can cancel it with /cancel. A group with topics can hold one table in each topic.
new-busy-topic = This topic already has a game. Its creator or an admin can cancel it with /cancel; for another table, type /new in another topic.
new-busy-general = There is already a game here. Its creator or an admin can cancel it with /cancel; for another table, type /new in one of the group's topics.

## Lobby
lobby-choose = 🃏 <b>New game</b>
    { $creator } chooses the game:
lobby-choose-count = 🃏 <b>New game of { $game }</b>
    { $creator } chooses how many will play:
lobby-title = 🃏 <b>{ $title }</b>
lobby-creator = Created by { $creator }
lobby-team = Team { $team }: { $a }, { $b }
lobby-players = Players: { $players }
lobby-rules = House rules: { $rules }
lobby-rules-standard = Standard rules.
lobby-how-to-join = Press «Sit down» to play: your cards come in private, so you need a chat with me (the button opens it, then press Start).
lobby-full = The table is full: you can begin!
lobby-no-game = New game
lobby-cancelled = 🃏 { $title }: game cancelled.

btn-join = 🪑 Sit down
btn-join-team = 🪑 Sit in team { $team }
btn-leave = 🚶 Stand up
btn-rules = ⚙️ Rules
btn-rules-done = ✅ Done
btn-start = ▶️ Begin
btn-cancel = ✖️ Cancel
btn-show-hand = 🂠 My cards
btn-play-inline = ✋ Play here
btn-rematch = 🔁 Rematch

rule-on = yes
rule-off = no

toast-seated = You sat down at the table.
toast-left = You left the table.
toast-cancelled = Game cancelled.

## Table message (in the group)
# $deal: the deal in the game's own word ("hand 2")
table-title = 🃏 <b>{ $title }</b> · { $deal }
table-title-single = 🃏 <b>{ $title }</b>
table-turn = { $person ->
    [second] 👉 Your turn
   *[third] 👉 It's { $player }'s turn
}
table-over = 🏁 Game over.
table-cancelled = ✖️ Game cancelled.

## Hand message (in private)
hand-title = 🃏 <b>{ $group }</b> · { $title }
hand-cards = Your cards: { $cards }
hand-your-turn = 👉 Your turn!
hand-your-turn-table = 👉 Your turn: choose on the table message, in the group.
hand-wait = Wait for your turn.
hand-none = You are not playing any game.
hand-open-private = I can't write to you in private: open the chat with me and press Start: { $link }

## Announcements
game-winners = { $person ->
    [second] 🏆 You win!
    [second-plural] 🏆 You win!
   *[third] { $count ->
        [one] 🏆 { $winners } wins!
       *[other] 🏆 { $winners } win!
    }
}
game-draw = 🤝 The game ends in a draw.
deal-forced-plays = 🤖 Nobody had a choice left: the bot played the last cards.

## Notices in the group
notice-private-closed = ⚠️ I can't send { $player } their cards: open the chat with { $bot } and press Start (or unblock the bot), and the game goes on from where it was. Meanwhile they can play from the group with the table's «✋ Play here» button: only the player sees their cards.

## Playing from the group through inline mode (the table's "play here" button)
# The message a choice sends into the group: it names no card.
inline-play-message = ✋ { $player } chose their move from the group.
# The button above the results (it opens the private chat with the bot).
inline-play-choose = Choose your move: only you see your cards
inline-play-group-only = Play from the game's group, with the table's «✋ Play here» button.
inline-play-stale = That choice was for a move already past: nothing changed.
# $reason: why the choice was not played (one of the alerts)
inline-play-refused = ⚠️ { $player }: { $reason }

## Alerts (short, in a popup)
alert-hand = Your cards: { $cards }
alert-malformed = This button is not valid.
alert-stale = This button has expired: the game has moved on.
alert-not-your-game = You are not sitting at this table.
alert-not-your-turn = It is not your turn.
alert-game-over = The game is over.
alert-illegal = That move is not allowed now.
alert-unknown-game = This game is gone.
alert-lobby-closed = This table takes no more changes.
alert-already-seated = You are already sitting here.
alert-team-full = This team is full.
alert-table-full = The table is full.
alert-creator-only = Only { $creator } can do that.
alert-not-seated = You are not sitting at this table.
alert-rule-conflict = That rule can't be used at this table.
alert-not-full = The table is not full yet.
alert-cancel-who = Only the game's creator or a group admin can cancel it.
alert-busy = This group already has a game.
alert-error = Something went wrong; please try again.
alert-flood = Too many presses at once: try again in a few seconds.

## Private chat
start-welcome = Hi! I'm { -bot-name }: I host games of Briscola, Cirulla and Belòta in groups.
    Add me to a group and type /new to open a table; whoever wants to play presses «Sit down».
    Here in private I send you your cards and the buttons to play. /hand sends them again.
start-group = Write to me in private (@{ $bot }) to see your cards; here in the group use /new.
start-join-closed = That table takes no more players.
start-joined = You sat down: { $game } in the group <b>{ $group }</b>. Your cards will come here.

cancel-none = There is no game to cancel.

## Reasons the engine gives for refusing an action
illegal-not-your-turn = It is not your turn.
illegal-card-not-in-hand = You don't hold that card.
illegal-game-over = The game is over.
illegal-unknown-action = That move does not exist.

## Following a game: the turn's ping, the table brought down (/table)
command-tavolo = bring the game's table down to the end of the chat
hand-reminder = ⏳ You have { $seconds } seconds left.
hand-moved = 🃏 Your cards are further down.
table-unreachable = 📵 { $player } gets no cards in private: play from the group with «✋ Play here».
table-moved = 🃏 The table is further down.
table-command-none = No game is open in this group. To open one: /new
table-command-private = The table is in the group: send /table there. Here /hand sends your cards again.
