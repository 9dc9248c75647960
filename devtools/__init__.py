"""Development tools: what the tests, the benchmarks and the people building the kiosk
use, and a table never needs. Not part of the kiosk: the wheel packs ``kiosk`` alone
(pyproject.toml), so nothing here is installed at a table.

- ``oracle``: a stand-in detector, a rendered video's ground truth with a detector's
  usual failures injected (``python -m devtools run`` and ``read-video`` offer it);
- ``render_hand``: ``python -m devtools render-hand``, a hand record rendered as video;
- ``director_process``: the real director in its own process, for the load and
  end-to-end tests;
- ``screen_audit``: a rendered screen measured against the accessibility bar.

Run from a source checkout's root, beside ``datasets/`` (the training package the
tools draw with): ``python -m devtools --help``.
"""
