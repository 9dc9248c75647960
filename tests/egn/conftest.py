"""Fixtures the EGN tests share: EGN's schema as a validator, and EGN's own reference
engine run by node through tests/egn/reference_replay.js."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `pytest` run without `python -m`: make `tests.` importable
    sys.path.insert(0, str(ROOT))

from tests.egn.helpers import HARNESS, REFERENCE_ENGINE, SCHEMA  # noqa: E402


@pytest.fixture(scope="session")
def schema_errors() -> Any:
    """A function listing an EGN document's schema violations (none: valid)."""
    jsonschema = pytest.importorskip("jsonschema", reason="the dev extra installs jsonschema")
    validator = jsonschema.Draft7Validator(json.loads(SCHEMA.read_text()))

    def errors(document: Any) -> list[str]:
        return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                for e in validator.iter_errors(document)]

    return errors


@pytest.fixture(scope="session")
def reference_replay() -> Any:
    """A function replaying an EGN file with EGN's reference engine (node)."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("node is not installed (scripts/install-system-packages.sh installs nodejs)")

    def replay(path: Path) -> list[dict[str, Any]]:
        done = subprocess.run([node, str(HARNESS), str(REFERENCE_ENGINE), str(path)],
                              capture_output=True, text=True, check=True, timeout=60)
        return list(json.loads(done.stdout))

    return replay
