"""`kiosk director`: clear start-up output, a clean stop, plain errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from kiosk.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_start_up_says_where_to_open_it_and_where_the_data_lives(tmp_path: Path) -> None:
    data = tmp_path / "zone5"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kiosk",
            "director",
            "--data",
            str(data),
            "--port",
            "0",
            "--host",
            "127.0.0.1",
        ],
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(9)]
        text = "".join(lines)
        assert lines[0].strip() == "Euchre director is running."
        url = next(line.split()[-1] for line in lines if "Open on this computer" in line)
        assert url.startswith("http://127.0.0.1:")
        assert str((data / "director.sqlite3").resolve()) in text
        assert "PIN for other devices" in text and "not set up yet" in text
        tls = next(line.split()[4] for line in lines if "pair over TLS" in line)
        assert tls.startswith("https://127.0.0.1:") and "Certificate fingerprint" in text
        with urllib.request.urlopen(url + "api/v1/health", timeout=10) as response:
            assert json.load(response)["ok"] is True
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
        assert (data / "director.sqlite3").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_file_given_as_data_folder_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_folder = tmp_path / "notes.txt"
    not_a_folder.write_text("x")
    assert main(["director", "--data", str(not_a_folder), "--port", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"kiosk director: --data {not_a_folder} is a file; give a folder"]


def test_a_busy_port_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        started = time.monotonic()
        code = main(
            ["director", "--data", str(tmp_path), "--port", str(port), "--host", "127.0.0.1"]
        )
    assert code == 2 and time.monotonic() - started < 10
    assert f"cannot listen on port {port}" in capsys.readouterr().err
