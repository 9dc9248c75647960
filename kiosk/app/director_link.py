"""The kiosk and the director: pairing (by the QR code held up to the camera, or typed),
and the seating the director sends (who plays at this table, under which rules)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kiosk.app import words
from kiosk.table.setup import TableSetup, default_setup

if TYPE_CHECKING:
    from kiosk.app.camera_setup import CameraSetup
    from kiosk.app.deck_setup import DeckSetup
    from kiosk.table.assignment import Getter
    from kiosk.table.session import TableSession


class DirectorLink:
    """The presenter's intents that speak to the director (kiosk.app.presenter)."""

    session: TableSession
    camera_setup: CameraSetup
    deck_setup: DeckSetup

    def _say(self, message: str) -> bool:
        raise NotImplementedError

    def _do(self, action: Callable[[], Any]) -> bool:
        raise NotImplementedError

    def pairing_status(self) -> str:
        """Whether results can reach the director, in plain words."""
        outbox = self.session.outbox
        if outbox is None:
            return "No director: results stay on this kiosk."
        server = outbox.config().get("server")
        if not server:
            return "Not paired with the director yet: results wait on this kiosk."
        return f"Paired with the director at {server}."

    def pair(self, server: str, code: str, pairer: Callable[[str, str], Any] | None = None,
             fetcher: Callable[[str, str], dict[str, Any]] | None = None) -> bool:
        """Pair with the director by the code its Tables page shows, then fill in the
        set-up (table, teams, rules) from what the director says this table plays."""
        from kiosk.table.pairing import PairingError, pair_with_code

        outbox = self.session.outbox
        if outbox is None:
            return self._say("This kiosk has no outbox to send results with.")
        if not server.strip() or not code.strip():
            return self._say("Type the director's address and the table's code.")
        try:
            paired = (pairer or pair_with_code)(server.strip(), code.strip().upper())
        except PairingError as problem:
            return self._say(words.director_problem_words(problem))
        return self._paired(paired, fetcher)

    def pair_from_camera(self, redeemer: Callable[[Any], Any] | None = None,
                         fetcher: Callable[[str, str], dict[str, Any]] | None = None) -> bool:
        """Pair by the QR code the director's Tables page shows, held up to the camera:
        nothing to type. Reads the latest camera picture, then fills in the set-up."""
        from kiosk.table.pairing import PairingError, pair_from_qr_image, redeem

        if self.session.outbox is None:
            return self._say("This kiosk has no outbox to send results with.")
        frame = self.camera_setup.frame
        if frame is None:
            return self._say("No camera picture yet: type the director's address and "
                             "the table's code instead.")
        invite = pair_from_qr_image(frame)
        if invite is None:
            return self._say("No table QR code in the camera's view. Hold the director's "
                             "QR code up to the camera and tap again.")
        try:
            paired = (redeemer or redeem)(invite)
        except PairingError as problem:
            return self._say(words.director_problem_words(problem))
        return self._paired(paired, fetcher)

    def _paired(self, paired: Any,
                fetcher: Callable[[str, str], dict[str, Any]] | None) -> bool:
        """Point the outbox at the director and take this table's seating from it."""
        outbox = self.session.outbox
        assert outbox is not None
        outbox.configure(paired.server, paired.token)
        current = self.session.setup or default_setup()
        setup = replace(current, table=paired.table,
                        tournament=paired.tournament or current.tournament)
        setup, missing = assigned(setup, paired.server, paired.token, fetcher)
        note = (f"Paired, but the seating did not come: {missing} Check the names."
                if missing else "")
        if self.session.started_at is None and not self._do(
                lambda: self.session.configure(setup)):
            return False
        self.fetch_deck()  # (again, a few bytes, where pairing gave it this table)
        if note:
            self._say(note)
        return True

    def paired(self) -> bool:
        outbox = self.session.outbox
        config = outbox.config() if outbox is not None else {}
        return bool(config.get("server") and config.get("token"))

    def fetch_seating(self, fetcher: Callable[[str, str], dict[str, Any]] | None = None
                      ) -> bool:
        """A paired kiosk before its game: the teams and rules this table plays now, from
        the director (a new game started with `--new-game`, or a restart)."""
        outbox = self.session.outbox
        if outbox is None or not self.paired() or self.session.started_at is not None:
            return False
        config = outbox.config()
        current = self.session.setup or default_setup()
        setup, problem = assigned(current, config["server"], config["token"], fetcher)
        if problem:
            return self._say(f"The seating did not come from the director: {problem} "
                             "Type the names, or tap 'Get the teams' again.")
        if setup != self.session.setup:
            return self._do(lambda: self.session.configure(setup))
        return True

    def fetch_deck(self, get: Getter | None = None) -> bool:
        """A paired kiosk that reads with deck profiles takes the one the director handed
        to its table (kiosk.table.deck_handout), at a start, a pairing and each new game;
        downloaded only when it changed. True when the table reads with the director's
        word now; a refused profile is said in one line and the table reads as before."""
        from kiosk.table.deck_handout import NEW, REFUSED, TAKEN_BACK, UNCHANGED, take_handout
        from kiosk.table.deck_keeping import DIRECTOR, TABLE, deck_path

        outbox = self.session.outbox
        if (outbox is None or not self.paired() or not self.deck_setup.available
                or deck_path(self.session) is None):
            return False
        config = outbox.config()
        try:
            handout = take_handout(self.session, config["server"], config["token"],
                                   self.deck_setup.read_with, get)
        except OSError as failure:  # a full disk: said, never raised into the session
            return self._say(f"The director's deck could not be kept: {failure}")
        if handout.outcome == REFUSED:
            assert handout.problem is not None
            problem = words.director_problem_words(handout.problem).rstrip(".")
            return self._say(f"The director's deck ({handout.name}) was not used: {problem}. "
                             "This table reads as before.")
        if handout.outcome == NEW or (handout.outcome == UNCHANGED
                                      and self.deck_setup.source == DIRECTOR):
            self.deck_setup.handed(DIRECTOR, handout.name)  # (renamed, perhaps)
        elif handout.outcome == TAKEN_BACK:
            self.deck_setup.handed(TABLE if self.deck_setup.detector.deck else "")
        return handout.outcome in (NEW, TAKEN_BACK, UNCHANGED)


def assigned(setup: TableSetup, server: str, token: str,
              fetcher: Callable[[str, str], dict[str, Any]] | None = None,
              after: int = 0) -> tuple[TableSetup, str]:
    """The set-up with the director's seating filled in, and the problem ('' if none)."""
    from kiosk.table.assignment import AssignmentError, fetch_assignment, setup_from_assignment

    try:
        data = (fetcher or fetch_assignment)(server, token)
    except AssignmentError as problem:
        return setup, words.director_problem_words(problem)
    return setup_from_assignment(setup, data, after=after), ""
