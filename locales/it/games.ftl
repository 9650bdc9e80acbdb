## Texts of the games' table, hand and result messages.

## Each game's own words (bot.games.base.game_terms; the Mini App uses them too)
# Briscola's source: a "mano" is one trick, the 40 cards a "partita", a "raggio" in a series.
term-briscola-trick = mano
term-briscola-deal = partita
term-briscola-series = raggio
term-briscola-match = partita
# Cirulla's source: a "smazzata" is dealt in "turni" of three cards; the "partita" to 51.
term-cirulla-round = turno
term-cirulla-deal = smazzata
term-cirulla-match = partita
# Belòta's source: the "mano" is the hand of eight tricks ("prese"), "a partìa" the match.
term-belota-trick = presa
term-belota-deal = mano
term-belota-match = partita
briscola-deal-name = raggio { $deal }
cirulla-deal-name = smazzata { $deal }
belota-deal-name = mano { $deal }

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
briscola-last-trick = { $person ->
    [second] La mano (la presa) è tua: { $cards } ({ $points } punti)
   *[third] La mano (la presa) va a { $winner }: { $cards } ({ $points } punti)
}
briscola-points = Punti: { $points }
briscola-partner-hand = Carte del compagno: { $cards }
briscola-raggi = Raggi (si vince a { $target }): { $scores }
briscola-deal-over = 🧮 <b>{ $series ->
    [1] Fine della partita
   *[other] Fine del raggio { $deal }
}</b>
briscola-deal-points = { $side }: { $points } punti
briscola-deal-draw = Sessanta a sessanta, { $series ->
    [1] partita pari
   *[other] raggio pari, non conta per nessuno
}: «J'em fat s'sànta e s'sànta».
briscola-deal-winner = { $series ->
    [1] { $person ->
        [second] Fai più punti tu.
        [second-plural] Fate più punti voi.
       *[third] { $count ->
            [one] Fa più punti { $winners }.
           *[other] Fanno più punti { $winners }.
        }
    }
   *[other] { $person ->
        [second] Vinci il raggio.
        [second-plural] Vincete il raggio.
       *[third] { $count ->
            [one] Vince il raggio { $winners }.
           *[other] Vincono il raggio { $winners }.
        }
    }
}
briscola-capot = «J'han ciapâ capòt»: cappotto, agli avversari nemmeno un raggio!
action-briscola-peek = 👀 Guarda le carte del compagno

rule-briscola-raggi = Raggi per vincere
rule-briscola-partner_peek = Occhiata al compagno
rule-briscola-silent_end = Ultime tre mani (prese) in silenzio
rule-briscola-show_points = Punti in vista

illegal-peek-used = Hai già dato l'occhiata alle carte del compagno.
illegal-peek-not-now = Non è il momento di guardare le carte del compagno.
illegal-peek-not-allowed = A questo tavolo non si guardano le carte del compagno.

