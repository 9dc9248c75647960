"""Bounded load on loopback: 200 kiosks post at once; then the same with the director
SIGKILLed mid-load and restarted. Runs scripts/load_test_director.py as a process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "load_test_director.py"


def load_test(*args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--kiosks", "200", "--deadline", "40", "--json", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout.strip(), done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    print(report)  # the p99 latency shows with `pytest -s`
    assert done.returncode == 0, report
    return dict(report)


@pytest.mark.slow
def test_200_kiosks_posting_at_once_are_all_acknowledged_once() -> None:
    report = load_test()
    assert report["acknowledged"] == 200
    assert (report["lost"], report["doubled"], report["wrong"], report["pending"]) == (0, 0, 0, 0)
    assert isinstance(report["p99_ms"], float) and report["p99_ms"] < 20_000


@pytest.mark.slow
def test_sigkill_during_the_load_loses_no_acknowledged_result() -> None:
    report = load_test("--kill")
    assert report["killed_after_acks"] >= 50  # it died with results arriving
    assert report["acknowledged_before_kill_present"] == report["acknowledged_before_kill"]
    assert report["acknowledged"] == 200
    assert (report["lost"], report["doubled"], report["wrong"]) == (0, 0, 0)
