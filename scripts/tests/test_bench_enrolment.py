"""The enrolment benchmark's command line (scripts/bench_enrolment.py): a candidate
classifier that is not there, or a curve of no photos, is one line and exit status 2,
before anything is read."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import bench_enrolment  # noqa: E402


@pytest.mark.parametrize(("argv", "names"), [
    (["--classifier", "no-such-classifier.onnx"], "no-such-classifier.onnx"),
    (["--shots", "0"], "--shots"),
])
def test_bad_input_is_one_line_and_status_2(argv: list[str], names: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_enrolment.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert names in err and "\n" not in err
