# /rules: a short summary of each game and the house rules in force for the group.
# Each house rule has one message, rules-<game>-<rule name with - for _>, with its value in $value
# (house rules that are switched on or off arrive as "on" / "off"). A rule whose value is a word or
# a code also gets $choice, usable as a variant key: "v" and the value in lowercase ("7H" -> v7h).

rules-game = { $game ->
    [belota] Belòta
    [briscola] Briscola
   *[cirulla] Cirulla
 }
rules-choose = Which game’s rules would you like?
rules-unknown-game = I don’t know the game “{ $game }”: choose Belòta, Briscola or Cirulla.
rules-house-title = <b>House rules in force</b> (where they differ, these apply)
rules-on = yes
rules-off = no

rules-summary-briscola =
    <b>Briscola</b>
    A 40-card Italian pack. Two players, three (each for themselves, with one two that is not of the trump suit taken out) or four in pairs, partners sitting opposite.

    • The dealer gives 3 cards each, one at a time, starting with the player on the right, and turns up one card under the stock: its suit is the <b>briscola</b> (trump), and it will be the last card drawn.
    • The player on the dealer’s right leads, then play goes counter-clockwise. Nobody has to follow suit or play a briscola.
    • The highest briscola takes the trick; with no briscola, the highest card of the suit led. The winner draws first, then the others, and leads the next trick. When the stock is gone the last three cards are played out.
    • Taking order: ace, three, king, knight, jack, 7, 6, 5, 4, 2. On the bot’s cards: J jack, Kn knight, K king.
    • Points: ace 11, three 10, king 4, knight 3, jack 2, other cards nothing: 120 in all.
    • The 40 cards make a deal, won with 61 points or more; 60–60 is a draw. With three players the highest total wins. In a match of several deals each deal is a <i>raggio</i>.

rules-summary-cirulla =
    <b>Cirulla</b> (ciappachinze)
    A 40-card French pack: the ace counts 1, then 2 to 7, jack (J) 8, queen (Q) 9, king (K) 10. Two players, or four in pairs; partners may not talk or signal.

    • Each turn the dealer gives 3 cards each; on the first turn of a deal 4 cards are also laid face up on the table. Two or more aces among them: the deal is void. If they add up to 15 or 30, the dealer takes them and scores 1 or 2.
    • The card played takes a card of the same value (or, if there is none, several cards adding up to it), or cards that make 15 with it. An ace takes the whole table if no ace is on it. If you can capture, you must; otherwise the card stays on the table.
    • Clearing the table is a <b>scopa</b>, 1 point, but never with the last card of the deal. Cards left over go to whoever captured last.
    • Buone, declared by knocking before playing the first card of a round: <b>cirulla</b> (total 9 or less) 3 points; <b>decino</b> (three equal cards) 10, three aces 30. The <b>matta</b> (normally the 7 of hearts) counts anything from 1 to 10, but only to make a buona.
    • At the end of a deal: settebello 1, denari (6 or more diamonds) 1, carte (21 cards or more) 1, primiera 1, grande (jack, queen and king of diamonds) 5, piccola (ace, 2 and 3 of diamonds) 3 plus 1 for each following diamond in sequence up to the 6.
    • Whoever takes all ten diamonds makes the <b>partitone</b> and wins at once. Otherwise, at the end of a deal, whoever has reached the target wins; if both have, the higher score wins, and on a tie another deal is played.

rules-summary-belota =
    <b>Belòta</b> (the belote of Ventimiglia)
    A 32-card French pack, 7 to ace (jack J, queen Q, king K); four players in pairs, partners sitting opposite; or two or three, each for himself.

    • The dealer (u massé) gives 3 and then 2 cards each, starting on the right; the 21st card is turned up (zirà) and proposes the trump.
    • First round: accept the turned suit (mandà), bid sensa (no trumps) or pass. Second round: you may name another suit. If all pass twice, the cards are dealt again. Once trump is fixed, the others may still bid sensa (double score), and the opponents may answer a sensa with contru (triple score). Then the rest is served, up to 8 cards each.
    • You must follow suit. If you cannot, you must trump, beating the trump on the table if able, unless your partner is already winning the trick. When trumps are led you must always beat.
    • Trumps: jack (valé) 20, nine (catòrze) 14, ace 11, ten (manéglia) 10, king 4, queen 3, 8 and 7 nothing. Other suits and sensa: ace 11, ten 10, king 4, queen 3, jack 2. Last trick 10; all the tricks (capot) 100.
    • Declarations, with your first card: térsa 20, çincànta 50, çéntu 100, carré 100 (nines 150, jacks 200), cuřù. Only the pair with the best declaration scores. The belòta (king and queen of trumps) is worth 20 and is never cancelled.
    • The pair that fixed the contract must score more than the opponents; a tie is <i>litigiu</i>: the points held back go to whoever wins the next hand. The first pair to reach the target wins.

    • <b>For two or three</b> each for himself: 3 and 3 cards each, then the next card is turned; the taker gets it and 2 more, the others 3 more: 9 cards each. The pack’s last card is shown to all (la bergère). With no partner, a player who cannot follow suit must trump if he can. The best declaration counts only for its holder. With three the taker must beat each opponent; if he fails, his points go to the opponent who scored more.

