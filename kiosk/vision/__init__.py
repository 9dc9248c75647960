"""Vision: frames in, card sightings and trick events out.

Its rooms, by job:

- ``camera``: frame sources, the calibration from picture to table, the mat;
- ``cards``: detecting cards (the detector, an exported ONNX model run with ONNX Runtime
  or OpenCV, and its second stage);
- ``decks``: learning a table's own deck (profiles, enrolment, learning in play);
- ``reader``: reading tricks from the boxes, frame by frame;
- ``fives``: reading the 5s the players keep score with.

``pipeline`` joins them (frames to events); ``events`` are what vision tells the table and
``wording`` says them. Nothing here imports torch or ultralytics at run time. Submodules
are imported where used, so `import kiosk.vision` stays cheap.
"""
