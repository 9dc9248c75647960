"""Development tools: what the tests, the benchmarks and the people building the kiosk
use, and a table never needs. Not part of the kiosk: the wheel packs ``kiosk`` alone
(pyproject.toml), so nothing here is installed at a table.

Run from a source checkout's root, beside ``datasets/`` (the training package the
tools draw with): ``python -m devtools --help``.
"""
