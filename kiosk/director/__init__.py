"""The director's master score sheet: one HTTP server, one SQLite file.

The kiosks post finished games here; the director sets the tournament up,
pairs the tables, watches the master sheet fill in and corrects it. The
pieces:

- `store`: the SQLite layer (the schema as one SQL constant, one writer thread).
- `tournament`: what the director and the kiosks can do, in plain Python.
- `schedule`: the round-robin and progressive movements (pure functions).
- `auth`: table tokens, pairing codes, the director's PIN.
- `app`: the route table; `views/`: one module per page type.
- `server`: the threading HTTP server that serves `app`.
"""
