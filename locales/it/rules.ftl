# /regole: a short summary of each game and the house rules in force for the group.
# Each house rule has one message, rules-<game>-<rule name with - for _>, with its value in $value
# (house rules that are switched on or off arrive as "on" / "off"). A rule whose value is a word or
# a code also gets $choice, usable as a variant key: "v" and the value in lowercase ("7H" -> v7h).

rules-game = { $game ->
    [belota] Belòta
    [briscola] Briscola
   *[cirulla] Cirulla
 }
rules-choose = Di quale gioco vuoi le regole?
rules-unknown-game = Non conosco il gioco «{ $game }»: scegli tra Belòta, Briscola e Cirulla.
rules-house-title = <b>Regole della casa in vigore</b> (dove differiscono, valgono queste)
rules-on = sì
rules-off = no

rules-summary-briscola =
    <b>Briscola</b>
    Mazzo di 40 carte italiane. Si gioca in 2, in 3 (ognuno per sé, togliendo un due che non sia di briscola) o in 4 a coppie, con il compagno di fronte.

    • Il mazziere dà 3 carte a testa, una alla volta, cominciando dal giocatore alla sua destra, e scopre una carta sotto il mazzo: il suo seme è la <b>briscola</b>, e sarà l’ultima carta pescata.
    • Comincia il giocatore a destra del mazziere, poi si gioca in senso antiorario. Non c’è obbligo di rispondere al seme né di giocare briscola.
    • Prende la briscola più alta; se non ci sono briscole, la carta più alta del seme giocato per primo. Chi prende pesca per primo, poi pescano gli altri, e gioca per primo la mano dopo. Finito il mazzo si giocano le ultime tre carte.
    • Ordine di presa: asso, tre, re, cavallo, fante, 7, 6, 5, 4, 2. Sulle carte del bot: F fante, C cavallo, R re.
    • Punti: asso 11, tre 10, re 4, cavallo 3, fante 2, le altre carte niente: 120 in tutto.
    • Ogni giro di carte è una <i>mano</i> (una presa); le 40 carte fanno la <i>partita</i>, che vince chi fa almeno 61 punti; 60 a 60 è pari. In tre vince chi fa più punti. Se si gioca a più partite, ognuna è un <i>raggio</i>.

rules-summary-cirulla =
    <b>Cirulla</b> (ciappachinze)
    Mazzo di 40 carte francesi: l’asso vale 1, poi dal 2 al 7, fante (J) 8, donna (Q) 9, re (K) 10. Si gioca in 2, o in 4 a coppie; i compagni non possono parlarsi né farsi segnali.

    • A ogni turno il mazziere dà 3 carte a testa; al primo turno della smazzata ne scopre anche 4 in tavola. Due o più assi tra queste: la smazzata è a monte. Se sommano 15 o 30, il mazziere le prende e segna 1 o 2 punti.
    • La carta giocata prende una carta dello stesso valore (o, se non c’è, più carte che ne fanno la somma), oppure carte che con lei fanno 15. L’asso prende tutta la tavola se non c’è già un asso. Se si può prendere, si deve; se no, la carta resta in tavola.
    • Vuotare la tavola è una <b>scopa</b>, 1 punto, ma mai con l’ultima carta della smazzata. Le carte rimaste vanno a chi ha preso per ultimo.
    • Buone, da dichiarare bussando prima di giocare la prima carta del turno: <b>cirulla</b> (somma 9 o meno) 3 punti; <b>decino</b> (tre carte uguali) 10, tre assi 30. La <b>matta</b> (di norma il 7 di cuori) vale da 1 a 10, ma solo per fare una buona.
    • A fine smazzata: settebello 1, denari (6 o più quadri) 1, carte (21 o più) 1, primiera 1, grande (fante, donna e re di quadri) 5, piccola (asso, 2 e 3 di quadri) 3 più 1 per ogni quadri seguente in fila fino al 6.
    • Chi prende tutti i dieci quadri fa il <b>partitone</b> e vince subito. Altrimenti, a fine smazzata, vince chi ha raggiunto il traguardo; se l’hanno raggiunto entrambi vince il punteggio più alto, e a parità si gioca un’altra smazzata.

rules-summary-belota =
    <b>Belòta</b> (la belote di Ventimiglia)
    Mazzo di 32 carte francesi, dal 7 all’asso (fante J, donna Q, re K); in 4, a coppie, con il compagno di fronte; oppure in 2 o in 3, ognuno per sé.

    • Il mazziere (u massé) dà 3 e poi 2 carte a testa, cominciando da destra; la 21ª carta si gira (zirà) e propone l’atù.
    • Primo giro: si accetta il seme girato (mandà), si dichiara sensa (senza atù) o si passa. Secondo giro: si può nominare un altro seme. Se tutti passano due volte, si ridà. Fissato l’atù, gli altri possono ancora dire sensa (punti doppi), e alla sensa gli avversari possono rispondere contru (punti tripli). Poi si servono le altre carte, fino a 8 a testa.
    • Si deve rispondere al seme. Chi non può deve giocare atù, superando se può quello in tavola, a meno che la presa sia già del compagno. Quando esce atù si deve sempre superare.
    • Atù: fante (valé) 20, nove (catòrze) 14, asso 11, dieci (manéglia) 10, re 4, donna 3, 8 e 7 niente. Altri semi e sensa: asso 11, dieci 10, re 4, donna 3, fante 2. Ultima presa 10; tutte le prese (cappotto) 100.
    • Accusi, con la prima carta: térsa 20, çincànta 50, çéntu 100, carré 100 (di nove 150, di fanti 200), cuřù. Conta solo la coppia con l’accuso migliore. La belòta (re e donna d’atù) vale 20 e non si annulla mai.
    • La coppia che ha fissato il gioco deve fare più punti degli avversari; a parità è <i>litigiu</i>: i punti in sospeso vanno a chi vince la mano (smazzata) dopo. Vince la prima coppia che arriva al traguardo.

    • <b>In due o in tre</b> ognuno per sé: 3 e 3 carte a testa, poi si gira la seguente; chi manda la prende con altre 2, gli altri ne ricevono 3: 9 carte a testa. L’ultima carta del mazzo si mostra a tutti (la bergère). Senza compagno, chi non risponde al seme deve giocare atù se ne ha. L’accuso migliore vale solo per chi lo ha. In tre chi manda deve superare ciascun avversario; se va dentro, i suoi punti vanno all’avversario che ne ha di più.

