"""An EGN file as frozen values: read from any EGN 1.0 to 1.4, written as 1.4.

Reading checks what the schema (``../shared/egn/schemas/egn-schema-v1.json``)
checks and what the kiosk needs besides, without the ``jsonschema`` package: every
problem is one `EgnError` naming its JSON path.  Cards stay EGN tokens here (``R``
and ``L`` mean a bower only once trump is known); `kiosk.egn.records` turns them into
the engine's cards.

EGN 1.0 files (older than the schema) name the dealt hands ``player_cards``, list an
empty ``kitty`` and state each deal's ``initialLead``; they are read as the same game,
and written as 1.4 without them (``egn-upgrade`` does the same).

>>> game = EgnGame.from_json({"fileType": "Euchre Game Notation", "version": "1.4",
...     "metadata": {"players": ["A", "B", "C", "D"], "initialScore": [0, 0]},
...     "deals": [{"dealNumber": 0, "initialState": {"dealer": 3, "upCard": "Jd"},
...                "phases": [{"phaseNumber": 0, "type": "EUCHRE_BIDDING",
...                            "calls": ["Pass", "Order"], "isAlone": False}]}]})
>>> game.deals[0].dealer, game.deals[0].bidding.calls
(<Seat.W: 'W'>, ('Pass', 'Order'))
>>> EgnGame.from_json(game.to_json()) == game
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kiosk.egn.notation import ORDER, PASS, EgnError, seat_number, seat_of
from kiosk.egn.ruleset import EgnRuleset
from kiosk.rules.cards import Seat

FILE_TYPE = "Euchre Game Notation"
#: the version the kiosk writes
VERSION = "1.4"
#: versions the schema covers; older ones are read as EGN 1.0
SCHEMA_VERSION = re.compile(r"^1\.[234](?:\.\d+)?$")
LEGACY_VERSION = re.compile(r"^1\.[01](?:\.\d+)?$")
CARD = re.compile(r"^([78N9TJQKAX][SsHhCcDdxtngh]|[LRB])$")
CALLS = (PASS, ORDER, "s", "h", "d", "c", "n", "x")
BIDDING = "EUCHRE_BIDDING"
TRICK_PLAY = "TRICK_PLAY"

Annotations = dict[str, list[str]]


@dataclass(frozen=True)
class Bidding:
    """An ``EUCHRE_BIDDING`` phase: the calls from the dealer's left, in order."""

    calls: tuple[str, ...]
    alone: bool = False
    discard: str | None = None
    annotations: Annotations | None = None
    number: int = 0


@dataclass(frozen=True)
class TrickPlay:
    """A ``TRICK_PLAY`` phase: each trick's cards in the order they fell, no seats."""

    tricks: tuple[tuple[str, ...], ...]
    annotations: Annotations | None = None
    #: the phase's own ``isAlone``, kept as written (None: absent)
    alone: bool | None = None
    number: int = 1


Phase = Bidding | TrickPlay


@dataclass(frozen=True)
class AlternativeLine:
    """Analysis: another way the deal could have gone from decision `branch`."""

    branch: int
    phases: tuple[Phase, ...]


@dataclass(frozen=True)
class EgnDeal:
    """One deal; `bidding` or `play` is None where the file stops before it."""

    number: int
    dealer: Seat
    up_card: str
    bidding: Bidding | None
    play: TrickPlay | None
    #: the hands as dealt, seat 0 first, as written (an empty list: unknown)
    player_cards: tuple[tuple[str, ...], ...] | None = None
    alternatives: tuple[AlternativeLine, ...] | None = None
    #: EGN 1.0's stated first leader (1.4 leaves it to the rules)
    initial_lead: Seat | None = None


