"""The director's master score sheet: Starlette on uvicorn, one SQLite file.

The kiosks post finished games here; the director sets the tournament up,
pairs the tables, watches the master sheet fill in (live, by server-sent
events) and corrects it. The pieces:

- `store`: the SQLite layer (the schema as one SQL constant, one writer thread).
- `tournament`: what the director and the kiosks can do, in plain Python;
  `posting` and `gamecheck`: a kiosk's post, checked against the rule book.
- `schedule`: the round-robin and progressive movements (pure functions).
- `auth`: table tokens and pairing codes; `sessions`: director sessions per
  device and the PIN lockout.
- `app`: who may call what; `routes`: the route table; `views/` and
  `templates/`: one module and template per page type; `live`: server-sent
  events.
- `guard`: the checks every request passes; `server`: uvicorn's settings.
"""
