"""Detecting cards: a picture in, named boxes out.

The detector runs the exported first-stage network (ONNX Runtime or OpenCV), names each
corner index with the second stage (index classifier, suit reader, context reader) and
reads a photo of any size in tiles where its corners need it. Nothing here imports torch.
"""
