"""The rules engine: the kiosk's referee.  Standard library only, and pure (no I/O, no clocks).

Modules, one job each:

- `cards`: cards, suits, ranks, seats and the CONTRACTS notation
- `tricks`: effective suit (the left bower is a trump), trick ranking, legal plays
- `profiles`: the four rule books as frozen `RuleProfile` data
- `bidding`: the two rounds of making trump, as a state machine
- `renege`: renege proof from the cards seen
- `irregularities`: out-of-turn bids, leads and plays, and their rulings
- `play`: one hand fed bid by bid and card by card (`HandState`)
- `record`: hand records: load, validate, replay, dump
- `scoring`: points for a hand, penalties, the `score-hand` verdict
- `game`: a game's running score to 5, 7 or 10
- `standings`: ranking teams from game results, with each book's tie-breaks
- `progressive`: individual scoring for a progressive event
"""
