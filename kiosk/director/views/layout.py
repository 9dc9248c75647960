"""The page shell every director page shares: large type, plain words, print CSS.

The director is often a volunteer reading a laptop across a busy hall: the
base type is large, contrast is high, buttons are big, and printing drops the
navigation and colours so the sheet looks like the paper Master Score Card.
"""

from __future__ import annotations

import html
from datetime import datetime
from typing import Any


def e(value: Any) -> str:
    """Escape anything for HTML text or a quoted attribute.

    >>> e('<Ann & "Bob">')
    '&lt;Ann &amp; &quot;Bob&quot;&gt;'
    """
    return html.escape("" if value is None else str(value), quote=True)


def when(iso: str | None) -> str:
    """A stored UTC time as this computer's clock shows it: "14:05", or "3 Nov 14:05".

    The database keeps UTC (ISO 8601); the director reads the hall's clock.
    """
    if not iso:
        return ""
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return iso
    if moment.date() == datetime.now().astimezone().date():
        return moment.strftime("%H:%M:%S")
    return f"{moment.day} {moment.strftime('%b %H:%M')}"


CSS = """
:root { --ink: #111; --muted: #444; --line: #777; --paper: #fff; --accent: #0b4f9c;
        --ok: #e3f4e3; --warn: #fff1c2; --bad: #fde0dc; }
* { box-sizing: border-box; }
html { font-size: 20px; }
body { margin: 0; font-family: "Atkinson Hyperlegible", Verdana, "DejaVu Sans", sans-serif;
       color: var(--ink); background: var(--paper); line-height: 1.45; }
header.top { background: #0b2e59; color: #fff; padding: .5rem 1rem; display: flex;
             flex-wrap: wrap; align-items: center; gap: .4rem 1.2rem; }
header.top .title { font-size: 1.3rem; font-weight: bold; margin-right: auto; }
header.top a { color: #fff; font-size: 1.05rem; padding: .35rem .7rem; border-radius: .4rem;
               text-decoration: none; border: 2px solid transparent; }
header.top a:hover, header.top a:focus { border-color: #fff; }
header.top a.here { background: #fff; color: #0b2e59; font-weight: bold; }
main { padding: 1rem 1.2rem 3rem; max-width: 78rem; }
h1 { font-size: 1.7rem; margin: .3rem 0 .8rem; }
h2 { font-size: 1.35rem; margin: 1.6rem 0 .6rem; }
p.lead { font-size: 1.1rem; color: var(--muted); margin-top: 0; }
table { border-collapse: collapse; margin: .4rem 0 1rem; }
th, td { border: 2px solid var(--line); padding: .35rem .6rem; text-align: left;
         vertical-align: top; }
th { background: #e8eef6; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
th.game { text-align: center; }
td.cell { text-align: center; min-width: 4.2rem; font-variant-numeric: tabular-nums; }
td.cell .pts { font-size: 1.25rem; font-weight: bold; display: block; }
td.cell .vs { font-size: .7rem; color: var(--muted); display: block; }
td.W { background: var(--ok); } td.T { background: #eef; }
td.conflict, tr.conflict td { background: var(--warn); }
.badge { display: inline-block; padding: .05rem .45rem; border-radius: .35rem; font-size: .8rem;
         border: 1px solid var(--line); background: #f4f4f4; white-space: nowrap; }
.badge.kiosk { background: var(--ok); } .badge.director { background: #e4e0ff; }
.badge.conflict { background: var(--warn); font-weight: bold; }
.badge.void { background: var(--bad); }
.notice { border: 3px solid #b58900; background: var(--warn); padding: .6rem .9rem;
          border-radius: .5rem; margin: .8rem 0; }
.notice.bad { border-color: #b3261e; background: var(--bad); }
.notice.ok { border-color: #2e7d32; background: var(--ok); }
form.stack label { display: block; font-weight: bold; margin: .9rem 0 .25rem; }
form.stack .hint { font-weight: normal; color: var(--muted); font-size: .9rem; }
input, select, textarea, button { font: inherit; font-size: 1rem; }
input[type=text], input[type=number], input[type=password], select, textarea {
  padding: .4rem .55rem; border: 2px solid var(--line); border-radius: .4rem; max-width: 100%; }
textarea { width: 34rem; height: 12rem; }
input[type=checkbox], input[type=radio] { transform: scale(1.5); margin: 0 .6rem 0 .2rem; }
.choice { display: block; margin: .35rem 0; font-weight: normal !important; }
button, a.button { display: inline-block; background: var(--accent); color: #fff;
  border: 0; border-radius: .5rem; padding: .55rem 1.2rem; font-weight: bold;
  cursor: pointer; text-decoration: none; margin: .2rem .4rem .2rem 0; }
button.quiet, a.button.quiet { background: #fff; color: var(--accent);
  border: 2px solid var(--accent); }
button.danger { background: #b3261e; }
.cards { display: flex; flex-wrap: wrap; gap: 1rem; }
.card { border: 2px solid var(--line); border-radius: .6rem; padding: .7rem 1rem;
        width: 17rem; break-inside: avoid; }
.card h3 { margin: 0 0 .3rem; font-size: 1.4rem; }
.code { font-family: "DejaVu Sans Mono", monospace; font-size: 1.8rem; letter-spacing: .2rem;
        font-weight: bold; }
.qr svg { width: 100%; height: auto; aspect-ratio: 1 / 1; display: block; }
.muted { color: var(--muted); }
.live { font-size: .9rem; color: var(--muted); }
img.frame { max-width: 22rem; border: 2px solid var(--line); margin: .3rem .3rem 0 0; }
@media print {
  html { font-size: 12pt; }
  header.top, .noprint, form, button, a.button { display: none !important; }
  main { padding: 0; max-width: none; }
  th { background: none; }
  td.W, td.T, td.conflict, tr.conflict td { background: none; }
  a { color: inherit; text-decoration: none; }
  .card { page-break-inside: avoid; }
}
"""

NAV = (
    ("sheet", "/sheet", "Master sheet"),
    ("seating", "/seating", "Seating"),
    ("tables", "/tables", "Tables & kiosks"),
    ("setup", "/setup", "Set-up"),
    ("audit", "/audit", "Changes"),
    ("print", "/print", "Print"),
)


def page(title: str, body: str, here: str = "", tournament: str = "", script: str = "") -> str:
    """A whole HTML page around `body` (already escaped HTML)."""
    links = "".join(
        f'<a href="{href}"{" class=here" if key == here else ""}>{label}</a>'
        for key, href, label in NAV
    )
    heading = e(tournament) if tournament else "Euchre director"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)} · {heading}</title>
<style>{CSS}</style></head>
<body><header class="top"><span class="title">{heading}</span><nav>{links}</nav></header>
<main>{body}</main>{f"<script>{script}</script>" if script else ""}</body></html>"""


def notice(text: str, kind: str = "") -> str:
    return f'<div class="notice {kind}" role="status">{text}</div>'


def hidden(name: str, value: Any) -> str:
    return f'<input type="hidden" name="{e(name)}" value="{e(value)}">'
