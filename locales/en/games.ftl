## Texts of the games' table, hand and result messages.

## Each game's own words (bot.games.base.game_terms; the Mini App uses them too)
term-briscola-trick = trick
term-briscola-deal = deal
term-briscola-series = deal
term-briscola-match = match
term-cirulla-round = round
term-cirulla-deal = deal
term-cirulla-match = game
term-belota-trick = trick
term-belota-deal = hand
term-belota-match = match
briscola-deal-name = deal { $deal }
cirulla-deal-name = deal { $deal }
belota-deal-name = hand { $deal }

## Briscola
briscola-trump-card = Briscola (trumps): { $card }
briscola-trump-suit = Briscola (trumps): { $suit }
briscola-removed = Out of the pack: { $card }
briscola-stock = { $count ->
    [0] The stock is empty.
    [one] In the stock: 1 card
   *[other] In the stock: { $count } cards
}
briscola-trick = On the table: { $cards }
briscola-last-trick = { $person ->
    [second] You took: { $cards } ({ $points } points)
   *[third] { $winner } took: { $cards } ({ $points } points)
}
briscola-points = Points: { $points }
briscola-partner-hand = Your partner's cards: { $cards }
briscola-raggi = Deals won (first to { $target }): { $scores }
briscola-deal-over = 🧮 <b>{ $series ->
    [1] End of the deal
   *[other] End of deal { $deal }
}</b>
briscola-deal-points = { $side }: { $points } points
briscola-deal-draw = Sixty all, { $series ->
    [1] a drawn game
   *[other] a drawn deal that counts for nobody
}: «J'em fat s'sànta e s'sànta» ("we made sixty and sixty").
briscola-deal-winner = { $person ->
    [second] { $series ->
        [1] You have the most points.
       *[other] You win the deal.
    }
    [second-plural] { $series ->
        [1] You have the most points.
       *[other] You win the deal.
    }
   *[third] { $series ->
        [1] { $count ->
            [one] { $winners } has the most points.
           *[other] { $winners } have the most points.
        }
       *[other] { $count ->
            [one] { $winners } wins the deal.
           *[other] { $winners } win the deal.
        }
    }
}
briscola-capot = «J'han ciapâ capòt» ("they took a capot"): not a single deal to the losers!
action-briscola-peek = 👀 Look at your partner's cards

rule-briscola-raggi = Deals to win
rule-briscola-partner_peek = Partner look
rule-briscola-silent_end = Silent last three tricks
rule-briscola-show_points = Points shown

illegal-peek-used = You already had your look at your partner's cards.
illegal-peek-not-now = It is not the time to look at your partner's cards.
illegal-peek-not-allowed = At this table partners don't look at each other's cards.

