"""The scene generator: deterministic, and its labels are where the indices were drawn."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.cards_art import index_boxes, load_card, usable_decks
from datasets.classes import CLASS_ID, CLASSES
from datasets.geometry import card_matrix, transform_points
from datasets.scenes import (
    MIN_BOX,
    MIN_VISIBLE,
    Label,
    Placement,
    Table,
    render_scene,
    view_labels,
    view_regions,
)

pytestmark = pytest.mark.usefixtures("have_card_art")


def test_same_seed_same_scene() -> None:
    a, b = render_scene(7, size=256), render_scene(7, size=256)
    assert np.array_equal(a.image, b.image)
    assert a.labels == b.labels


def test_different_seeds_differ() -> None:
    assert not np.array_equal(render_scene(1, size=256).image, render_scene(2, size=256).image)


@pytest.mark.parametrize("seed", range(8))
def test_labels_inside_image_and_named(seed: int) -> None:
    scene = render_scene(seed, size=256)
    assert scene.image.shape == (256, 256, 3)
    assert scene.image.dtype == np.uint8
    for label in scene.labels:
        x1, y1, x2, y2 = label.box
        assert 0 <= x1 < x2 <= 256 and 0 <= y1 < y2 <= 256
        assert x2 - x1 >= MIN_BOX and y2 - y1 >= MIN_BOX
        assert label.card in CLASS_ID
        cls, *coords = label.yolo_line(256, 256).split()
        assert CLASSES[int(cls)] == label.card
        assert all(0.0 <= float(v) <= 1.0 for v in coords)


def test_both_views_occur_and_scenes_have_labels() -> None:
    scenes = [render_scene(seed, size=192) for seed in range(12)]
    assert {s.view for s in scenes} == {"overhead", "oblique"}
    assert sum(len(s.labels) for s in scenes) >= 24


def _plain_table(size: int = 400) -> Table:
    return Table(np.full((size, size, 3), 40.0, np.float32))


def test_label_is_the_drawn_index() -> None:
    """One card, no camera: two labels, on the index boxes, and ink inside them."""
    deck = usable_decks()[0]
    table = _plain_table()
    rng = np.random.default_rng(0)
    placement = Placement("JH", deck, (200.0, 200.0), 180.0, 0.0)
    table.add_card(placement, rng, recolour=0.0)
    labels = view_labels(table, table.ids, np.eye(3))
    assert [label.card for label in labels] == ["JH", "JH"]
    face = load_card(deck, "JH")
    matrix = card_matrix((face.shape[1], face.shape[0]), (200.0, 200.0), 180.0, 0.0)
    expected = sorted(
        tuple(transform_points(matrix, np.array([b[:2], b[2:]])).ravel())
        for b in index_boxes(deck, "JH")
    )
    for label, want in zip(sorted(labels, key=lambda lab: lab.box), expected, strict=True):
        assert np.allclose(label.box, want, atol=2.5)
        x1, y1, x2, y2 = (int(v) for v in label.box)
        patch = table.canvas[y1:y2, x1:x2]
        assert patch.min() < 120 and patch.max() > 200  # print on paper, not blank


def test_covered_index_loses_its_label() -> None:
    deck = usable_decks()[0]
    table = _plain_table()
    rng = np.random.default_rng(0)
    table.add_card(Placement("9C", deck, (200.0, 200.0), 180.0, 0.0), rng, recolour=0.0)
    # a second card whose body lies over the first card's top-left corner
    table.add_card(Placement("back", deck, (110.0, 90.0), 180.0, 0.0), rng)
    cards = sorted(label.card for label in view_labels(table, table.ids, np.eye(3)))
    assert cards == ["9C", "back"]  # the bottom-right 9C index and the back


def _edge_scene(share_on_canvas: float) -> tuple[list[str], list[Label], tuple[float, ...]]:
    """A 9C whose top-left index is cut by the canvas's left edge, ``share_on_canvas`` of
    its width still on the canvas: the names of the labels, the part-shown indices, and
    that index's whole box."""
    deck = usable_decks()[0]
    face = load_card(deck, "9C")
    matrix = card_matrix((face.shape[1], face.shape[0]), (200.0, 200.0), 180.0, 0.0)
    boxes = [transform_points(matrix, np.array([b[:2], b[2:]])) for b in index_boxes(deck, "9C")]
    (x1, y1), (x2, y2) = min(boxes, key=lambda corners: corners[0][0])
    shift = x1 + (1.0 - share_on_canvas) * (x2 - x1)  # moves that x onto the edge, x = 0
    table = _plain_table()
    placement = Placement("9C", deck, (200.0 - shift, 200.0), 180.0, 0.0)
    table.add_card(placement, np.random.default_rng(0), recolour=0.0)
    labels, partial = view_regions(table, table.ids, np.eye(3))
    return [label.card for label in labels], partial, (x1 - shift, y1, x2 - shift, y2)


