"""What runs when a user does something: a command, a button press, a join; one module per area."""
