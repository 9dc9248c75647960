"""ui_run.py is a program the UI test starts under Xvfb, not a module to import here
(importing it opens a Kivy window)."""

collect_ignore = ["ui_run.py"]