def test_index_mostly_off_the_canvas_is_not_labelled_but_ignored() -> None:
    """A strip of an index at the table's edge is blank paper, not a card to name (a
    generator that compared it with its own on-canvas part labelled it, 9 % of the
    labels of the held-out scenes); a reader may still name what shows, so it is a
    part-shown index, boxed whole up to the picture's edge."""
    cards, partial, (_x1, y1, x2, y2) = _edge_scene(0.3)
    assert cards == ["9C"]  # the bottom-right index alone
    assert [p.card for p in partial] == ["9C"]
    assert np.allclose(partial[0].box, (0.0, y1, x2, y2), atol=1.5)
    cards, partial, _ = _edge_scene(1.0)  # control: the whole index shows
    assert cards == ["9C", "9C"] and partial == []


def test_index_whose_print_is_covered_is_not_labelled() -> None:
    """A hand over an index's rank and suit can leave most of its box (paper) showing:
    the print must show too."""
    deck = usable_decks()[0]
    table = _plain_table()
    table.add_card(Placement("9C", deck, (200.0, 200.0), 180.0, 0.0), np.random.default_rng(0), 0.0)
    first = min(
        (r for r in range(1, len(table.regions))),
        key=lambda r: table.regions[r].polygon[:, 0].min(),
    )
    table.cover(table.ink_ids == first)  # a mask on the print alone
    # enough of the box shows to be labelled on the box alone: the print decides
    assert (table.ids == first).sum() >= MIN_VISIBLE * table.regions[first].pixels
    labels, partial = view_regions(table, table.ids, np.eye(3))
    assert len(labels) == 1 and [p.card for p in partial] == ["9C"]


@pytest.mark.parametrize("hidden", ["rank", "suit"])
def test_index_whose_rank_or_suit_is_covered_is_not_labelled(hidden: str) -> None:
    """A suit whose rank is hidden names no card (nor a rank without its suit), though
    60 % of the index's print can still show: a suit's pip is solid, a rank's glyph thin.
    Each part must show 60 % of its own print: half of one hidden, the index is not
    labelled; as much of its paper hidden instead, it is."""
    deck = usable_decks()[0]
    for cover_print in (True, False):
        table = _plain_table()
        table.add_card(Placement("5H", deck, (200.0, 200.0), 180.0, 0.0),
                       np.random.default_rng(0), 0.0)
        first = min(range(1, len(table.regions)),
                    key=lambda r: table.regions[r].polygon[:, 0].min())
        rank = table.rank_ids == first
        suit = (table.ink_ids == first) & ~rank
        part = rank if hidden == "rank" else suit
        assert part.any() and (suit.any() if hidden == "rank" else rank.any())
        # half the part's print: 60 % of the whole index's print still shows
        ys, _xs = np.nonzero(part)
        half = part & (np.arange(part.shape[0])[:, None] < np.median(ys))
        assert (table.ink_ids == first).sum() - half.sum() >= MIN_VISIBLE * (
            table.ink_ids == first).sum()
        if cover_print:
            table.cover(half)
        else:  # control: paper of the index, as many pixels, the print untouched
            paper = np.argwhere((table.ids == first) & (table.ink_ids == 0))[: half.sum()]
            mask = np.zeros_like(part)
            mask[paper[:, 0], paper[:, 1]] = True
            table.cover(mask)
        labels, partial = view_regions(table, table.ids, np.eye(3))
        if cover_print:
            assert len(labels) == 1 and [p.card for p in partial] == ["5H"]
        else:
            assert len(labels) == 2 and partial == []