@dataclass(frozen=True)
class DealNotes:
    """What a deal holds beyond a hand record: its number, annotations, analysis lines, and
    dealt hands a record cannot take (some unknown).  `kiosk egn read` prints them beside
    each record under ``"egn"``, in EGN's own names, and `kiosk egn write` puts them back.

    >>> notes = DealNotes.from_json({"dealNumber": 4, "playAnnotations": {"2": ["[?]Hm"]}})
    >>> notes.to_json()
    {'dealNumber': 4, 'playAnnotations': {'2': ['[?]Hm']}}
    """

    number: int | None = None
    call_annotations: Annotations | None = None
    play_annotations: Annotations | None = None
    alternatives: tuple[AlternativeLine, ...] | None = None
    player_cards: tuple[tuple[str, ...], ...] | None = None

    @classmethod
    def of(cls, deal: EgnDeal, with_hands: bool) -> DealNotes:
        """A deal's notes; `with_hands`: keep its dealt hands (a record cannot hold them)."""
        return cls(
            number=deal.number,
            call_annotations=deal.bidding.annotations if deal.bidding else None,
            play_annotations=deal.play.annotations if deal.play else None,
            alternatives=deal.alternatives,
            player_cards=deal.player_cards if with_hands else None,
        )

    @classmethod
    def from_json(cls, data: object, where: str = "egn") -> DealNotes:
        """Read the ``"egn"`` object of a hand record; an `EgnError` names the bad field."""
        node = _object(data, where)
        number = None if "dealNumber" not in node else _int(node["dealNumber"],
                                                             f"{where}.dealNumber")
        calls = node.get("callAnnotations")
        plays = node.get("playAnnotations")
        lines = node.get("alternativeLines")
        hands = node.get("playerCards")
        return cls(
            number=number,
            call_annotations=None if calls is None
            else _annotations(calls, f"{where}.callAnnotations"),
            play_annotations=None if plays is None
            else _annotations(plays, f"{where}.playAnnotations"),
            alternatives=None if lines is None else tuple(
                _alternative(line, f"{where}.alternativeLines[{i}]", False)
                for i, line in enumerate(_list(lines, f"{where}.alternativeLines", 50))),
            player_cards=None if hands is None else _player_cards(hands, f"{where}.playerCards"),
        )

    def to_json(self) -> dict[str, Any]:
        """The notes in EGN's names, leaving out what is absent."""
        out: dict[str, Any] = {}
        if self.number is not None:
            out["dealNumber"] = self.number
        if self.call_annotations is not None:
            out["callAnnotations"] = self.call_annotations
        if self.play_annotations is not None:
            out["playAnnotations"] = self.play_annotations
        if self.alternatives is not None:
            out["alternativeLines"] = [_alternative_json(line) for line in self.alternatives]
        if self.player_cards is not None:
            out["playerCards"] = [list(hand) for hand in self.player_cards]
        return out


@dataclass(frozen=True)
class EgnGame:
    """A whole EGN game: its metadata (kept as written), the rules, the deals."""

    metadata: dict[str, Any]
    ruleset: EgnRuleset
    deals: tuple[EgnDeal, ...]
    version: str = VERSION

    @property
    def initial_score(self) -> tuple[int, int]:
        """N-S's and E-W's points before the first deal."""
        score = self.metadata.get("initialScore") or [0, 0]
        return int(score[0]), int(score[1])

    @classmethod
    def from_json(cls, data: object) -> EgnGame:
        """Read a decoded EGN file; an `EgnError` names the first problem's JSON path."""
        node = _object(data, "$")
        _only(node, "$", {"fileType", "version", "metadata", "deals"})
        for key in ("fileType", "version", "metadata", "deals"):
            if key not in node:
                raise EgnError(f"$.{key}: missing (is this an EGN file?)")
        if node["fileType"] != FILE_TYPE:
            raise EgnError(f"$.fileType: {node['fileType']!r}, not {FILE_TYPE!r}")
        version = node["version"]
        if not isinstance(version, str) or not (
            SCHEMA_VERSION.match(version) or LEGACY_VERSION.match(version)
        ):
            raise EgnError(f"$.version: {version!r} is not an EGN version the kiosk reads"
                           " (1.0 to 1.4)")
        legacy = bool(LEGACY_VERSION.match(version))
        metadata = _metadata(node["metadata"])
        ruleset = EgnRuleset.from_json(metadata.get("ruleset"))
        deals = _list(node["deals"], "$.deals", 100)
        read = tuple(_deal(deal, f"$.deals[{i}]", legacy) for i, deal in enumerate(deals))
        if ruleset.num_deals and len(read) > ruleset.num_deals:
            raise EgnError(
                f"$.deals[{ruleset.num_deals}]: num_deals: the game is {ruleset.num_deals} deals,"
                f" the file has {len(read)}"
            )
        return cls(metadata, ruleset, read, version)

    def to_json(self) -> dict[str, Any]:
        """The game as EGN 1.4, valid against the schema."""
        return {
            "fileType": FILE_TYPE,
            "version": VERSION,
            "metadata": dict(self.metadata),
            "deals": [_deal_json(deal) for deal in self.deals],
        }