rules-briscola-raggi = <b>Raggi</b>: { $value ->
    [1] uno, si gioca una partita sola
   *[other] { $value }, vince chi vince per primo { $value } raggi (i pari non contano)
 }
rules-briscola-partner-peek = <b>Occhiata al compagno</b>: { $value ->
    [on] sì, in quattro, da metà mazzo ognuno può guardare una volta le carte del compagno
   *[off] no
 }
rules-briscola-silent-end = <b>Finale in silenzio</b>: { $value ->
    [on] sì, niente occhiate al compagno nelle ultime tre mani
   *[off] no, l’occhiata è ammessa anche nelle ultime tre mani
 }
rules-briscola-show-points = <b>Punti in vista</b>: { $value ->
    [on] sì, i punti di ciascuna parte sono sempre visibili
   *[off] no, le prese restano coperte fino alla conta
 }

rules-cirulla-target = <b>Traguardo</b>: { $value } punti
rules-cirulla-aces-void = <b>Due assi in tavola</b>: { $value ->
    [on] smazzata a monte
   *[off] si gioca lo stesso
 }
rules-cirulla-three-voids-lose = <b>Tre smazzate a monte di fila</b>: { $value ->
    [on] il mazziere perde la partita
   *[off] nessuna penalità
 }
rules-cirulla-equal-cards-void = <b>Tre carte uguali in tavola</b>: { $value ->
    [on] smazzata a monte
   *[off] si gioca lo stesso
 }
rules-cirulla-triple-aces = <b>Decino di tre assi</b>: { $value } punti
rules-cirulla-decino-plus-values = <b>Decino più valori</b>: { $value ->
    [on] sì, un decino di assi, di due o di tre vale 10 più la somma delle carte (13, 16, 19)
   *[off] no
 }
rules-cirulla-ace-takes-all-always = <b>Asso piglia tutto sempre</b>: { $value ->
    [on] sì, anche con un asso in tavola
   *[off] no, con un asso in tavola l’asso prende l’asso
 }
rules-cirulla-matta-keeps-value = <b>La matta tiene il valore</b>: { $value ->
    [on] sì, calata in tavola tiene il valore dichiarato per tutta la partita
   *[off] no, alla distribuzione seguente torna un sette
 }
rules-cirulla-matta-for-dealer = <b>Matta per il mazziere</b>: { $value ->
    [on] sì, il mazziere può usarla a qualunque valore per il 15 o il 30 in tavola
   *[off] no
 }
rules-cirulla-grande-25 = <b>Grande</b>: { $value ->
    [on] 25 punti
   *[off] 5 punti
 }
rules-cirulla-scala-alta = <b>Scala alta</b>: { $value ->
    [on] sì, fante, donna e re di quadri in una mano sono una buona che vale quanto la grande
   *[off] no
 }
rules-cirulla-matta-card = <b>La matta</b>: { $choice ->
    [v7d] il sette di quadri
    [vqh] la donna di cuori
   *[v7h] il sette di cuori
 }
rules-cirulla-four-equal-partitone = <b>Quattro carte uguali in tavola</b>: { $value ->
    [on] il mazziere fa il partitone e vince
   *[off] nessun effetto
 }
rules-cirulla-pairs-contest = <b>Buone a coppie</b>: { $value ->
    [on] sì, si annunciano appena ricevute e si mostrano prima che giochi l’avversario di destra; conta solo la migliore del turno
   *[off] no
 }
rules-cirulla-cirullone = <b>Cirullone</b>: { $value ->
    [on] sì, al primo turno sei carte a testa, buone combinabili, traguardo 101
   *[off] no
 }

rules-belota-target = <b>Traguardo</b>: { $value } punti
rules-belota-curu-points = <b>Cuřù</b>: { $value } punti
rules-belota-dedans = <b>Gioco fallito</b>: { $value ->
    [on] tutti i punti vanno agli avversari
   *[off] ognuno (coppia o giocatore) tiene i suoi punti
 }
rules-belota-multiply-declarations = <b>Accusi in sensa e contru</b>: { $value ->
    [on] raddoppiati o triplicati come le carte
   *[off] al loro valore normale
 }
rules-belota-carta-girata = <b>Carta girata, in due e in tre</b>: { $choice ->
    [vtable] resta scoperta in tavola, fuori gioco, e tutti ricevono 3 carte; prima della prima carta chi ha il 7 d’atù può scambiarlo con lei, se è d’atù
   *[vtaker] la prende chi manda, con altre 2 carte
 }
rules-belota-mazzo-3 = <b>Mazzo in tre</b>: { $value ->
    [24] 24 carte, senza 7 e 8: si dà 3 e 2, si gira la 16ª, 8 carte e 8 prese a testa, niente cuřù
   *[other] 32 carte, 9 a testa
 }
rules-belota-contratto-3 = <b>Contratto in tre</b>: { $choice ->
    [vboth] chi manda deve fare più punti dei due avversari insieme
   *[veach] chi manda deve fare più punti di ciascun avversario
 }