rules-briscola-raggi = <b>Raggi</b>: { $value ->
    [1] one, a single deal makes the match
   *[other] { $value }, the first to win { $value } deals wins (draws count for nobody)
 }
rules-briscola-partner-peek = <b>Partner’s look</b>: { $value ->
    [on] yes, with four players, from halfway through the stock each may look once at the partner’s hand
   *[off] no
 }
rules-briscola-silent-end = <b>Silent ending</b>: { $value ->
    [on] yes, no look at the partner’s hand during the last three tricks
   *[off] no, the look is allowed in the last three tricks too
 }
rules-briscola-show-points = <b>Points on show</b>: { $value ->
    [on] yes, each side’s running points are always visible
   *[off] no, tricks stay face down until the count
 }

rules-cirulla-target = <b>Target</b>: { $value } points
rules-cirulla-aces-void = <b>Two aces on the table</b>: { $value ->
    [on] the deal is void
   *[off] play on
 }
rules-cirulla-three-voids-lose = <b>Three void deals in a row</b>: { $value ->
    [on] the dealer loses the game
   *[off] no penalty
 }
rules-cirulla-equal-cards-void = <b>Three equal cards on the table</b>: { $value ->
    [on] the deal is void
   *[off] play on
 }
rules-cirulla-triple-aces = <b>Decino of three aces</b>: { $value } points
rules-cirulla-decino-plus-values = <b>Decino plus values</b>: { $value ->
    [on] yes, a decino of aces, twos or threes scores 10 plus the cards’ values (13, 16, 19)
   *[off] no
 }
rules-cirulla-ace-takes-all-always = <b>Ace always takes all</b>: { $value ->
    [on] yes, even with an ace on the table
   *[off] no, with an ace on the table the ace takes that ace
 }
rules-cirulla-matta-keeps-value = <b>Matta keeps its value</b>: { $value ->
    [on] yes, once laid on the table it keeps its declared value for the whole game
   *[off] no, it is a seven again at the next deal of cards
 }
rules-cirulla-matta-for-dealer = <b>Matta for the dealer</b>: { $value ->
    [on] yes, the dealer may give it any value for the 15 or 30 on the table
   *[off] no
 }
rules-cirulla-grande-25 = <b>Grande</b>: { $value ->
    [on] 25 points
   *[off] 5 points
 }
rules-cirulla-scala-alta = <b>Scala alta</b>: { $value ->
    [on] yes, jack, queen and king of diamonds in one hand are a buona worth as much as the grande
   *[off] no
 }
rules-cirulla-matta-card = <b>The matta</b>: { $choice ->
    [v7d] the seven of diamonds
    [vqh] the queen of hearts
   *[v7h] the seven of hearts
 }
rules-cirulla-four-equal-partitone = <b>Four equal cards on the table</b>: { $value ->
    [on] the dealer makes the partitone and wins
   *[off] no effect
 }
rules-cirulla-pairs-contest = <b>Buone in pairs</b>: { $value ->
    [on] yes, announced on receipt and shown before the right-hand opponent plays; only the best of the turn counts
   *[off] no
 }
rules-cirulla-cirullone = <b>Cirullone</b>: { $value ->
    [on] yes, six cards each on the first turn, buone may combine, target 101
   *[off] no
 }

rules-belota-target = <b>Target</b>: { $value } points
rules-belota-curu-points = <b>Cuřù</b>: { $value } points
rules-belota-dedans = <b>Failed contract</b>: { $value ->
    [on] all the points go to the opponents
   *[off] each side (pair or player) keeps its own points
 }
rules-belota-multiply-declarations = <b>Declarations in sensa and contru</b>: { $value ->
    [on] doubled or tripled like the cards
   *[off] at their normal value
 }
rules-belota-carta-girata = <b>Turned card, for two and three</b>: { $choice ->
    [vtable] stays face up on the table, out of play, and everybody gets 3 more cards; before the first lead the holder of the trump 7 may exchange it for the turned card, if that is a trump
   *[vtaker] the taker gets it, with 2 more cards
 }
rules-belota-mazzo-3 = <b>Pack for three</b>: { $value ->
    [24] 24 cards, no 7s or 8s: dealt 3 and 2, the 16th card turned, 8 cards and 8 tricks each, no cuřù
   *[other] 32 cards, 9 each
 }
rules-belota-contratto-3 = <b>Contract for three</b>: { $choice ->
    [vboth] the contract player must score more than both opponents together
   *[veach] the contract player must score more than each opponent
 }
