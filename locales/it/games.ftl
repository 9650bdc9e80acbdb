## Texts of the games' table, hand and result messages.

## Briscola
briscola-trump-card = Briscola: { $card }
briscola-trump-suit = Briscola: { $suit }
briscola-removed = Fuori dal mazzo: { $card }
briscola-stock = { $count ->
    [0] Il mazzo è finito.
    [one] Nel mazzo: 1 carta
   *[other] Nel mazzo: { $count } carte
}
briscola-trick = In tavola: { $cards }
briscola-last-trick = Presa di { $winner }: { $cards } ({ $points } punti)
briscola-points = Punti: { $points }
briscola-partner-hand = Carte del compagno: { $cards }
briscola-raggi = Raggi (si vince a { $target }): { $scores }
briscola-deal-over = 🧮 <b>Fine della mano { $deal }</b>
briscola-deal-points = { $side }: { $points } punti
briscola-deal-draw = Sessanta a sessanta, mano pari: «J'em fat s'sànta e s'sànta».
briscola-deal-winner = { $count ->
    [one] Vince la mano { $winners }.
   *[other] Vincono la mano { $winners }.
}
briscola-capot = «J'han ciapâ capòt»: cappotto, nessun raggio agli avversari!
action-briscola-peek = 👀 Guarda le carte del compagno

rule-briscola-raggi = Raggi per vincere
rule-briscola-partner_peek = Sbirciata al compagno
rule-briscola-silent_end = Ultime tre mani in silenzio
rule-briscola-show_points = Punti in vista

illegal-peek-used = Hai già guardato le carte del compagno in questa mano.
illegal-peek-not-now = Non è il momento di guardare le carte del compagno.
illegal-peek-not-allowed = A questo tavolo non si guardano le carte del compagno.