## Belòta
belota-dealer = { $person ->
    [second] Dai le carte tu (u massé)
   *[third] Dà le carte (u massé): { $player }
}
belota-turned = Carta girata (zirà): { $card }
belota-stage-first = Primo giro: si manda il seme girato, si manda sensa o si passa.
belota-stage-second = Secondo giro: si sceglie un altro atù, si manda sensa o si passa.
belota-stage-overturn = Chi vuole può mandare sensa (mandà sensa), ribaltando l'atù: punti doppi.
belota-stage-contru = Gli avversari possono mandare contru (mandà contru): punti tripli.
belota-stage-contru-one = L'avversario può mandare contru (mandà contru): punti tripli.
belota-bergere = Ultima carta del mazzo, in vista (la bergère): { $card }
belota-face-up = Carta girata, fuori gioco: { $card }
belota-face-up-exchanged = { $person ->
    [second] Fuori gioco: { $card }, che hai scambiato con la carta girata
   *[third] Fuori gioco: { $card }, scambiato da { $player } con la carta girata
}
belota-bid-exchange = Scambio { $seven } con { $card }
belota-bids = Parole: { $bids }
belota-said-pass = { $person ->
    [second] passi
   *[third] passa
}
belota-said-take = { $person ->
    [second] mandi { $suit }
   *[third] manda { $suit }
}
belota-said-trump = { $person ->
    [second] scegli atù { $suit }
   *[third] sceglie atù { $suit }
}
belota-said-sensa = { $person ->
    [second] mandi sensa
   *[third] manda sensa
}
belota-said-contru = { $person ->
    [second] mandi contru
   *[third] manda contru
}
belota-bid-pass = Passo (passà)
belota-bid-take = Mando { $suit } (mandà)
belota-bid-trump = Atù { $suit }
belota-bid-sensa = Sensa (×2)
belota-bid-contru = Contru (×3)
belota-bid-declare = 📣 Accuso (l'acüsu)
belota-contract-trump = { $person ->
    [second] Atù: { $suit }, mandato da te
    [second-plural] Atù: { $suit }, mandato da { $taker }, il tuo compagno
   *[third] Atù: { $suit }, mandato da { $taker } ({ $team })
}
belota-contract-sensa = { $person ->
    [second] Sensa, mandata da te: punti doppi
    [second-plural] Sensa, mandata da { $declarer }, il tuo compagno: punti doppi
   *[third] Sensa, mandata da { $declarer } ({ $team }): punti doppi
}
belota-contract-contru = { $person ->
    [second] La tua sensa con il contru: punti tripli
    [second-plural] Sensa di { $declarer }, il tuo compagno, con il contru: punti tripli
   *[third] Sensa di { $declarer } ({ $team }) con il contru: punti tripli
}
belota-contract-trump-solo = { $person ->
    [second] Atù: { $suit }, mandato da te
   *[third] Atù: { $suit }, mandato da { $taker }
}
belota-contract-sensa-solo = { $person ->
    [second] Sensa, mandata da te: punti doppi
   *[third] Sensa, mandata da { $declarer }: punti doppi
}
belota-contract-contru-solo = { $person ->
    [second] La tua sensa con il contru: punti tripli
   *[third] Sensa di { $declarer } con il contru: punti tripli
}
belota-declared = { $person ->
    [second] Accusi: { $declarations }
   *[third] { $player } accusa: { $declarations }
}
belota-declarations-count = { $person ->
    [second] Vale il tuo accuso: { $points } punti
    [second-plural] Vale il vostro accuso: { $points } punti
   *[third] Vale l'accuso di { $team }: { $points } punti
}
belota-declarations-count-trump = { $person ->
    [second] Vale il tuo accuso d'atù («l'è bon u mei»): { $points } punti
    [second-plural] Vale il vostro accuso d'atù («l'è bon u mei»): { $points } punti
   *[third] Vale l'accuso d'atù di { $team } («l'è bon u mei»): { $points } punti
}
belota-belota = { $player }: «Belòta!»
belota-rebelota = { $player }: «Rebelòta!» (20 punti)
belota-trick = In tavola: { $cards }
belota-last-trick = { $person ->
    [second] Presa tua: { $cards } ({ $points } punti)
   *[third] Presa di { $winner }: { $cards } ({ $points } punti)
}
belota-litigiu-pending = Litigiu: { $points } punti in sospeso per chi vince la prossima mano (smazzata)
belota-scores = Punti (si vince a { NUMBER($target, useGrouping: 0) }): { $scores }
belota-decl-tersa = térsa
belota-decl-cincanta = çincànta
belota-decl-centu = çéntu
belota-decl-curu = cuřù
belota-decl-carre = { $rank ->
    [J] carré de valé
    [9] carré de catòrze
   *[other] carré
}
belota-annulled = 🔄 Mano { $deal } (smazzata): tutti passano due volte, la mano è annullata e si ridà.
belota-sheet-title = 🧮 <b>Mano { $deal } (smazzata): si marca</b>
belota-sheet-team = { $team }: { $items } = <b>{ $total }</b>
belota-item = { $item } { $points }
belota-item-multiplied = { $item } { $base } → { $points }
belota-item-cards = carte
belota-item-last-trick = ultima presa
belota-item-capotto = cappotto
belota-item-declarations = accusi
belota-item-belota = belòta
belota-result-made = Il contratto è fatto: ognuno segna i suoi punti.
belota-result-failed = { $dedans ->
    [true] Il contratto è andato dentro: gli avversari segnano tutti i punti.
   *[other] Il contratto è andato dentro: ognuno segna i suoi punti.
}
belota-result-litigiu = Litigiu: pari! I difensori segnano i loro punti, quelli del contratto restano in sospeso.
belota-result-made-solo = { $person ->
    [second] Il tuo contratto è fatto: ognuno segna i suoi punti.
   *[third] Il contratto di { $taker } è fatto: ognuno segna i suoi punti.
}
belota-result-failed-solo = { $person ->
    [second] Il tuo contratto è andato dentro: ognuno segna i suoi punti.
   *[third] Il contratto di { $taker } è andato dentro: ognuno segna i suoi punti.
}
belota-result-failed-to = { $person ->
    [second] Il tuo contratto è andato dentro: i tuoi punti vanno { $count ->
        [one] a { $to }
       *[other] a metà a { $to }
    }.
    [gainer] Il contratto di { $taker } è andato dentro: i suoi punti vanno { $count ->
        [one] a te
       *[other] a metà a te e a { $to }
    }.
   *[third] Il contratto è andato dentro: i punti di { $taker } vanno { $count ->
        [one] a { $to }
       *[other] a metà a { $to }
    }.
}
belota-result-litigiu-solo = { $person ->
    [second] Litigiu: pari! Gli altri segnano i loro punti, i tuoi restano in sospeso.
   *[third] Litigiu: pari! Gli altri segnano i loro punti, quelli di { $taker } restano in sospeso.
}
belota-litigiu-won = { $person ->
    [second] Vinci il litigiu: +{ $points }
    [second-plural] Vincete il litigiu: +{ $points }
   *[third] { $team } vince il litigiu: +{ $points }
}
belota-sheet-points = Si segna: { $points }

