## Texts of the games' table, hand and result messages.

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
briscola-last-trick = { $winner } took: { $cards } ({ $points } points)
briscola-points = Points: { $points }
briscola-partner-hand = Your partner's cards: { $cards }
briscola-raggi = Deals won (first to { $target }): { $scores }
briscola-deal-over = 🧮 <b>End of deal { $deal }</b>
briscola-deal-points = { $side }: { $points } points
briscola-deal-draw = Sixty all, a drawn deal: «J'em fat s'sànta e s'sànta» ("we made sixty and sixty").
briscola-deal-winner = { $count ->
    [one] { $winners } wins the deal.
   *[other] { $winners } win the deal.
}
briscola-capot = «J'han ciapâ capòt» ("they took a capot"): not a single deal to the losers!
action-briscola-peek = 👀 Look at your partner's cards

rule-briscola-raggi = Deals to win
rule-briscola-partner_peek = Partner look
rule-briscola-silent_end = Silent last three tricks
rule-briscola-show_points = Points shown

illegal-peek-used = You already looked at your partner's cards this deal.
illegal-peek-not-now = It is not the time to look at your partner's cards.
illegal-peek-not-allowed = At this table partners don't look at each other's cards.
