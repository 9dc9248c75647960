"""One table's game: the session, its journal, and the outbox to the director."""
