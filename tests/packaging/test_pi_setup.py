"""The Raspberry Pi set-up (deploy/pi/): checked here as far as this machine can check it.

shellcheck reads the script, ``systemd-analyze verify`` the unit; the script's dry run
is run with every command that would change the machine replaced by a stub that notes
being called, and Kivy's settings are written into a temporary KIVY_HOME and read back.
What cannot be checked here: a Pi's screen, touch screen and boot.
"""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PI = REPO / "deploy" / "pi"
SCRIPT = PI / "setup-pi.sh"
UNIT = PI / "euchre-kiosk.service"
#: every command the script runs to change the machine
CHANGERS = ("apt-get", "useradd", "usermod", "systemctl", "install", "runuser", "python3",
            "mkdir", "env")


def _script_value(name: str) -> str:
    found = re.search(rf"^{name}=(\S+)$", SCRIPT.read_text(encoding="utf-8"), re.M)
    assert found, name
    return found.group(1)


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck is not installed (apt-get install shellcheck)")
def test_the_setup_script_passes_shellcheck() -> None:
    done = subprocess.run(["shellcheck", "--severity=style", str(SCRIPT)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (it comes with systemd)")
def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    # verify also wants ExecStart's program to exist: here it is this environment's kiosk
    text = UNIT.read_text(encoding="utf-8")
    kiosk = Path(sys.executable).with_name("kiosk")
    here = str(kiosk if kiosk.is_file() else Path(sys.executable))
    copy = tmp_path / UNIT.name
    copy.write_text(text.replace("/opt/euchre-kiosk/venv/bin/kiosk", here), encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                          text=True, timeout=60)
    said = [line for line in (done.stdout + done.stderr).splitlines() if UNIT.name in line]
    assert done.returncode == 0 and not said, done.stdout + done.stderr


def test_the_unit_and_the_script_name_the_same_user_folders_and_program() -> None:
    unit = configparser.ConfigParser(interpolation=None, strict=False)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read_string(UNIT.read_text(encoding="utf-8"))
    service = unit["Service"]
    prefix, state = _script_value("PREFIX"), _script_value("STATE")
    assert service["User"] == _script_value("KIOSK_USER")
    assert service["WorkingDirectory"] == state
    assert service["ExecStart"].startswith(f"{prefix}/venv/bin/kiosk run --fullscreen ")
    assert service["EnvironmentFile"] == "-" + _script_value("DEFAULTS")
    # (Environment= stands several times: the parser keeps the last, so read the lines)
    assert f"Environment=KIVY_HOME={state}/kivy" in UNIT.read_text(encoding="utf-8").splitlines()
    assert service["Restart"] in ("always", "on-failure")
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def _dry_run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    stubs, log = tmp_path / "stubs", tmp_path / "called.log"
    stubs.mkdir(exist_ok=True)
    for name in CHANGERS:
        stub = stubs / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n', encoding="utf-8")
        stub.chmod(0o755)
    env = dict(os.environ, PATH=f"{stubs}:{os.environ['PATH']}")
    done = subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env=env, timeout=60)
    return done, log


def test_the_dry_run_prints_every_step_and_changes_nothing(tmp_path: Path) -> None:
    done, log = _dry_run(tmp_path, "--dry-run", "--camera", "1", "--rotation", "90")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert not log.exists(), log.read_text()  # no command that changes anything ran
    out = done.stdout
    for expected in (
            "+ env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends",
            "+ useradd --system --user-group --home-dir /var/lib/euchre-kiosk",
            "+ python3 -m venv /opt/euchre-kiosk/venv",
            f"+ /opt/euchre-kiosk/venv/bin/python -m pip install --quiet --upgrade {REPO}",
            "/opt/euchre-kiosk/kivy_config.py --rotation 90",
            '    KIOSK_ARGS="--camera 1"',
            "+ install -m 644 " + str(UNIT) + " /etc/systemd/system/euchre-kiosk.service",
            "+ systemctl enable euchre-kiosk.service",
            "+ systemctl disable getty@tty1.service"):
        assert expected in out, expected
    assert out.rstrip().splitlines()[-1].startswith("Done. Reboot")


def test_the_demo_instead_of_a_camera(tmp_path: Path) -> None:
    done, _log = _dry_run(tmp_path, "--dry-run", "--camera", "none")
    assert done.returncode == 0 and '    KIOSK_ARGS=""' in done.stdout


@pytest.mark.parametrize("args, words", [
    (["--camera", "front"], "--camera takes a number"),
    (["--rotation", "45"], "--rotation takes 0, 90, 180 or 270"),
    (["--from", "/no/such/kiosk.whl"], "nothing to install at /no/such/kiosk.whl"),
    (["--frobnicate"], "unknown option --frobnicate"),
])
def test_a_wrong_option_is_one_line_and_status_2(tmp_path: Path, args: list[str],
                                                 words: str) -> None:
    done, log = _dry_run(tmp_path, "--dry-run", *args)
    assert done.returncode == 2
    assert done.stdout == "" and done.stderr.count("\n") == 1 and words in done.stderr
    assert not log.exists()


def test_kivy_settings_give_the_docked_keyboard_and_one_event_a_tap(tmp_path: Path) -> None:
    home = tmp_path / "kivy"
    env = {k: v for k, v in os.environ.items() if not k.startswith("KCFG_")}
    done = subprocess.run([sys.executable, str(PI / "kivy_config.py"), "--rotation", "270"],
                          env=dict(env, KIVY_HOME=str(home)), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    config = configparser.ConfigParser(interpolation=None)
    config.read(home / "config.ini", encoding="utf-8")
    assert config["kivy"]["keyboard_mode"] == "systemanddock"
    assert config["kivy"]["exit_on_escape"] == "0"
    assert config["graphics"]["fullscreen"] == "auto"
    assert config["graphics"]["show_cursor"] == "0"
    assert config["graphics"]["allow_screensaver"] == "0"
    assert config["graphics"]["rotation"] == "270"
    assert dict(config["input"]) == {"mouse": "mouse"}  # no second reading of the touches
    # Kivy itself reads them back so, and adds no touch provider of its own on start
    check = subprocess.run(
        [sys.executable, "-c", "from kivy.config import Config; "
         "print(dict(Config.items('input')), Config.get('kivy', 'keyboard_mode'))"],
        env=dict(env, KIVY_HOME=str(home), KIVY_NO_CONSOLELOG="1", KIVY_NO_ARGS="1"),
        capture_output=True, text=True, timeout=120)
    assert check.stdout.strip() == "{'mouse': 'mouse'} systemanddock", check.stderr[-2000:]
