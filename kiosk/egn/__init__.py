"""Euchre Game Notation (EGN): the community's open format for a whole game, read and
written from and to this project's hand records (../shared/egn/, its SPEC.md and schema).

EGN keeps only what cannot be deduced (dealer, turn-up, calls, the cards in the order
they fell); who played each card and who won each trick are worked out by a rules
engine, here the kiosk's own (`kiosk.rules`) under the ruleset the file names.

Modules, one job each:

- `notation`: EGN's cards, seats and calls, and the one-line `EgnError`
- `ruleset`: an EGN ruleset read and written, and the rule profile it plays under
- `game`: an EGN file read (1.0 to 1.4) into frozen values, and written as 1.4
- `records`: one EGN deal to a hand record and back, checked by the rules engine
- `replay`: every deal's trick winners and score change

Standard library and `kiosk.rules` only, like the rules engine.
"""
