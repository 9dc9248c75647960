"""Screenshots of the director's pages as a volunteer sees them, at 1280x900 and 390x844.

Starts a director in this process on 127.0.0.1 (a fresh data folder), sets up an
8-team round robin, posts some results (one in conflict, one kept by the
director, one ended by time), then saves with Chromium (playwright):
the standings and the master sheet as a player's phone sees them, the game page
after a correction sent with a mistake, the Tables page, the print page as
printed (PDF, and a screenshot with print styles), and the page a 5 MB deck
upload gets. Look at them: this is how issue 59's volunteer fixes were checked.

    python scripts/screenshot_director.py --out /tmp/director-shots
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from kiosk.director.app import App  # noqa: E402
from kiosk.director.server import serve_in_thread  # noqa: E402
from kiosk.director.store import Database  # noqa: E402
from kiosk.director.tournament import Director  # noqa: E402
from tests.director.helpers import Client, pair, result, setup_form  # noqa: E402

TEAMS = ["Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal", "Ivy & Jo", "Kim & Lou",
         "Zoé & Mo", "Pat O'Neil & Sam"]
SIZES = {"wide": (1280, 900), "phone": (390, 844)}


def fill(client: Client) -> None:
    """Set-up and a few results: counted, a conflict, one kept by the director."""
    form = setup_form(entrants="\n".join(TEAMS), name="Spring Fling", game_minutes="20")
    assert client.post_form("/setup", form).status == 303
    seating = client.get("/seating.json").json()
    first = [g for g in seating["seating"] if g["round"] == 1] if "seating" in seating else []
    games = first or [g for g in client.get("/sheet.json").json()["games"] if g["round"] == 1]
    for k, game in enumerate(games):
        kiosk = pair(client, game["table"])
        teams = game["teams"]
        kiosk.post(result(1, teams, [10, 4 + k]), f"r1t{game['table']}")
        if k == 0:  # a second post that disagrees, kept by the director
            kiosk.post(result(1, teams, [7, 10]), f"r1t{game['table']}-again")
            post = client.get(f"/game/1/{game['table']}.json").json()["post_list"][0]["id"]
            client.post_form(f"/game/1/{game['table']}/correct",
                             {"post_id": str(post), "who": "Marg", "why": "teams agreed"})
        if k == 1:  # a conflict left for the director
            kiosk.post(result(1, teams, [8, 10]), f"r1t{game['table']}-again")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "director-shots")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="director-shots-"))
    db = Database(work / "director.sqlite3")
    app = App(Director(db), trust_forwarded=True)
    with serve_in_thread(app) as url, Client(app, url) as laptop, sync_playwright() as play:
        fill(laptop)
        browser = play.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                       args=["--no-sandbox"])
        for size, (width, height) in SIZES.items():
            phone = browser.new_page(viewport={"width": width, "height": height},
                                     extra_http_headers={"X-Forwarded-For": "10.1.2.88"})
            for page in ("standings", "sheet"):
                phone.goto(f"{url}/{page}")
                phone.screenshot(path=str(out / f"{page}-player-{size}.png"), full_page=True)
                wide = phone.evaluate("document.documentElement.scrollWidth")
                print(f"{page} ({size}, a player's phone): page {wide} px wide for {width}")
            desk = browser.new_page(viewport={"width": width, "height": height})
            desk.goto(f"{url}/sheet")
            desk.screenshot(path=str(out / f"sheet-director-{size}.png"), full_page=True)
            desk.goto(f"{url}/game/1/2")
            desk.fill("#points_a", "10")
            desk.fill("#points_b", "10")  # impossible: a tie in a game to 10
            desk.fill("#fix-who", "Marg")
            desk.fill("#fix-why", "kiosk missed a hand")
            desk.click("#correct button[type=submit]")
            desk.screenshot(path=str(out / f"game-mistake-{size}.png"), full_page=True)
            print(f"game page after a mistake ({size}): points",
                  desk.input_value("#points_a"), desk.input_value("#points_b"),
                  "why:", desk.input_value("#fix-why"))
            desk.goto(f"{url}/tables")
            desk.screenshot(path=str(out / f"tables-{size}.png"))
            desk.goto(f"{url}/decks")
            desk.set_input_files("form[action='/decks'] input[type=file]", files=[
                {"name": "huge.npz", "mimeType": "application/octet-stream",
                 "buffer": b"\0" * (5 * 1024 * 1024)}])
            desk.click("form[action='/decks'] button[type=submit]")
            desk.screenshot(path=str(out / f"deck-too-large-{size}.png"))
            print(f"5 MB deck upload ({size}):", desk.inner_text("main")[:160].replace("\n", " "))
            desk.emulate_media(media="print")
            desk.goto(f"{url}/print")
            desk.screenshot(path=str(out / f"print-{size}.png"), full_page=True)
            desk.emulate_media(media="screen")
        printing = browser.new_page()
        printing.goto(f"{url}/print")
        printing.pdf(path=str(out / "print.pdf"), format="A4")
        browser.close()
        print(json.dumps(sorted(p.name for p in out.iterdir())))
    db.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
