"""Plumbing on Redis and Telegram that knows no game and no words: records, locks, delivery order, deadlines,
flood budgets, outages, the webhook server."""
