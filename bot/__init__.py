"""The Telegram bot: wiring (app, cli, config, services, embedded server) and its rooms (see README.md)."""
