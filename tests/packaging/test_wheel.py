"""A wheel built from the repository carries what the kiosk loads at run time (the ONNX
networks, the kv files, the demo's video and its ground truth), installs into a fresh
virtual environment, and plays the demo there from a folder outside the checkout.

The wheel is built from a copy of the working tree (the files git tracks or would
track), so that nothing left in the checkout's own build/ folder can slip into it. The
fresh environment holds only the wheel; the kiosk's dependencies (Kivy, OpenCV, ONNX
Runtime...) are borrowed from the test's own environment by a plain path in a .pth file,
which puts their folder on sys.path without running the editable install's finder that
lies there too: ``kiosk`` can only come from the wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import kiosk.shipped as shipped

REPO = Path(__file__).resolve().parents[2]


def test_an_installed_kiosk_reads_its_packaged_networks_before_a_checkout(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    packaged, checkout = tmp_path / "kiosk" / "models", tmp_path / "models"
    checkout.mkdir()
    (checkout / "cards.onnx").write_bytes(b"checkout")
    monkeypatch.setattr(shipped, "PACKAGED", packaged)
    monkeypatch.setattr(shipped, "CHECKOUT", checkout)
    assert shipped.shipped_model("cards.onnx") == checkout / "cards.onnx"
    packaged.mkdir(parents=True)
    (packaged / "cards.onnx").write_bytes(b"packaged")
    assert shipped.shipped_model("cards.onnx") == packaged / "cards.onnx"
    # neither: the checkout's path, which the detector's "model file not found" names
    assert shipped.shipped_model("none.onnx") == checkout / "none.onnx"


def _git_files(*patterns: str) -> list[str]:
    done = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                           "--", *patterns], cwd=REPO, capture_output=True, text=True,
                          check=True)
    return [name for name in done.stdout.splitlines() if (REPO / name).is_file()]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Build the wheel offline, install it alone into a fresh venv; its paths."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs a git checkout to copy the working tree from")
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    for name in _git_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, source / name)
    dist = root / "dist"
    # no build isolation: setuptools is taken from this environment, so no network
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--no-index", "-q", "-w", str(dist), str(source)],
                   cwd=root, check=True, capture_output=True, text=True, timeout=300)
    (wheel,) = dist.glob("kiosk-*.whl")
    venv = root / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True,
                   text=True, timeout=300)
    site = subprocess.run([str(python), "-c", "import sysconfig; "
                           "print(sysconfig.get_path('purelib'))"],
                          check=True, capture_output=True, text=True).stdout.strip()
    (Path(site) / "kiosk-test-dependencies.pth").write_text(
        sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    cwd = root / "elsewhere"
    cwd.mkdir()
    return {"wheel": wheel, "venv": venv, "python": python, "site": Path(site), "cwd": cwd}


def _env(cwd: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PYTHONPATH", "KIOSK_DETECTOR_MODEL")}
    return dict(env, KIVY_HOME=str(cwd / "kivy"))


@pytest.mark.slow
def test_the_wheel_carries_every_network_kv_file_and_demo_asset(
        installed: dict[str, Path]) -> None:
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    networks = {Path(name).name for name in _git_files("models/*.onnx")
                + _git_files("models/*.npz")}
    assert networks, "no networks in models/"
    assert {n for n in names if n.startswith("kiosk/models/")} == {
        f"kiosk/models/{n}" for n in networks}
    kv = set(_git_files("kiosk/*.kv"))
    assert kv and kv <= names, sorted(kv - names)
    assets = {n for n in _git_files("kiosk/assets") if not n.endswith(".md")}
    assert {"kiosk/assets/demo-hand.mp4", "kiosk/assets/demo-hand.truth.json"} <= assets
    assert assets <= names, sorted(assets - names)
    assert "kiosk/app/demo/hand1.json" in names
    assert not [n for n in names if n.startswith(("models/", "datasets/", "tests/", "devtools/",
                                                  "lab/", "scripts/"))]
    assert not [n for n in names if "oracle" in n]  # the test tools' stand-in detector


@pytest.mark.slow
def test_the_installed_kiosk_loads_its_networks_from_the_package(
        installed: dict[str, Path]) -> None:
    code = ("import sys, kiosk\n"
            "from kiosk.commands.run import DEMO_VIDEO\n"
            "from kiosk.vision.cards.detector import (DEFAULT_MODEL, DEFAULT_CLASSIFIER,\n"
            "    DEFAULT_SUIT_READER, DEFAULT_CONTEXT_READER, Detector)\n"
            "d = Detector(threads=1)\n"
            "print(kiosk.__file__)\n"
            "for p in (DEFAULT_MODEL, DEFAULT_CLASSIFIER, DEFAULT_SUIT_READER,\n"
            "          DEFAULT_CONTEXT_READER, DEMO_VIDEO, d.path, d.namer.path,\n"
            "          d.suit_reader.path, d.context_reader.path):\n"
            "    print(p)\n")
    done = subprocess.run([str(installed["python"]), "-c", code], cwd=installed["cwd"],
                          env=_env(installed["cwd"]), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    site = str(installed["site"].resolve())
    paths = done.stdout.split()
    assert len(paths) == 10
    for path in paths:
        assert path.startswith(site + "/kiosk/"), path
        assert Path(path).is_file(), path


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")
def test_the_installed_kiosk_plays_the_demo_headless_with_the_trained_detector(
        installed: dict[str, Path]) -> None:
    """``make run`` where there is no screen, as a fresh machine runs it: the installed
    kiosk says so, plays the bundled demo on a virtual screen with the shipped networks,
    tells the game on the console, saves each screen, and stops by itself at the end.
    (One play serves both: the demo is read from its video, the suite's longest run.)"""
    kiosk = installed["venv"] / "bin" / "kiosk"
    done = subprocess.run([str(kiosk), "run", "--demo-pace", "0.1"], cwd=installed["cwd"],
                          env=_env(installed["cwd"]), capture_output=True, text=True,
                          timeout=600)
    out = done.stdout
    assert done.returncode == 0, (out[-1500:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    lines = out.splitlines()
    assert lines[0].startswith("No screen here (no DISPLAY): playing the demo on a virtual "
                               "screen"), lines[0]
    # the bundled video was read with the shipped networks (not the oracle, not taps)
    assert lines[1].startswith("Cards read by the trained detector (cards.onnx"), out[:600]
    for expected in ("  Bid: West: order it up", "  Trick 1: East played AS (ace of spades).",
                     "  Trick 5 to West. Tricks: Ann & Bob 1, Cy & Di 4.",
                     "Hand 1 over: Cy & Di made it: Cy & Di +1.",
                     "Both teams agreed: the result is saved for the director.", "Done."):
        assert any(line.startswith(expected) for line in lines), expected
    assert out.rstrip().endswith("Done."), out[-600:]
    shots = installed["cwd"] / "var" / "kiosk" / "screens"
    for name in ("setup", "bidding", "live", "score", "game_end"):
        found = list(shots.glob(f"*-{name}.png"))
        assert found and found[0].stat().st_size > 10_000, name
        assert f"Screen '{name}' saved: " in out
