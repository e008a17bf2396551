"""What players see: the board, lobby and hand messages, their keyboards and menus, and the Persian texts."""