def test_rank_print_is_the_part_nearest_the_cards_end() -> None:
    """The rank is printed above the suit, and upside down at the far end: in every deck
    the upper index's rank lies above its suit, the lower one's below it."""
    from datasets.scenes import _index_ink, _rank_ink

    for deck in usable_decks():
        rank, printed = _rank_ink(deck, "5H"), _index_ink(deck, "5H")
        for x1, y1, x2, y2 in index_boxes(deck, "5H"):
            ranks = np.nonzero(rank[y1:y2, x1:x2])[0]
            suits = np.nonzero((printed[y1:y2, x1:x2] > 0) & (rank[y1:y2, x1:x2] == 0))[0]
            assert len(ranks) and len(suits), deck
            upside_down = (y1 + y2) / 2 >= printed.shape[0] / 2
            assert (ranks.mean() > suits.mean()) == upside_down, deck


def test_mat_lies_under_some_tables_with_its_markers_and_lines() -> None:
    """A fifth of the tables lie on the printed mat: white paper with ArUco corners."""
    from datasets.scenes import MAT_SHARE, lay_mat, mat_stream
    from kiosk.vision.camera.mat import find_markers

    on_mat = [s for s in range(200) if mat_stream(s).random() < MAT_SHARE]
    assert 0.1 < len(on_mat) / 200 < 0.3
    canvas = np.zeros((900, 900, 3), np.float32)
    rng = np.random.default_rng(3)
    lay_mat(canvas, card_w=60.0, rng=rng)  # a mat of 600-850 px, shifted: part of it shows
    paper = canvas.mean(axis=2) > 200
    assert 0.35 < paper.mean() < 0.95
    bgr = np.clip(canvas, 0, 255).astype(np.uint8)[:, :, ::-1]
    assert len(find_markers(np.ascontiguousarray(bgr))) >= 1


def test_generate_redraws_a_split_an_older_generator_drew(tmp_path: Path) -> None:
    """Scenes are kept between runs (rendering them takes minutes), but a kept scene from
    an older generator would silently train the networks on what the generator no longer
    draws: a split without the current version stamp is drawn again."""
    from datasets.generate import write_split
    from datasets.scenes import SCENES_VERSION

    stale = tmp_path / "scenes" / "val" / "images" / "stale.jpg"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    out = write_split("val", 2, 96, workers=1, root=tmp_path)
    assert not stale.exists()
    assert (out / "VERSION").read_text().strip() == str(SCENES_VERSION)
    assert len(list((out / "images").glob("*.jpg"))) == 2
    kept = out / "images" / "kept.jpg"
    kept.write_bytes(b"x")  # the same version: kept, nothing redrawn
    write_split("val", 2, 96, workers=1, root=tmp_path)
    assert kept.exists()


