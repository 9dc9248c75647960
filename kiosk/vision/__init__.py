"""Vision: frames in, card sightings and trick events out.

The detector (`kiosk.vision.detector`) runs an exported ONNX model with ONNX Runtime or
OpenCV; nothing here imports torch or ultralytics. Submodules are imported where used,
so `import kiosk.vision` stays cheap.
"""
