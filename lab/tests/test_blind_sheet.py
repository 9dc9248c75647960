"""Blind reading sheets: the misses and as many hits, unnamed; the answers scored by kind."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from lab.blind_sheet import TILE, Label, detail, main, make, score


def _scene(tmp_path: Path) -> str:
    path = tmp_path / "1000001.jpg"
    rng = np.random.default_rng(0)
    cv2.imwrite(str(path), rng.integers(0, 255, (120, 160, 3), dtype=np.uint8))
    return str(path)


def _labels(scene: str, missed: int, found: int) -> list[Label]:
    box = (40.0, 40.0, 60.0, 70.0)
    return [Label(scene, "KS", box, False, None, None) for _ in range(missed)] + [
        Label(scene, "9H", box, True, "9H", 0.9) for _ in range(found)
    ]


def test_detail_ignores_the_light_and_drops_with_blur() -> None:
    rng = np.random.default_rng(1)
    clean = rng.integers(0, 255, (50, 50)).astype(np.uint8)
    lit = np.clip(clean.astype(np.float64) * 0.6 + 40, 0, 255).astype(np.uint8)
    blurred = cv2.GaussianBlur(clean, (0, 0), 1.5)
    box = (5.0, 5.0, 45.0, 45.0)
    assert detail(clean, clean, box) == 1.0
    assert detail(clean, lit, box) > 0.99
    assert detail(clean, blurred, box) < 0.6


def test_sheets_hold_every_miss_and_as_many_hits_unnamed(tmp_path: Path) -> None:
    scene = _scene(tmp_path)
    chosen = make(_labels(scene, missed=5, found=20), tmp_path / "sheets", seed=3)
    assert sum(not label.found for label in chosen) == 5
    assert sum(label.found for label in chosen) == 5
    assert sorted(label.n for label in chosen) == list(range(1, 11))
    sheet = cv2.imread(str(tmp_path / "sheets" / "sheet01.png"))
    assert sheet.shape == (3 * TILE, 4 * TILE, 3)
    assert not (tmp_path / "sheets" / "sheet02.png").exists()  # 10 tiles: one sheet
    key = json.loads((tmp_path / "sheets" / "key.json").read_text())
    assert [row["n"] for row in key] == [label.n for label in chosen]
    # the same seed draws the same sheet
    again = make(_labels(scene, missed=5, found=20), tmp_path / "again", seed=3)
    assert [(a.card, a.found) for a in again] == [(c.card, c.found) for c in chosen]


def test_answers_are_scored_for_the_misses_and_the_hits_apart() -> None:
    key = [
        {"n": 1, "card": "KS", "found": False},
        {"n": 2, "card": "9H", "found": True},
        {"n": 3, "card": "QD", "found": False},
    ]
    answers = [
        {"n": 1, "card": "ks", "certainty": "sure"},
        {"n": 2, "card": "?H", "certainty": "guess"},
    ]  # tile 3 unanswered: the reader could not
    table = score(key, answers)
    assert table["missed"] == {"sure": [1, 1], "cannot": [1, 0]}
    assert table["found"] == {"guess": [1, 0]}
    with pytest.raises(ValueError, match="tile 1"):
        score(key, [{"n": 1, "card": "KS", "certainty": "certain"}])


def test_unreadable_answers_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "key.json").write_text(json.dumps([{"n": 1, "card": "KS", "found": False}]))
    (tmp_path / "answers.json").write_text("[{not json")
    assert main(["score", str(tmp_path), str(tmp_path / "answers.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("blind_sheet: cannot score") and "\n" not in err


def test_no_generated_scenes_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture) -> None:
    """On a fresh checkout the scenes are not generated yet: say so, and draw nothing."""
    import lab.blind_sheet as blind_sheet
    import models.evaluate as evaluate

    monkeypatch.setattr(evaluate, "SCENES", tmp_path / "scenes")
    monkeypatch.setattr(blind_sheet, "SCENES", tmp_path / "scenes")
    assert main(["make", "--split", "val", "--out", str(tmp_path / "sheets")]) == 2
    err = capsys.readouterr().err.strip()
    assert "no labelled scenes" in err and "datasets.generate" in err and "\n" not in err
    assert not (tmp_path / "sheets").exists()


def test_an_unreadable_scene_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture) -> None:
    """A corrupt scene stops the sheet with one line naming it (it was a bare exit 1)."""
    import models.evaluate as evaluate

    val = tmp_path / "scenes" / "val"
    for folder in ("images", "labels"):
        (val / folder).mkdir(parents=True)
    (val / "images" / "1000000.jpg").write_bytes(b"not a picture")
    (val / "labels" / "1000000.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    monkeypatch.setattr(evaluate, "SCENES", tmp_path / "scenes")
    assert main(["make", "--split", "val", "--out", str(tmp_path / "sheets")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("blind_sheet: cannot read") and "1000000.jpg" in err and "\n" not in err


class _Finder:
    """A fake detector that names a 9C on the scene's one label."""

    def propose(self, image: np.ndarray, confidence: float | None = None) -> list:
        return []

    def name(self, image: np.ndarray, proposals: list, confidence: float = 0.0) -> list:
        from kiosk.vision.cards.detector import Detection

        return [Detection("9C", 0.9, (72.0, 54.0, 88.0, 66.0))]


def test_outcomes_draw_the_scene_again_only_for_the_detail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``with_detail=False`` (what naming_bound asks) gives the same outcomes without
    drawing each scene again; with it, the detail is measured."""
    import datasets.scenes as scenes
    import models.evaluate as evaluate
    from lab.blind_sheet import outcomes

    val = tmp_path / "scenes" / "val"
    for folder in ("images", "labels"):
        (val / folder).mkdir(parents=True)
    cv2.imwrite(str(val / "images" / "1000001.jpg"), np.full((120, 160, 3), 200, np.uint8))
    (val / "labels" / "1000001.txt").write_text("0 0.5 0.5 0.1 0.1\n")  # a 9C
    monkeypatch.setattr(evaluate, "SCENES", tmp_path / "scenes")
    drawn: list[int] = []
    real_render = scenes.render_scene
    monkeypatch.setattr(scenes, "render_scene",
                        lambda seed, *a, **k: drawn.append(seed) or real_render(seed, *a, **k))
    plain = outcomes(_Finder(), "val", None, with_detail=False)  # type: ignore[arg-type]
    assert drawn == [] and [(o.card, o.found, o.detail) for o in plain] == [("9C", True, None)]
    full = outcomes(_Finder(), "val", None)  # type: ignore[arg-type]
    assert drawn == [1000001] and isinstance(full[0].detail, float)
    assert [(o.card, o.found, o.said) for o in full] == [(o.card, o.found, o.said) for o in plain]
