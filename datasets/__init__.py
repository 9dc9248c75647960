"""Training data for the card detector: card art, synthetic table scenes, data YAML.

Run from the repository root (``python -m datasets.generate ...``). Nothing here is
imported by the kiosk at run time.
"""