rule-belota-target = Punti per vincere
rule-belota-curu_points = Punti del cuřù
rule-belota-dedans = Contratto fallito: tutto agli avversari
rule-belota-multiply_declarations = Sensa e contru moltiplicano gli accusi
rule-belota-carta_girata = Carta girata
rule-belota-carta_girata-taker = a chi manda
rule-belota-carta_girata-table = resta in tavola
rule-belota-mazzo_3 = Mazzo in tre
rule-belota-mazzo_3-32 = 32 carte
rule-belota-mazzo_3-24 = 24 carte, senza 7 e 8
rule-belota-contratto_3 = Contratto in tre
rule-belota-contratto_3-each = batte ciascun avversario
rule-belota-contratto_3-both = batte i due avversari insieme

illegal-bid-not-allowed = Questa parola non si può dire ora.
illegal-bidding-not-over = Prima si finisce di parlare.
illegal-must-follow-suit = Devi rispondere al seme (respùnde).
illegal-must-trump = Devi tagliare con l'atù.
illegal-must-overtrump = Devi superare l'atù in tavola.
illegal-declarations-closed = Gli accusi si fanno con la prima carta.
illegal-already-declared = Hai già accusato.
illegal-nothing-to-declare = Non hai niente da accusare.
illegal-exchange-not-allowed = Lo scambio con la carta girata lo fa solo chi ha il 7 d'atù, alla prima carta.

## Cirulla
cirulla-turn-of-deal = { $person ->
    [second] Il mazziere sei tu · turno { $turn } di { $turns }
   *[third] Mazziere: { $dealer } · turno { $turn } di { $turns }
}
cirulla-table = In tavola: { $cards }
cirulla-table-empty = La tavola è vuota.
cirulla-laid = { $person ->
    [second] Cali { $card }
   *[third] { $player } cala { $card }
}
cirulla-captured = { $person ->
    [second] Giochi { $card } e prendi { $cards }
   *[third] { $player } gioca { $card } e prende { $cards }
}
cirulla-scopa = { $person ->
    [second] 🧹 Hai fatto scopa!
   *[third] 🧹 Scopa di { $player }!
}
cirulla-scopa-ace = { $person ->
    [second] 🧹 L'asso piglia tutto: hai fatto scopa!
   *[third] 🧹 L'asso piglia tutto: scopa di { $player }!
}
cirulla-table-taken = { $person ->
    [second] Le carte rimaste in tavola vanno nelle tue prese: { $cards }
    [second-plural] Le carte rimaste in tavola vanno nelle vostre prese: { $cards }
   *[third] Le carte rimaste in tavola vanno nelle prese di { $side }: { $cards }
}
cirulla-table-capture = { $person ->
    [second] Da mazziere prendi la tavola che fa { $total }: { $points ->
        [one] 1 punto
       *[other] { $points } punti
    }
   *[third] { $player } (mazziere) prende la tavola che fa { $total }: { $points ->
        [one] 1 punto
       *[other] { $points } punti
    }
}
cirulla-buona = { $person ->
    [second] ✊ Bussi: { $buona } ({ $points } punti) con { $cards }
   *[third] ✊ { $player } bussa: { $buona } ({ $points } punti) con { $cards }
}
cirulla-buona-beaten = { $person ->
    [second] Chiami { $buona } con { $cards }, ma c'è di meglio
   *[third] { $player } chiama { $buona } con { $cards }, ma c'è di meglio
}
cirulla-buona-cirulla = cirulla
cirulla-buona-misci = cirulla dei misci
cirulla-buona-decino = decino
cirulla-buona-scala-alta = scala alta
cirulla-matta-value = La matta vale { $value } fino alla prossima distribuzione.
cirulla-knock = ✊ Busso (ho una buona)
cirulla-capture = { $card } → { $cards }
cirulla-capture-all = { $card } → tutta la tavola
cirulla-scores = Punti (si vince a { $target }): { $scores }
cirulla-count-title = 🧮 <b>Fine della smazzata { $deal }: il conto</b>
cirulla-count-side = { $side }: { $items } = <b>{ $total }</b>
cirulla-item = { $item } { $points }
cirulla-item-counted = { $item } { $points } ({ $count })
cirulla-item-settebello = settebello
cirulla-item-denari = denari
cirulla-item-carte = carte
cirulla-item-primiera = primiera
cirulla-item-grande = grande
cirulla-item-piccola = piccola
cirulla-item-scope = scope
cirulla-item-table = quindici in tavola
cirulla-item-cirulla = cirulle
cirulla-item-decino = decini
cirulla-item-scala-alta = scala alta
cirulla-void-aces = { $person ->
    [second] 🔄 Smazzata { $deal }: due assi in tavola ({ $cards }), la smazzata è a monte e ridai tu.
   *[third] 🔄 Smazzata { $deal }: due assi in tavola ({ $cards }), la smazzata è a monte e { $dealer } ridà.
}
cirulla-void-equal-cards = { $person ->
    [second] 🔄 Smazzata { $deal }: tre carte uguali in tavola ({ $cards }), la smazzata è a monte e ridai tu.
   *[third] 🔄 Smazzata { $deal }: tre carte uguali in tavola ({ $cards }), la smazzata è a monte e { $dealer } ridà.
}
cirulla-partitone-diamonds = { $person ->
    [second] 💎 Partitone! Prendi tutti i denari e vinci la partita.
    [second-plural] 💎 Partitone! Prendete tutti i denari e vincete la partita.
   *[third] 💎 Partitone! { $side } prende tutti i denari e vince la partita.
}
cirulla-partitone-four-equal = { $person ->
    [second] 💎 Partitone! Quattro carte uguali in tavola: vinci la partita.
    [second-plural] 💎 Partitone! Quattro carte uguali in tavola: vincete la partita.
   *[third] 💎 Partitone! Quattro carte uguali in tavola: { $side } vince la partita.
}
cirulla-three-voids = Tre smazzate a monte di fila: il mazziere perde la partita.

