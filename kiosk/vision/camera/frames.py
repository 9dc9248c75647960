"""Frame sources: a camera, a video file, a folder of images, all as ``(t, image)``.

Why one shape: the reader only needs a picture and its time. Video files give
their own clock (frame index / fps) so a recorded hand reads the same on any
machine; a camera gives seconds since it opened; an image folder is a
slideshow at a chosen rate (handy for photos taken at a real table).

>>> import numpy as np, tempfile, cv2, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> for i in range(3):
...     _ = cv2.imwrite(str(d / f"f{i}.png"), np.zeros((4, 6, 3), np.uint8))
>>> [(f.t, f.image.shape) for f in open_frames(d, fps=2)]
[(0.0, (4, 6, 3)), (0.5, (4, 6, 3)), (1.0, (4, 6, 3))]
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")


class FrameSourceError(OSError):
    """A source that cannot be opened or read; the message names it."""


@dataclass(frozen=True)
class Frame:
    """One picture (BGR, as OpenCV gives it) and its time in seconds from the start."""

    t: float
    image: np.ndarray
    index: int = 0


def video_frames(path: str | Path, fps: float | None = None) -> Iterator[Frame]:
    """Frames of a video file, timed by the file's frame rate (or ``fps`` if given)."""
    import cv2

    capture = cv2.VideoCapture(str(path))
    if not capture.isOpened():
        raise FrameSourceError(f"cannot open video {path}")
    rate = fps or capture.get(cv2.CAP_PROP_FPS) or 15.0
    index = 0
    try:
        while True:
            ok, image = capture.read()
            if not ok:
                break
            yield Frame(t=index / rate, image=image, index=index)
            index += 1
    finally:
        capture.release()
    if index == 0:
        raise FrameSourceError(f"no frames in video {path}")


def video_fps(path: str | Path) -> float:
    """The frame rate a video file declares (15 if it declares none)."""
    import cv2

    capture = cv2.VideoCapture(str(path))
    try:
        return float(capture.get(cv2.CAP_PROP_FPS) or 15.0)
    finally:
        capture.release()


def image_folder_frames(folder: str | Path, fps: float = 1.0) -> Iterator[Frame]:
    """The images of a folder in name order, ``1 / fps`` seconds apart."""
    import cv2

    files = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise FrameSourceError(f"no images in {folder}")
    for index, path in enumerate(files):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise FrameSourceError(f"cannot read image {path}")
        yield Frame(t=index / fps, image=image, index=index)


def camera_frames(device: int = 0, size: tuple[int, int] | None = None,
                  max_failures: int = 30) -> Iterator[Frame]:
    """Live frames from a camera, timed by the monotonic clock since it opened."""
    import cv2

    capture = cv2.VideoCapture(device)
    if not capture.isOpened():
        raise FrameSourceError(f"cannot open camera {device}")
    if size is not None:
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
    start = time.monotonic()
    index = failures = 0
    try:
        while failures < max_failures:
            ok, image = capture.read()
            if not ok:
                failures += 1
                continue
            failures = 0
            yield Frame(t=time.monotonic() - start, image=image, index=index)
            index += 1
    finally:
        capture.release()


def open_frames(source: str | Path | int, fps: float | None = None) -> Iterator[Frame]:
    """Any source: a camera number, a folder of images, or a video file."""
    if isinstance(source, int) or (isinstance(source, str) and source.isdigit()):
        return camera_frames(int(source))
    path = Path(source)
    if path.is_dir():
        return image_folder_frames(path, fps or 1.0)
    if not path.exists():
        raise FrameSourceError(f"no such file: {path}")
    return video_frames(path, fps)
