# Turn timers, absent players, tables that close themselves.

command-tempo = show or change the time for each turn

# $seconds: the turn timer in seconds (0: none)
timer-choice = { $seconds ->
    [0] no limit
    [30] 30 seconds
    [60] 1 minute
    [120] 2 minutes
    [300] 5 minutes
   *[other] { $seconds } seconds
}
timer-current = ⏱️ Time per turn: { timer-choice }. To change it while the table is open: /timer off, /timer 30s, /timer 1m, /timer 2m or /timer 5m.
timer-set = ⏱️ Time per turn: { timer-choice }.
# The lobby's line and its button (the button moves to the next choice).
lobby-timer = ⏱️ Time per turn: { timer-choice }.
btn-timer = ⏱️ Timer: { timer-choice }
timer-bad-choice = Choose one of: off, 30s, 1m, 2m, 5m (for example /timer 2m).
timer-during-game = The time per turn is changed before the game starts.
timer-who = Only whoever opened the table or a group admin can change the time per turn.
timer-group-only = The time per turn is chosen in a group.
timer-reminder-group = ⏳ { $player }, your turn: { $seconds } seconds left.
timer-expired = ⌛ { $player } ran out of time: the computer plays this turn.
timer-takeover = 🤖 { $player } ran out of time three times in a row: the computer plays for them until they come back.
btn-timer-back = 🙋 I'm back
timer-back = 🙋 { $player } is back at the table.
toast-timer-back = Welcome back!
alert-timer-back-who = This seat is not yours.
timer-lobby-expired = 🕰️ Table closed: nobody started it within { $minutes } minutes. To open another: /new
timer-idle-closed = 🕰️ Game closed: no move for { $days } days.
