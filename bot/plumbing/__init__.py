"""The bot's runtime on Redis: game records, locks, delivery order, deadlines, pacing, recovery, webhook."""
