"""Why the director could not be asked, or its answer not used, as facts: the kiosk's
talks with the director (pairing, the seating, the deck handed out) fail in a few ways,
each a `DirectorFault` with the address and the reason given (the network's, or the
director's own ``error``). The players' words are kiosk.app.words.director_problem_words;
``str()`` is for logs.

>>> problem = DirectorProblem(DirectorFault.SAID_NO, status=404)
>>> problem.fault, problem.reason
(<DirectorFault.SAID_NO: 'said_no'>, 'HTTP 404')
"""

from __future__ import annotations

from enum import StrEnum


class DirectorFault(StrEnum):
    """What went wrong with the director."""

    UNREACHABLE = "unreachable"  #: no answer at all (the network's reason)
    NO_ANSWER = "no_answer"  #: it answered without saying what was asked
    SAID_NO = "said_no"  #: it refused (its reason)
    NOT_UNDERSTOOD = "not_understood"  #: an answer not as documented
    NOT_A_CODE = "not_a_code"  #: a QR code that is no table pairing code
    BAD_FINGERPRINT = "bad_fingerprint"  #: the code's certificate fingerprint is damaged
    OTHER_TABLE = "other_table"  #: it paired another table than the code names
    DAMAGED_FILE = "damaged_file"  #: a deck file whose digest differs from its word
    UNUSABLE_PROFILE = "unusable_profile"  #: a deck profile this kiosk cannot read with


class DirectorProblem(Exception):
    """The director could not be asked, or its answer not used: the `fault`, the address
    tried (``server``, where it matters), and the reason given (``detail``; else the HTTP
    ``status``)."""

    def __init__(self, fault: DirectorFault, *, server: str = "", detail: str = "",
                 status: int | None = None) -> None:
        self.fault = fault
        self.server = server
        self.detail = detail
        self.status = status
        super().__init__(" ".join(str(part) for part in (fault, server, self.reason) if part))

    @property
    def reason(self) -> str:
        """The reason given: the detail, else the HTTP status ('' none)."""
        return self.detail or (f"HTTP {self.status}" if self.status is not None else "")


__all__ = ["DirectorFault", "DirectorProblem"]
