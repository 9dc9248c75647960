"""The euchre table kiosk: reads cards at the table, referees, scores, reports."""

__version__ = "0.1.0"