rule-cirulla-target = Punti per vincere
rule-cirulla-aces_void = Due assi in tavola: smazzata a monte
rule-cirulla-three_voids_lose = Tre smazzate a monte: perde il mazziere
rule-cirulla-equal_cards_void = Tre carte uguali in tavola: smazzata a monte
rule-cirulla-triple_aces = Tre assi valgono
rule-cirulla-decino_plus_values = Decino più il valore delle carte
rule-cirulla-ace_takes_all_always = L'asso piglia sempre tutto
rule-cirulla-matta_keeps_value = La matta in tavola tiene il valore
rule-cirulla-matta_for_dealer = Matta libera per il 15/30 del mazziere
rule-cirulla-grande_25 = Grande da 25
rule-cirulla-scala_alta = Scala alta (J Q K di quadri)
rule-cirulla-matta_card = La matta è
rule-cirulla-four_equal_partitone = Quattro uguali in tavola: partitone
rule-cirulla-pairs_contest = Buone a coppie: vale la migliore
rule-cirulla-cirullone = Cirullone (6 carte, a 101)

illegal-must-capture = Con questa carta devi prendere.
illegal-no-such-capture = Questa presa non si può fare.
illegal-not-on-table = Quella carta non è in tavola.
illegal-knock-too-late = Si bussa prima di giocare la prima carta del turno.
illegal-already-knocked = Hai già bussato.
illegal-no-buona = Non hai una buona da dichiarare.
illegal-knock-not-in-use = A questo tavolo le buone si chiamano da sole.

## Briscola's sayings (Emilian, from the source)
briscola-saying-futu = { $person ->
    [second] «Chi fa dù armàgn futù»: due punti alla prima mano (presa), perderai il raggio!
   *[third] «Chi fa dù armàgn futù»: due punti alla prima mano (presa), { $player } perderà il raggio!
}
briscola-saying-nada = { $person ->
    [second] «Questa ché l'è nada un dé prìma»: prendi con una briscola appena più alta.
   *[third] «Questa ché l'è nada un dé prìma»: { $player } prende con una briscola appena più alta.
}
briscola-saying-masc = { $person ->
    [second] «Stròsa ed màs'c»: strozzi l'avversario con l'asso.
   *[third] «Stròsa ed màs'c»: { $player } strozza l'avversario con l'asso.
}
briscola-saying-femna = { $person ->
    [second] «Stròsa ad fèmna»: strozzi l'avversario con il tre.
   *[third] «Stròsa ad fèmna»: { $player } strozza l'avversario con il tre.
}

## Belòta's bidding in the hand message
belota-word = Parla { $player }.
