"""Rendering a page: the Jinja templates (autoescaped) and what every page is told.

Every value a template shows is escaped unless the template says `|safe`
(only the QR code's SVG, which segno draws), so a new field is safe by
default. The page shell (templates/base.html) and the stylesheet
(static/director.css) give large type and high contrast for a volunteer
reading a laptop across a busy hall, and print like the paper Master Score
Card. Players on phones see only the pages that show the tournament.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, PackageLoader, Undefined

from kiosk.director import auth
from kiosk.director.web import Request, Response, html_response

if TYPE_CHECKING:
    from kiosk.director.app import App

#: the director's pages (this computer, or a signed-in device)
DIRECTOR_NAV = (
    ("sheet", "/sheet", "Master sheet"),
    ("seating", "/seating", "Seating"),
    ("tables", "/tables", "Tables & kiosks"),
    ("decks", "/decks", "Decks"),
    ("setup", "/setup", "Set-up"),
    ("audit", "/audit", "Changes"),
    ("devices", "/devices", "Devices"),
    ("print", "/print", "Print"),
)
#: what players see on their phones: no director links
PLAYER_NAV = (
    ("standings", "/standings", "Standings"),
    ("sheet", "/sheet", "Master sheet"),
    ("seating", "/seating", "Seating"),
)

STATUS_WORDS = {
    "waiting": "waiting",
    "counted": "from kiosk",
    "corrected": "corrected",
    "conflict": "needs decision",
    "void": "void",
    "bye": "bye",
}

#: the rule books in words (CONTRACTS.md names them by id)
PROFILE_TITLES = {
    "alberta55": "Alberta 55 Plus",
    "general": "General rules",
    "ssc": "SSC league",
    "tournament": "Tournament rules",
}


def profile_title(profile: str) -> str:
    """A rule book's name in words.

    >>> profile_title("alberta55"), profile_title("house")
    ('Alberta 55 Plus rules', 'house rules')
    """
    title = PROFILE_TITLES.get(profile, profile)
    return title if title.endswith("rules") else f"{title} rules"


def when(iso: str | None) -> str:
    """A stored UTC time as this computer's clock shows it: "14:05:09", or "3 Nov 14:05".

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


def clock(seconds: float | None) -> str:
    """A Unix time (sessions keep these) the way `when` shows a stored time."""
    if seconds is None:
        return ""
    return when(datetime.fromtimestamp(seconds, UTC).isoformat())


ENV = Environment(
    loader=PackageLoader("kiosk.director", "templates"),
    autoescape=True,
    undefined=Undefined,
    trim_blocks=False,
)
ENV.filters["when"] = when
ENV.filters["clock"] = clock


def fragment(name: str, **context: Any) -> str:
    """A template with exactly `context` (the live parts, fetched by live.js)."""
    return ENV.get_template(name).render(**context)


def render(
    app: App,
    request: Request,
    name: str,
    title: str,
    here: str = "",
    status: int = 200,
    **context: Any,
) -> Response:
    """A whole page: the template `name` inside base.html, with what every page needs."""
    director = app.is_director(request)
    settings = app.director.settings()
    base = {
        "title": title,
        "here": here,
        "tournament": settings.name if settings else "",
        "nav": DIRECTOR_NAV if director else PLAYER_NAV,
        "is_director": director,
        "signed_in": director and not auth.is_loopback(request.remote),
        "csrf": app.csrf(request) if director else "",
        "status_words": STATUS_WORDS,
        "poll_ms": int(app.poll_seconds * 1000),
        "laptop_info": laptop_info(app, request),
    }
    return html_response(ENV.get_template(name).render(**(base | context)), status)


def laptop_info(app: App, request: Request) -> dict[str, str] | None:
    """The PIN and the kiosks' address, shown only on this computer's own screen."""
    if not auth.is_loopback(request.remote):
        return None
    return {"url": app.public_url, "pin": app.director.pin}
