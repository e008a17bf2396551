"""The Telegram bot: handlers, the Redis store, keyboards, Persian texts."""