def test_a_card_half_off_the_table_counts_its_whole_area() -> None:
    """What survives overlap (``datasets.visibility``) is judged against the whole card: a
    card half off the table's edge shows half of itself, not all of its on-table part."""
    deck = usable_decks()[0]
    table = _plain_table()
    table.add_card(Placement("9C", deck, (200.0, 200.0), 120.0, 0.0), np.random.default_rng(0), 0.0)
    table.add_card(Placement("KD", deck, (0.0, 200.0), 120.0, 0.0), np.random.default_rng(0), 0.0)
    shown = np.bincount(table.card_ids.ravel(), minlength=3)
    (_, _, on_table), (_, _, half_off) = table.cards[1], table.cards[2]
    assert shown[1] == pytest.approx(on_table, rel=0.03)  # all of it on the table
    assert shown[2] == pytest.approx(half_off / 2, rel=0.05)


def test_dark_split_draws_more_dark_faces(tmp_path: Path) -> None:
    """``--dark N`` writes training scenes with half the faces dark, from their own seeds
    (so never a validation or test scene); a scene drawn with the generator's own share
    is the one ``render_scene`` gives by default."""
    from datasets.generate import SEED_BASE, write_split
    from datasets.scenes import DARK_SHARE

    assert DARK_SHARE < 0.5 and len(set(SEED_BASE.values())) == len(SEED_BASE)
    out = write_split("dark", 2, 96, workers=1, root=tmp_path)
    assert sorted(p.stem for p in (out / "images").glob("*.jpg")) == ["3000000", "3000001"]
    rng = np.random.default_rng(0)
    table = _plain_table()
    dark = [0, 0]
    for share_index, share in enumerate((DARK_SHARE, 0.5)):
        for _ in range(40):
            before = table.canvas.copy()
            table.add_card(Placement("9C", usable_decks()[0], (200.0, 200.0), 120.0, 0.0), rng,
                           recolour=share)
            dark[share_index] += int(np.median(table.canvas[180:220, 180:220]) < 110)
            table.canvas[:] = before
    assert dark[0] < dark[1]
    assert np.array_equal(render_scene(5, 96, dark_share=DARK_SHARE).image,
                          render_scene(5, 96).image)


def test_more_scenes_are_drawn_as_the_train_splits_from_seeds_of_their_own(
    tmp_path: Path,
) -> None:
    """``--more N`` adds training scenes (the classifier names the scenes it learnt from
    far better than held-out ones): seeds no other split uses, drawn with the
    generator's own dark share, as a train scene of that seed would be."""
    from datasets.generate import SEED_BASE, write_split

    out = write_split("more", 2, 96, workers=1, root=tmp_path)
    assert sorted(p.stem for p in (out / "images").glob("*.jpg")) == ["4000000", "4000001"]
    labels = (out / "labels" / "4000001.txt").read_text()
    scene = render_scene(4_000_001, 96)
    assert labels == "".join(label.yolo_line(96, 96) + "\n" for label in scene.labels)
    assert SEED_BASE["more"] > max(v for k, v in SEED_BASE.items() if k != "more")


def test_a_later_session_draws_the_extra_scenes_after_those_it_has(tmp_path: Path) -> None:
    """``--more-from K``: scenes K on, drawn exactly as a run from 0 draws them, beside the
    scenes already in the folder (a fresh machine has none; a kept folder keeps them)."""
    from datasets.generate import write_split

    write_split("more", 1, 96, workers=1, root=tmp_path)
    out = write_split("more", 2, 96, workers=1, root=tmp_path, first=5)
    assert sorted(p.stem for p in (out / "images").glob("*.jpg")) == [
        "4000000", "4000005", "4000006"]  # fmt: skip
    scene = render_scene(4_000_006, 96)
    assert (out / "labels" / "4000006.txt").read_text() == "".join(
        label.yolo_line(96, 96) + "\n" for label in scene.labels)  # fmt: skip


