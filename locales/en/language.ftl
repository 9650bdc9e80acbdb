## /lingua, /commento, the command menu entries of /glossario and /regole, the saying buttons

command-glossario = look up a term of the games' glossary
command-regole = rules summary and the house rules in force
command-lingua = choose the bot's language in this chat
command-commento = turn the dialect commentary on or off
command-start = open the private chat with the bot

language-name = { $code ->
    [en] English
   *[it] Italiano
}
language-current = Language of this chat: <b>{ language-name }</b>.
language-choose = Choose the language:
language-commentary = Dialect commentary at the table: <b>{ $on ->
    [on] on
   *[off] off
}</b>.
language-admins-only = In this group the language and the commentary are changed by the admins.
language-set = Language: { language-name }
btn-language = { language-name }
btn-commentary = { $on ->
    [on] 🔇 Turn the dialect commentary off
   *[off] 🔊 Turn the dialect commentary on
}

commentary-usage = Usage: <code>/commentary on</code> or <code>/commentary off</code>.
commentary-group-only = The dialect commentary is chosen in a group.
commentary-now = Dialect commentary: <b>{ $on ->
    [on] on
   *[off] off
}</b>.

btn-explain = 📖 What does «{ $term }» mean?
explain-alert = «{ $term }»: { $meaning }
