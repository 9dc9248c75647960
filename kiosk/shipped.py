"""Where the kiosk finds the networks it ships (``models/*.onnx``).

In a source checkout (an editable install, ``make run``, the tests) they are the
repository's ``models/`` folder, where training exports them. A wheel has no repository
around it, so its build copies them into the package as ``kiosk/models/`` (``setup.py``,
the one build step) and an installed kiosk reads them there. The packaged copy wins:
it exists only in an installed kiosk, whose ``parents[1]`` is ``site-packages`` (where
another distribution's ``models/`` folder could lie).

>>> shipped_model("cards.onnx").name
'cards.onnx'
"""

from __future__ import annotations

from pathlib import Path

#: inside an installed kiosk (setup.py's build step puts them there)
PACKAGED = Path(__file__).resolve().parent / "models"
#: in a source checkout, beside the kiosk package
CHECKOUT = Path(__file__).resolve().parents[1] / "models"


def shipped_model(name: str) -> Path:
    """The shipped network ``name``: the installed package's copy, else the checkout's
    (which is named, so that a missing model's message says where it was looked for)."""
    packaged = PACKAGED / name
    return packaged if packaged.is_file() else CHECKOUT / name