@pytest.mark.parametrize(("argv", "said"), [
    (["--more", "10", "--more-from", "999995"], "--more-from must be from 0 to 999990"),
    (["--more", "10", "--more-from", "-1"], "--more-from must be from 0 to 999990"),
    (["--more-from", "24000"], "--more-from works with --more N"),
    (["--more", "2000000"], "--more must be at most 1,000,000 (the split's seeds), not 2,000,000"),
])  # fmt: skip
def test_extra_scenes_past_the_splits_seeds_are_one_line_and_exit_2(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seeds past the split's million would be the next split's scenes (held-out ones)."""
    from datasets import generate

    monkeypatch.setattr(generate, "GENERATED", tmp_path)
    assert generate.main([*argv, "--train", "0", "--val", "0", "--test", "0"]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1
    assert not list(tmp_path.iterdir())  # refused before anything is drawn


def test_a_camera_effect_left_out_leaves_the_others_as_drawn() -> None:
    """``without`` makes every random draw still, so a scene drawn without one effect
    differs from the generated one by that effect alone: what it costs can be measured."""
    from datasets import photometric

    picture = np.random.default_rng(0).uniform(0, 255, (64, 64, 3)).astype(np.float32)
    every = photometric.camera(picture.copy(), np.random.default_rng(5))
    assert np.array_equal(every, photometric.camera(picture.copy(), np.random.default_rng(5), ()))
    none = photometric.camera(picture.copy(), np.random.default_rng(5), photometric.EFFECTS)
    assert np.array_equal(none, np.clip(picture, 0, 255).astype(np.uint8))
    for effect in photometric.EFFECTS:
        first, second = np.random.default_rng(5), np.random.default_rng(5)
        photometric.camera(picture.copy(), first, (effect,))
        photometric.camera(picture.copy(), second)
        assert first.random() == second.random()  # the same draws, whatever is left out
    with pytest.raises(ValueError, match="unknown camera effect 'blurr'"):
        photometric.camera(picture, np.random.default_rng(5), ("blurr",))


@pytest.mark.parametrize(("seed", "blurred"), [(7, True), (8, False)])
def test_a_scene_drawn_without_blur_is_sharper_where_it_was_blurred(
    seed: int, blurred: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without blur a blurred scene's cards are sharper and its labels the same; a scene
    the camera never blurred comes out as it was."""
    from datasets import photometric

    calls: list[int] = []
    blur = photometric.blur
    monkeypatch.setattr(photometric, "blur", lambda img, rng: calls.append(1) or blur(img, rng))
    drawn = render_scene(seed, size=256)
    assert bool(calls) == blurred
    sharp = render_scene(seed, size=256, without=("blur",))
    assert sharp.labels == drawn.labels

    def edges(image: np.ndarray) -> float:
        return float(np.abs(np.diff(image.astype(np.float32), axis=1)).mean())

    if blurred:
        assert edges(sharp.image) > 1.05 * edges(drawn.image)
    else:
        assert np.array_equal(sharp.image, drawn.image)


def test_a_split_stopped_half_way_keeps_what_it_drew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawing thousands of scenes takes hours: a run stopped part-way (a session's end,
    Ctrl-C) goes on where it stopped, rather than wiping its own scenes as an older
    generator's and drawing them again."""
    from datasets import generate

    drawn = generate.render_scene

    def stops_at_the_second(seed: int, size: int, dark_share: float) -> object:
        if seed == generate.SEED_BASE["more"] + 1:
            raise KeyboardInterrupt
        return drawn(seed, size, dark_share=dark_share)

    monkeypatch.setattr(generate, "render_scene", stops_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        generate.write_split("more", 2, 96, workers=1, root=tmp_path)
    first = tmp_path / "scenes" / "more" / "images" / "4000000.jpg"
    assert first.exists() and not first.with_name("4000001.jpg").exists()
    first.write_bytes(b"kept")  # marks it: redrawn, it would be a JPEG again
    monkeypatch.setattr(generate, "render_scene", drawn)
    generate.write_split("more", 2, 96, workers=1, root=tmp_path)
    assert first.read_bytes() == b"kept"
    assert cv2.imread(str(first.with_name("4000001.jpg"))).shape == (96, 96, 3)
    assert not list(first.parent.glob("*.part"))