## Belòta
belota-dealer = { $person ->
    [second] You deal (u massé)
   *[third] Dealer (u massé): { $player }
}
belota-turned = Turned card (zirà): { $card }
belota-stage-first = First round: take the turned suit, call sensa, or pass.
belota-stage-second = Second round: name another trump suit, call sensa, or pass.
belota-stage-overturn = Anyone may now call sensa (mandà sensa), overturning the trump (double points).
belota-stage-contru = The opponents may answer contru (triple points).
belota-stage-contru-one = The opponent may answer contru (triple points).
belota-bergere = Last card of the pack, face up (la bergère): { $card }
belota-face-up = Turned card, out of play: { $card }
belota-face-up-exchanged = { $person ->
    [second] Out of play: { $card }, which you exchanged for the turned card
   *[third] Out of play: { $card }, exchanged by { $player } for the turned card
}
belota-bid-exchange = Exchange { $seven } for { $card }
belota-bids = Bids: { $bids }
belota-said-pass = { $person ->
    [second] pass
   *[third] passes
}
belota-said-take = { $person ->
    [second] take { $suit }
   *[third] takes { $suit }
}
belota-said-trump = { $person ->
    [second] name trump { $suit }
   *[third] names trump { $suit }
}
belota-said-sensa = { $person ->
    [second] call sensa
   *[third] calls sensa
}
belota-said-contru = { $person ->
    [second] answer contru
   *[third] answers contru
}
belota-bid-pass = Pass (passà)
belota-bid-take = Take { $suit } (mandà)
belota-bid-trump = Trump { $suit }
belota-bid-sensa = Sensa (×2)
belota-bid-contru = Contru (×3)
belota-bid-declare = 📣 Declare (l'acüsu)
belota-contract-trump = { $person ->
    [second] Trump (l'atù): { $suit }, taken by you
    [second-plural] Trump (l'atù): { $suit }, taken by your partner { $taker }
   *[third] Trump (l'atù): { $suit }, taken by { $taker } ({ $team })
}
belota-contract-sensa = { $person ->
    [second] Sensa, called by you: double points
    [second-plural] Sensa, called by your partner { $declarer }: double points
   *[third] Sensa, called by { $declarer } ({ $team }): double points
}
belota-contract-contru = { $person ->
    [second] Your sensa, with contru: triple points
    [second-plural] Sensa by your partner { $declarer }, with contru: triple points
   *[third] Sensa by { $declarer } ({ $team }) with contru: triple points
}
belota-contract-trump-solo = { $person ->
    [second] Trump (l'atù): { $suit }, taken by you
   *[third] Trump (l'atù): { $suit }, taken by { $taker }
}
belota-contract-sensa-solo = { $person ->
    [second] Sensa, called by you: double points
   *[third] Sensa, called by { $declarer }: double points
}
belota-contract-contru-solo = { $person ->
    [second] Your sensa, with contru: triple points
   *[third] Sensa by { $declarer } with contru: triple points
}
belota-declared = { $person ->
    [second] You declare: { $declarations }
   *[third] { $player } declares: { $declarations }
}
belota-declarations-count = { $person ->
    [second] Your declarations count: { $points } points
    [second-plural] Your team's declarations count: { $points } points
   *[third] { $team }'s declarations count: { $points } points
}
belota-declarations-count-trump = { $person ->
    [second] Your trump declaration counts («l'è bon u mei», "the best is good"): { $points } points
    [second-plural] Your team's trump declaration counts («l'è bon u mei», "the best is good"): { $points } points
   *[third] { $team }'s trump declaration counts («l'è bon u mei», "the best is good"): { $points } points
}
belota-belota = { $player }: «Belòta!»
belota-rebelota = { $player }: «Rebelòta!» (20 points)
belota-trick = On the table: { $cards }
belota-last-trick = { $person ->
    [second] You took: { $cards } ({ $points } points)
   *[third] { $winner } took: { $cards } ({ $points } points)
}
belota-litigiu-pending = Litigiu: { $points } points frozen for whoever wins the next hand
belota-scores = Points (first to { NUMBER($target, useGrouping: 0) }): { $scores }
belota-decl-tersa = térsa (three in a row)
belota-decl-cincanta = çincànta (four in a row)
belota-decl-centu = çéntu (five in a row)
belota-decl-curu = cuřù (a whole suit)
belota-decl-carre = { $rank ->
    [J] carré de valé (four jacks)
    [9] carré de catòrze (four nines)
   *[other] carré (four of a kind)
}
belota-annulled = 🔄 Hand { $deal }: everybody passed twice; the hand is void and dealt again.
belota-sheet-title = 🧮 <b>Hand { $deal }: the score (marcà)</b>
belota-sheet-team = { $team }: { $items } = <b>{ $total }</b>
belota-item = { $item } { $points }
belota-item-multiplied = { $item } { $base } → { $points }
belota-item-cards = cards
belota-item-last-trick = last trick
belota-item-capotto = cappotto (every trick)
belota-item-declarations = declarations
belota-item-belota = belòta
belota-result-made = The contract is made: each team scores its own points.
belota-result-failed = { $dedans ->
    [true] The contract failed ("dedans"): the defenders score all the points.
   *[other] The contract failed: each team scores its own points.
}
belota-result-litigiu = Litigiu: a tie! The defenders score their points; the contract team's are frozen.
belota-result-made-solo = { $person ->
    [second] Your contract is made: each player scores his own points.
   *[third] { $taker }'s contract is made: each player scores his own points.
}
belota-result-failed-solo = { $person ->
    [second] Your contract failed: each player scores his own points.
   *[third] { $taker }'s contract failed: each player scores his own points.
}
belota-result-failed-to = { $person ->
    [second] Your contract failed: your points go { $count ->
        [one] to { $to }
       *[other] half each to { $to }
    }.
    [gainer] The contract failed: { $taker }'s points go { $count ->
        [one] to you
       *[other] half each to you and { $to }
    }.
   *[third] The contract failed: { $taker }'s points go { $count ->
        [one] to { $to }
       *[other] half each to { $to }
    }.
}
belota-result-litigiu-solo = { $person ->
    [second] Litigiu: a tie! The others score their points; yours are frozen.
   *[third] Litigiu: a tie! The others score their points; { $taker }'s are frozen.
}
belota-litigiu-won = { $person ->
    [second] You win the litigiu: +{ $points }
    [second-plural] You win the litigiu: +{ $points }
   *[third] { $team } wins the litigiu: +{ $points }
}
belota-sheet-points = Scored: { $points }

rule-belota-target = Points to win
rule-belota-curu_points = Value of the cuřù
rule-belota-dedans = Failed contract: all to the defenders
rule-belota-multiply_declarations = Sensa and contru multiply declarations
rule-belota-carta_girata = Turned card
rule-belota-carta_girata-taker = to the taker
rule-belota-carta_girata-table = stays on the table
rule-belota-mazzo_3 = Pack for three
rule-belota-mazzo_3-32 = 32 cards
rule-belota-mazzo_3-24 = 24 cards, no 7s or 8s
rule-belota-contratto_3 = Contract for three
rule-belota-contratto_3-each = beat each opponent
rule-belota-contratto_3-both = beat both opponents together

illegal-bid-not-allowed = You can't bid that now.
illegal-bidding-not-over = The bidding is not over yet.
illegal-must-follow-suit = You must follow suit (respùnde).
illegal-must-trump = You must play a trump.
illegal-must-overtrump = You must beat the trump on the table.
illegal-declarations-closed = Declarations come with your first card.
illegal-already-declared = You already declared.
illegal-nothing-to-declare = You have nothing to declare.
illegal-exchange-not-allowed = Only the holder of the trump 7 may exchange it for the turned card, before his first card.

## Cirulla
cirulla-turn-of-deal = { $person ->
    [second] You deal · round { $turn } of { $turns }
   *[third] Dealer: { $dealer } · round { $turn } of { $turns }
}
cirulla-table = On the table: { $cards }
cirulla-table-empty = The table is empty.
cirulla-laid = { $person ->
    [second] You lay { $card }
   *[third] { $player } lays { $card }
}
cirulla-captured = { $person ->
    [second] You play { $card } and take { $cards }
   *[third] { $player } plays { $card } and takes { $cards }
}
cirulla-scopa = { $person ->
    [second] 🧹 You made a scopa!
   *[third] 🧹 Scopa for { $player }!
}
cirulla-scopa-ace = { $person ->
    [second] 🧹 The ace takes all: you made a scopa!
   *[third] 🧹 The ace takes all: scopa for { $player }!
}
cirulla-table-taken = { $person ->
    [second] The cards left on the table go to you: { $cards }
    [second-plural] The cards left on the table go to your team: { $cards }
   *[third] The cards left on the table go to { $side }: { $cards }
}
cirulla-table-capture = { $person ->
    [second] As the dealer you take the table adding up to { $total }: { $points ->
        [one] 1 point
       *[other] { $points } points
    }
   *[third] { $player } (dealer) takes the table adding up to { $total }: { $points ->
        [one] 1 point
       *[other] { $points } points
    }
}
cirulla-buona = { $person ->
    [second] ✊ You knock: { $buona } ({ $points } points) with { $cards }
   *[third] ✊ { $player } knocks: { $buona } ({ $points } points) with { $cards }
}
cirulla-buona-beaten = { $person ->
    [second] You call { $buona } with { $cards }, but there is better
   *[third] { $player } calls { $buona } with { $cards }, but there is better
}
cirulla-buona-cirulla = cirulla
cirulla-buona-misci = cirulla dei misci, without an ace
cirulla-buona-decino = decino
cirulla-buona-scala-alta = scala alta
cirulla-matta-value = The matta is worth { $value } until the next cards are dealt.
cirulla-knock = ✊ Knock (I have a buona)
cirulla-capture = { $card } → { $cards }
cirulla-capture-all = { $card } → the whole table
cirulla-scores = Points (first to { $target }): { $scores }
cirulla-count-title = 🧮 <b>End of deal { $deal }: the count</b>
cirulla-count-side = { $side }: { $items } = <b>{ $total }</b>
cirulla-item = { $item } { $points }
cirulla-item-counted = { $item } { $points } ({ $count })
cirulla-item-settebello = settebello
cirulla-item-denari = diamonds
cirulla-item-carte = cards
cirulla-item-primiera = primiera
cirulla-item-grande = grande
cirulla-item-piccola = piccola
cirulla-item-scope = scopas
cirulla-item-table = fifteen on the table
cirulla-item-cirulla = cirullas
cirulla-item-decino = decinos
cirulla-item-scala-alta = scala alta
cirulla-void-aces = { $person ->
    [second] 🔄 Deal { $deal }: two aces on the table ({ $cards }); the deal is void and you deal again.
   *[third] 🔄 Deal { $deal }: two aces on the table ({ $cards }); the deal is void and { $dealer } deals again.
}
cirulla-void-equal-cards = { $person ->
    [second] 🔄 Deal { $deal }: three equal cards on the table ({ $cards }); the deal is void and you deal again.
   *[third] 🔄 Deal { $deal }: three equal cards on the table ({ $cards }); the deal is void and { $dealer } deals again.
}
cirulla-partitone-diamonds = { $person ->
    [second] 💎 Partitone! You took all the diamonds and win the game.
    [second-plural] 💎 Partitone! Your team took all the diamonds and wins the game.
   *[third] 💎 Partitone! { $side } took all the diamonds and wins the game.
}
cirulla-partitone-four-equal = { $person ->
    [second] 💎 Partitone! Four equal cards on the table: you win the game.
    [second-plural] 💎 Partitone! Four equal cards on the table: your team wins the game.
   *[third] 💎 Partitone! Four equal cards on the table: { $side } wins the game.
}
cirulla-three-voids = Three void deals in a row: the dealer loses the game.

rule-cirulla-target = Points to win
rule-cirulla-aces_void = Two aces on the table: void deal
rule-cirulla-three_voids_lose = Three void deals: the dealer loses
rule-cirulla-equal_cards_void = Three equal table cards: void deal
rule-cirulla-triple_aces = Three aces are worth
rule-cirulla-decino_plus_values = Decino plus the cards' values
rule-cirulla-ace_takes_all_always = The ace always takes all
rule-cirulla-matta_keeps_value = The matta keeps its value on the table
rule-cirulla-matta_for_dealer = Free matta for the dealer's 15/30
rule-cirulla-grande_25 = Grande worth 25
rule-cirulla-scala_alta = Scala alta (J Q K of diamonds)
rule-cirulla-matta_card = The matta is
rule-cirulla-four_equal_partitone = Four equal table cards: partitone
rule-cirulla-pairs_contest = Buone in pairs: only the best counts
rule-cirulla-cirullone = Cirullone (6 cards, to 101)

illegal-must-capture = With this card you must capture.
illegal-no-such-capture = That capture is not possible.
illegal-not-on-table = That card is not on the table.
illegal-knock-too-late = You knock before playing the first card of the round.
illegal-already-knocked = You already knocked.
illegal-no-buona = You have no buona to declare.
illegal-knock-not-in-use = At this table buone are called by themselves.

## Briscola's sayings (Emilian, from the source)
briscola-saying-futu = { $person ->
    [second] «Chi fa dù armàgn futù» ("who makes two is done for"): two points in the first trick, you will lose the deal!
   *[third] «Chi fa dù armàgn futù» ("who makes two is done for"): two points in the first trick, { $player } will lose the deal!
}
briscola-saying-nada = { $person ->
    [second] «Questa ché l'è nada un dé prìma» ("this one was born a day earlier"): you take with a briscola just one step higher.
   *[third] «Questa ché l'è nada un dé prìma» ("this one was born a day earlier"): { $player } takes with a briscola just one step higher.
}
briscola-saying-masc = { $person ->
    [second] «Stròsa ed màs'c» ("a male strangle"): you take the opponent's card with the ace of its suit.
   *[third] «Stròsa ed màs'c» ("a male strangle"): { $player } takes the opponent's card with the ace of its suit.
}
briscola-saying-femna = { $person ->
    [second] «Stròsa ad fèmna» ("a female strangle"): you take the opponent's card with the three of its suit.
   *[third] «Stròsa ad fèmna» ("a female strangle"): { $player } takes the opponent's card with the three of its suit.
}

## Belòta's bidding in the hand message
belota-word = { $player } to speak.