# --- reading -----------------------------------------------------------------------
def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false"}.get(
        type(value), "null" if value is None else "a number"
    )


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise EgnError(f"{where}: an object, not {_kind(value)}")
    return value


def _list(value: object, where: str, most: int) -> list[Any]:
    if not isinstance(value, list):
        raise EgnError(f"{where}: a list, not {_kind(value)}")
    if len(value) > most:
        raise EgnError(f"{where}: {len(value)} items (EGN allows {most})")
    return value


def _only(node: dict[str, Any], where: str, allowed: set[str]) -> None:
    for key in node:
        if key not in allowed:
            raise EgnError(f"{where}.{key}: not a field EGN has here")


def _int(value: object, where: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EgnError(f"{where}: a whole number, not {_kind(value)}")
    if value < low or (high is not None and value > high):
        raise EgnError(f"{where}: {value} is out of range ({low} to {high if high else 'more'})")
    return value


def _text(value: object, where: str, most: int) -> str:
    if not isinstance(value, str):
        raise EgnError(f"{where}: a string, not {_kind(value)}")
    if len(value) > most:
        raise EgnError(f"{where}: {len(value)} characters (EGN allows {most})")
    return value


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise EgnError(f"{where}: true or false, not {_kind(value)}")
    return value


def _card(value: object, where: str) -> str:
    if not isinstance(value, str) or not CARD.match(value):
        raise EgnError(f"{where}: {value!r} is not an EGN card (like 'Jd' or 'Tc')")
    return value


def _metadata(value: object) -> dict[str, Any]:
    where = "$.metadata"
    node = _object(value, where)
    _only(node, where, {"gameId", "title", "description", "players", "initialScore",
                        "finalScore", "date", "ruleset"})
    for key, most in (("gameId", 64), ("title", 128), ("description", 1024), ("date", 64)):
        if key in node:
            _text(node[key], f"{where}.{key}", most)
    if "players" not in node:
        raise EgnError(f"{where}.players: missing (the players' names, seat 0 first)")
    for i, player in enumerate(_list(node["players"], f"{where}.players", 10)):
        at = f"{where}.players[{i}]"
        if isinstance(player, dict):
            _only(player, at, {"id", "name", "playerIds"})
            _text(player.get("name"), f"{at}.name", 64)
        else:
            _text(player, at, 64)
    if "initialScore" not in node:
        raise EgnError(f"{where}.initialScore: missing (N-S's and E-W's points at the start)")
    for key in ("initialScore", "finalScore"):
        if key in node:
            score = _list(node[key], f"{where}.{key}", 2)
            for i, points in enumerate(score):
                _int(points, f"{where}.{key}[{i}]", low=-1000)
            if key == "initialScore" and len(score) != 2:
                raise EgnError(f"{where}.initialScore: two scores, N-S's then E-W's")
    return node


def _annotations(value: object, where: str) -> Annotations:
    node = _object(value, where)
    out: Annotations = {}
    for key, notes in node.items():
        if not key.isdigit():
            raise EgnError(f"{where}.{key}: annotation keys are decision numbers")
        out[key] = [_text(note, f"{where}.{key}[{i}]", 1024)
                    for i, note in enumerate(_list(notes, f"{where}.{key}", 50))]
    return out


def _phase(value: object, where: str, legacy: bool) -> Phase:
    node = _object(value, where)
    kind = node.get("type")
    number = _int(node.get("phaseNumber", 0), f"{where}.phaseNumber", low=-(2**31))
    if kind == BIDDING:
        _only(node, where, {"phaseNumber", "type", "calls", "isAlone", "aloneDefender",
                            "discard", "cardExchanges", "callAnnotations"})
        calls = []
        for i, call in enumerate(_list(node.get("calls"), f"{where}.calls", 16)):
            if call not in CALLS:
                raise EgnError(f"{where}.calls[{i}]: {call!r} is not an EGN call")
            calls.append(call)
        defender = node.get("aloneDefender", -1)
        if _int(defender, f"{where}.aloneDefender", low=-1) != -1:
            raise EgnError(f"{where}.aloneDefender: defending alone (defend_alone):"
                           " not a rule the kiosk plays")
        if node.get("cardExchanges"):
            raise EgnError(f"{where}.cardExchanges: exchanging cards (partners_best, go_under):"
                           " not a rule the kiosk plays")
        return Bidding(
            calls=tuple(calls),
            alone=_bool(node.get("isAlone", False), f"{where}.isAlone"),
            discard=None if "discard" not in node else _card(node["discard"], f"{where}.discard"),
            annotations=None if "callAnnotations" not in node
            else _annotations(node["callAnnotations"], f"{where}.callAnnotations"),
            number=number,
        )
    if kind == TRICK_PLAY:
        allowed = {"phaseNumber", "type", "tricks", "isAlone", "playAnnotations"}
        _only(node, where, allowed | ({"initialLead"} if legacy else set()))
        tricks = tuple(
            tuple(_card(card, f"{where}.tricks[{t}][{c}]")
                  for c, card in enumerate(_list(trick, f"{where}.tricks[{t}]", 10)))
            for t, trick in enumerate(_list(node.get("tricks"), f"{where}.tricks", 10))
        )
        return TrickPlay(
            tricks=tricks,
            annotations=None if "playAnnotations" not in node
            else _annotations(node["playAnnotations"], f"{where}.playAnnotations"),
            alone=None if "isAlone" not in node else _bool(node["isAlone"], f"{where}.isAlone"),
            number=number,
        )
    raise EgnError(f"{where}.type: {kind!r} is not {BIDDING} or {TRICK_PLAY}")


def _deal(value: object, where: str, legacy: bool) -> EgnDeal:
    if isinstance(value, str):
        raise EgnError(f"{where}: a condensed (bitpacked) deal; the kiosk reads expanded"
                       " deals (egn-convert expands them)")
    node = _object(value, where)
    _only(node, where, {"dealNumber", "initialState", "phases", "alternativeLines"})
    for key in ("dealNumber", "initialState", "phases"):
        if key not in node:
            raise EgnError(f"{where}.{key}: missing")
    state_at = f"{where}.initialState"
    state = _object(node["initialState"], state_at)
    legacy_keys = {"kitty", "player_cards"} if legacy else set()
    _only(state, state_at, {"dealer", "upCard", "playerCards"} | legacy_keys)
    if "dealer" not in state or "upCard" not in state:
        raise EgnError(f"{state_at}: needs the dealer and the upCard")
    dealer = seat_of(_int(state["dealer"], f"{state_at}.dealer", 0, 3))
    hands_key = "playerCards" if "playerCards" in state else "player_cards"
    player_cards = None
    if hands_key in state:
        player_cards = _player_cards(state[hands_key], f"{state_at}.{hands_key}")
        if legacy and not any(player_cards):
            player_cards = None  # 1.0 wrote four empty hands for "not known"
    bidding: Bidding | None = None
    play: TrickPlay | None = None
    initial_lead = None
    for i, phase_data in enumerate(_list(node["phases"], f"{where}.phases", 2)):
        at = f"{where}.phases[{i}]"
        phase = _phase(phase_data, at, legacy)
        if isinstance(phase, Bidding):
            if bidding is not None or play is not None:
                raise EgnError(f"{at}: a second bidding phase, or bidding after play")
            bidding = phase
        else:
            if play is not None:
                raise EgnError(f"{at}: a second trick-play phase")
            if bidding is None:
                raise EgnError(f"{at}: trick play before any bidding")
            play = phase
            lead = phase_data.get("initialLead") if legacy else None
            if lead is not None:
                initial_lead = seat_of(_int(lead, f"{at}.initialLead", 0, 3))
    alternatives = None
    if "alternativeLines" in node:
        alternatives = tuple(
            _alternative(line, f"{where}.alternativeLines[{i}]", legacy)
            for i, line in enumerate(_list(node["alternativeLines"],
                                           f"{where}.alternativeLines", 50))
        )
    return EgnDeal(
        number=_int(node["dealNumber"], f"{where}.dealNumber"),
        dealer=dealer,
        up_card=_card(state["upCard"], f"{state_at}.upCard"),
        bidding=bidding,
        play=play,
        player_cards=player_cards,
        alternatives=alternatives,
        initial_lead=initial_lead,
    )


def _player_cards(value: object, where: str) -> tuple[tuple[str, ...], ...]:
    return tuple(
        tuple(_card(card, f"{where}[{s}][{c}]")
              for c, card in enumerate(_list(hand, f"{where}[{s}]", 10)))
        for s, hand in enumerate(_list(value, where, 4))
    )


def _alternative(value: object, where: str, legacy: bool) -> AlternativeLine:
    node = _object(value, where)
    _only(node, where, {"branchIndex", "phases"})
    phases = _list(node.get("phases"), f"{where}.phases", 1000)
    if not phases:
        raise EgnError(f"{where}.phases: an alternative line has at least one phase")
    return AlternativeLine(
        branch=_int(node.get("branchIndex"), f"{where}.branchIndex"),
        phases=tuple(_phase(p, f"{where}.phases[{i}]", legacy) for i, p in enumerate(phases)),
    )


# --- writing -----------------------------------------------------------------------
def _phase_json(phase: Phase) -> dict[str, Any]:
    if isinstance(phase, Bidding):
        out: dict[str, Any] = {"phaseNumber": phase.number, "type": BIDDING,
                               "calls": list(phase.calls), "isAlone": phase.alone}
        if phase.discard is not None:
            out["discard"] = phase.discard
        if phase.annotations is not None:
            out["callAnnotations"] = phase.annotations
        return out
    out = {"phaseNumber": phase.number, "type": TRICK_PLAY,
           "tricks": [list(trick) for trick in phase.tricks]}
    if phase.alone is not None:
        out["isAlone"] = phase.alone
    if phase.annotations is not None:
        out["playAnnotations"] = phase.annotations
    return out


def _deal_json(deal: EgnDeal) -> dict[str, Any]:
    state: dict[str, Any] = {"dealer": seat_number(deal.dealer), "upCard": deal.up_card}
    if deal.player_cards is not None:
        state["playerCards"] = [list(hand) for hand in deal.player_cards]
    phases = [_phase_json(phase) for phase in (deal.bidding, deal.play) if phase is not None]
    out: dict[str, Any] = {"dealNumber": deal.number, "initialState": state, "phases": phases}
    if deal.alternatives is not None:
        out["alternativeLines"] = [_alternative_json(line) for line in deal.alternatives]
    return out


def _alternative_json(line: AlternativeLine) -> dict[str, Any]:
    return {"branchIndex": line.branch, "phases": [_phase_json(p) for p in line.phases]}
