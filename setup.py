"""The wheel's one build step: the ONNX networks the kiosk loads at run time go into
the package (``kiosk/models/``), where an installed kiosk finds them (kiosk/shipped.py).

Everything else is declared in pyproject.toml. The networks stay in ``models/`` in git,
where training exports them and every script and test reads them: copied at build time,
they are never committed twice (12.5 MB for cards.onnx alone). An editable install
(``make run``, ``make test``) copies nothing and reads ``models/`` in the checkout.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: the networks the kiosk loads (kiosk/vision: detector, index_classifier, suit_reader,
#: context_reader) and the patches a deep deck profile replays (kiosk/vision/decks/deep_enrolment);
#: tests/packaging/test_wheel.py checks that this is every one in git
SHIPPED_MODELS = ("cards.onnx", "index_classifier.onnx", "suit_reader.onnx",
                  "context_reader.onnx", "naming_replay.npz")


class BuildWithModels(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "kiosk" / "models"
        self.mkpath(str(target))
        for name in SHIPPED_MODELS:
            source = Path("models") / name
            if not source.is_file():
                raise SystemExit(f"cannot build the kiosk: {source} is missing")
            self.copy_file(str(source), str(target / name))


setup(cmdclass={"build_py": BuildWithModels})
