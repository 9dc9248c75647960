"""What each screen shows, as frozen values: the presenter builds them, the screens copy them.

Equal views mean an unchanged screen, so a screen redraws only when its view changes.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SetupView:
    tournament: str
    table: str
    round: str
    team_ns: str
    team_ew: str
    profile: str
    profiles: tuple[tuple[str, str], ...]  # (id, words) for the chooser
    points_to_win: int
    minutes: int
    four_colour: bool
    profile_notes: str
    first_dealer: str | None
    pairing: str = ""


@dataclass(frozen=True)
class ButtonView:
    label: str
    allowed: bool
    reason: str
    index: int


@dataclass(frozen=True)
class BiddingView:
    title: str  # "East to bid"
    dealer: str
    turn_up: str | None
    turn_up_words: str
    round: int
    buttons: tuple[ButtonView, ...]
    history: tuple[str, ...]
    explain: str  # the refused options, each in a sentence
    hint: str  # a rule the camera cannot check, as a reminder
    teams: dict[str, str]
    scores: dict[str, int]
    undo: str = ""  # the Undo button's words ('' hides it)
    director_called: bool = False
    turn_up_note: str = ""  # 'Read by the camera': the players see where it came from


@dataclass(frozen=True)
class SeatView:
    seat: str
    name: str
    card: str | None
    on_turn: bool
    sitting_out: bool


@dataclass(frozen=True)
class LiveView:
    title: str
    trump: str
    contract: str
    seats: tuple[SeatView, ...]
    tricks: dict[str, int]
    teams: dict[str, str]
    trick_number: int
    notices: tuple[str, ...]
    scores: dict[str, int]
    clock: str
    won_by: str = ""
    camera: bool = False
    trump_suit: str = ""
    director_called: bool = False
    turn: str = ""  # the seat on turn, 'North', or '' (shown in big type)
    undo: str = ""  # the last bid may still be taken back before the first card
    current_trick: int = 1  # the trick a tap on a seat's card fixes
    recalibrate: bool = False  # the camera moved: the way to the camera set-up is shown
    #: the camera's second thought about a finished trick's card, put to the players
    ask: str = ""
    #: the same, short enough for the live screen's message box (the question in full is
    #: on the correction screen, a tap away)
    ask_note: str = ""
    #: the camera sends no picture (stopped, or the video ended): said, with what to do
    camera_note: str = ""


@dataclass(frozen=True)
class RenegeView:
    headline: str
    story: tuple[str, ...]
    failed_card: str | None
    proof_card: str | None
    trick: int
    proven_at: int
    frames: tuple[str, ...]
    options: tuple[ButtonView, ...]
    director_called: bool
    chooser: str = ""  # who decides, in a heading: 'Ann & Bob (North-South) choose'
    #: the option tapped, put again before it counts ('' until one is tapped)
    confirm: str = ""


@dataclass(frozen=True)
class CorrectionView:
    rows: tuple[tuple[int, tuple[tuple[str, str | None], ...]], ...]  # trick -> (seat, card)
    selected: tuple[int, str] | None
    prompt: str
    log: tuple[str, ...]
    #: a finished trick's card about to change: what it changes, for a yes or a no
    question: str = ""
    undo: str = ""  # the Undo button's words ('' hides it)


@dataclass(frozen=True)
class ScoreView:
    teams: dict[str, str]
    scores: dict[str, int]
    points_to_win: int
    hand_summary: str
    clock: str
    clock_note: str
    can_next: bool
    can_end: bool
    hands: tuple[str, ...]


@dataclass(frozen=True)
class GameEndView:
    headline: str
    teams: dict[str, str]
    scores: dict[str, int]
    confirmed: dict[str, bool]
    sent: bool
    note: str
    #: the team whose agreement is put again before it counts ('' none)
    agreeing: str = ""
    question: str = ""
    director_called: bool = False
    #: the table's next game: paired, the director seats it; else the players choose
    paired: bool = False
