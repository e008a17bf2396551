"""The game's flow over time: writes and the deadlines they arm, timers firing, absence, computer turns,
the drawer, recovery, results, a topic standing still."""
