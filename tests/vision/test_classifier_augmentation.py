"""The classifier's harder augmentation (``train_classifier --harder``): each change does
what its name says to the share of patches it is given, and leaves the others alone."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None, reason="torch is not installed"
)

REPO = Path(__file__).resolve().parents[2]
SIDE = 32


def _trainer() -> Any:
    sys.path.insert(0, str(REPO / "models"))
    import train_classifier

    return train_classifier


def _checkerboard(n: int = 8) -> Any:
    """Patches of one-pixel squares: all detail, the thing a coarser picture loses."""
    import torch

    ys, xs = torch.meshgrid(torch.arange(SIDE), torch.arange(SIDE), indexing="ij")
    board = ((ys + xs) % 2).float() * 0.8 + 0.1
    return board.expand(n, 3, SIDE, SIDE).clone()


def _detail(batch: Any) -> Any:
    """Mean absolute difference between neighbouring pixels, per patch."""
    return (batch[..., :, 1:] - batch[..., :, :-1]).abs().mean(dim=(1, 2, 3))


def _generator(seed: int = 0) -> Any:
    import torch

    return torch.Generator().manual_seed(seed)


@pytest.mark.parametrize("change", ["coarser", "blurred"])
def test_a_coarser_or_blurred_patch_loses_its_finest_detail(change: str) -> None:
    trainer = _trainer()
    board = _checkerboard()
    changed = getattr(trainer, change)(board, _generator(), share=1.0)
    assert changed.shape == board.shape
    assert bool((_detail(changed) < 0.5 * _detail(board)).all())
    # the light is kept: only the detail goes
    assert float(changed.mean()) == pytest.approx(float(board.mean()), abs=0.05)


@pytest.mark.parametrize("change", ["coarser", "blurred", "tinted", "covered"])
def test_patches_not_chosen_are_left_as_they_were(change: str) -> None:
    import torch

    trainer = _trainer()
    board = _checkerboard()
    assert torch.equal(getattr(trainer, change)(board, _generator(), share=0.0), board)


def test_a_tinted_patch_changes_its_channels_apart() -> None:
    import torch

    trainer = _trainer()
    grey = torch.full((16, 3, SIDE, SIDE), 0.5)
    tinted = trainer.tinted(grey, _generator(), share=1.0)
    assert float(tinted.min()) >= 0.0 and float(tinted.max()) <= 1.0
    channels = tinted.mean(dim=(2, 3))  # (16, 3)
    spread = channels.max(dim=1).values - channels.min(dim=1).values
    assert bool((spread > 0.01).all())  # no longer grey
    assert bool((spread < 0.26).all())  # gains 0.75-1.25 of 0.5


def test_a_covered_patch_keeps_its_middle_where_the_index_is() -> None:
    import torch

    trainer = _trainer()
    board = _checkerboard(32)
    covered = trainer.covered(board, _generator(), share=1.0)
    middle = slice(int(SIDE * 0.24) + 1, SIDE - int(SIDE * 0.24) - 1)
    assert torch.equal(covered[..., middle, middle], board[..., middle, middle])
    for patch in covered:
        edges = [patch[:, 0, :], patch[:, -1, :], patch[:, :, 0], patch[:, :, -1]]
        flat = [e for e in edges if float(e.std(dim=1).max()) == 0.0]
        assert len(flat) == 1  # one side covered by one flat colour
        assert not torch.equal(patch, board[0])


def test_harder_augmentation_is_repeatable_and_in_range() -> None:
    import torch

    trainer = _trainer()
    batch = torch.rand(64, 3, SIDE, SIDE, generator=_generator(5))
    first = trainer.augment_harder(batch, _generator(1))
    again = trainer.augment_harder(batch, _generator(1))
    other = trainer.augment_harder(batch, _generator(2))
    assert torch.equal(first, again)
    assert not torch.equal(first, other)
    assert first.shape == batch.shape
    assert float(first.min()) >= 0.0 and float(first.max()) <= 1.0
