## /lingua, /commento, the command menu entries of /glossario and /regole, the saying buttons

command-glossario = cerca un termine del glossario dei giochi
command-regole = riassunto delle regole e regole della casa in vigore
command-lingua = scegli la lingua del bot in questa chat
command-commento = accendi o spegni il commento in dialetto
command-start = apri la chat privata con il bot

language-name = { $code ->
    [en] English
   *[it] Italiano
}
language-current = Lingua di questa chat: <b>{ language-name }</b>.
language-choose = Scegli la lingua:
language-commentary = Commento in dialetto al tavolo: <b>{ $on ->
    [on] acceso
   *[off] spento
}</b>.
language-admins-only = In questo gruppo la lingua e il commento li cambiano gli amministratori.
language-set = Lingua: { language-name }
btn-language = { language-name }
btn-commentary = { $on ->
    [on] 🔇 Spegni il commento in dialetto
   *[off] 🔊 Accendi il commento in dialetto
}

commentary-usage = Uso: <code>/commento on</code> oppure <code>/commento off</code>.
commentary-group-only = Il commento in dialetto si sceglie in un gruppo.
commentary-now = Commento in dialetto: <b>{ $on ->
    [on] acceso
   *[off] spento
}</b>.

btn-explain = 📖 Cosa vuol dire «{ $term }»?
explain-alert = «{ $term }»: { $meaning }
