"""A game the kiosk scored, as EGN: from the result it posts to the director (CONTRACTS:
the game with its hands' records), so the table and the director write the same file.

EGN's metadata has no field of its own for the event, the table or the rule book, so
they go in its title and description; what the kiosk knows of a hand that EGN has a
place for (when it was played, a renege, a card the players corrected, how a hand was
ruled and scored) goes in annotations, each starting ``Kiosk:``.  A hand EGN cannot
hold whole (a bid or a lead out of turn: EGN lists calls and cards in turn only) is
written up to that point, with an annotation saying what happened next.

>>> from kiosk.rules.record import HandRecord
>>> hand = {"record": {"dealer": "N", "turn_up": "9H", "tricks": [],
...     "bids": [{"seat": s, "call": "pass"} for s in "ESWNESWN"]},
...     "result": {"outcome": "passed", "reneges": []}, "points": {"NS": 0, "EW": 0}}
>>> game = egn_of_result({"game_id": "Spring/r2/t3/1780000000", "tournament": "Spring",
...     "round": 2, "table": 3, "profile": "alberta55", "teams": ["Ann & Bob", "Cy & Di"],
...     "points": [0, 0], "hands": [hand]}, points_to_win=10)
>>> game["metadata"]["title"], game["metadata"]["date"], game["metadata"]["players"][1]
('Spring: round 2, table 3', '2026-05-28T20:26:40Z', 'Cy & Di (East)')
>>> game["deals"][0]["phases"][0]["calls"][-1], game["deals"][0]["phases"][0]["callAnnotations"]
('Pass', {'0': ['Kiosk: hand 1, dealt by North']})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from kiosk.egn.game import DealNotes
from kiosk.egn.notation import EgnError
from kiosk.egn.records import deal_of, game_of_records
from kiosk.egn.ruleset import EgnRuleset
from kiosk.rules.cards import Seat
from kiosk.rules.profiles import RuleProfile, get_profile
from kiosk.rules.record import HandRecord, HandRecordError

SEAT_WORDS = {seat: seat.words for seat in Seat}
#: outcomes of a hand played out, which EGN's own scoring gives as the kiosk does
AS_PLAYED = ("made", "march", "euchred", "passed")
PREFIX = "Kiosk: "


def egn_of_result(
    result: Mapping[str, Any],
    points_to_win: int | None = None,
    num_deals: int = 0,
    hand_times: Mapping[int, float] | None = None,
    rulings: Sequence[str] = (),
) -> dict[str, Any]:
    """The EGN 1.4 document of a game result; `num_deals`: a game of that many hands
    (a progressive round); `hand_times`: when each hand (by number) was scored;
    `rulings`: the director's word on the game, one sentence each, for its description.
    An `EgnError` when a hand record cannot be a hand at all."""
    try:
        profile = get_profile(str(result.get("profile")))
    except ValueError as problem:
        raise EgnError(f"profile: {problem}") from None
    ruleset = EgnRuleset.of_profile(profile, points_to_win)
    if num_deals:
        ruleset = replace(ruleset, winning_score=0, num_deals=num_deals)
    metadata = _metadata(result, profile, ruleset, rulings)
    corrections = [c for c in result.get("corrections", []) if isinstance(c, dict)]
    hands = []
    for index, hand in enumerate(result.get("hands", [])):
        number = index + 1
        try:
            record = HandRecord.from_json(hand.get("record") if isinstance(hand, dict) else hand)
        except HandRecordError as problem:
            raise EgnError(f"hand {number}: {problem}") from None
        time = None if hand_times is None else hand_times.get(number)
        hands.append(_hand(record, number, hand, profile, corrections, time))
    return game_of_records(hands, metadata, profile).to_json()


def _metadata(result: Mapping[str, Any], profile: RuleProfile, ruleset: EgnRuleset,
              rulings: Sequence[str]) -> dict[str, Any]:
    teams = list(result.get("teams") or ["North-South", "East-West"])
    points = list(result.get("points") or [0, 0])
    seats = result.get("seats") if isinstance(result.get("seats"), dict) else {}
    event = str(result.get("tournament") or "").strip()
    where = f"round {result.get('round', 1)}, table {result.get('table', 1)}"
    players = []
    for seat in SEAT_WORDS:
        name = seats.get(seat.value) if seats else None
        team = str(teams[0 if seat.team == "NS" else 1])
        players.append(str(name)[:64] if name else f"{team[:50]} ({SEAT_WORDS[seat]})")
    description = (
        f"Scored by the euchre table kiosk under the {profile.name} rule book"
        f" ({profile.rule_book}). North-South: {teams[0]}; East-West: {teams[1]}."
        f" Final score {points[0]}-{points[1]}"
        + (", stopped on time." if result.get("time_up") else ".")
        + "".join(f" Director's ruling: {ruling}" for ruling in rulings)
    )
    out: dict[str, Any] = {}
    if result.get("game_id"):
        out["gameId"] = str(result["game_id"])[-64:]
    out["title"] = (f"{event}: {where}" if event else where.capitalize())[:128]
    out["description"] = description[:1024]
    started = _started(result.get("game_id"))
    if started is not None:
        out["date"] = started
    out["players"] = players
    out["initialScore"] = [0, 0]
    out["finalScore"] = [int(points[0]), int(points[1])]
    out["ruleset"] = ruleset.to_json()
    return out


def _started(game_id: object) -> str | None:
    """The game's start, from the kiosk's game id (``event/r1/t3/<unix seconds>``)."""
    try:
        seconds = int(str(game_id).rsplit("/", 1)[-1])
    except ValueError:
        return None
    if seconds <= 0:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


def _hand(
    record: HandRecord, number: int, hand: Mapping[str, Any], profile: RuleProfile,
    corrections: Sequence[Mapping[str, Any]], time: float | None,
) -> tuple[HandRecord, DealNotes]:
    kept, cut = _writable(record, number, profile)
    calls: dict[int, list[str]] = {}
    plays: dict[int, list[str]] = {}
    index: dict[tuple[object, Seat | None], int] = {(t, seat): i for i, (t, seat) in enumerate(
        (t, seat) for t, trick in enumerate(kept.tricks, 1) for seat, _card in trick)}
    played_at = ", scored at " + _clock(time) if time is not None else ""
    calls.setdefault(0, []).append(
        f"{PREFIX}hand {number}, dealt by {SEAT_WORDS[record.dealer]}{played_at}")
    result: dict[str, Any] = hand["result"] if isinstance(hand.get("result"), dict) else {}
    for proof in result.get("reneges", []):
        seat = _seat(proof.get("seat"))
        at = index.get((proof.get("trick"), seat))
        if at is not None and seat is not None:
            plays.setdefault(at, []).append(
                f"[??]{PREFIX}renege: {SEAT_WORDS[seat]} did not follow suit"
                f" (proven in trick {proof.get('proven_at')})")
    for fix in corrections:
        if fix.get("hand") != number:
            continue
        at = index.get((fix.get("trick"), _seat(fix.get("seat"))))
        was = fix.get("was")
        if at is not None and not (was and was == fix.get("card")):
            # (a card kept as the camera read it, the players' answer to a question about
            # it, is no correction)
            plays.setdefault(at, []).append(
                f"{PREFIX}the players corrected this card"
                + (f" (the camera read {was})" if was else " (the camera missed it)"))
    last_play = len(index) - 1
    closing = []
    if cut is not None:
        closing.append(f"{PREFIX}the rest of this hand is not in EGN ({cut})")
    outcome = result.get("outcome")
    if outcome not in AS_PLAYED or result.get("chosen") or cut is not None:
        points = hand.get("points") or {}
        chosen = f"; the players' choice: {result['chosen']}" if result.get("chosen") else ""
        closing.append(f"{PREFIX}scored {points.get('NS', 0)} to North-South and"
                       f" {points.get('EW', 0)} to East-West ({outcome}{chosen})")
    if closing:
        if last_play >= 0:
            plays.setdefault(last_play, []).extend(closing)
        else:
            calls.setdefault(max(len(kept.bids) - 1, 0), []).extend(closing)
    notes = DealNotes(
        call_annotations={str(k): v for k, v in sorted(calls.items())},
        play_annotations={str(k): v for k, v in sorted(plays.items())} or None,
    )
    return kept, notes


def _writable(record: HandRecord, number: int,
              profile: RuleProfile) -> tuple[HandRecord, str | None]:
    """The record, or its longest beginning EGN can hold and why the rest cannot be."""
    try:
        deal_of(record, number - 1, profile)
        return record, None
    except EgnError as problem:
        why = str(problem).removeprefix(f"hand {number}: ")
    plays = [(t, play) for t, trick in enumerate(record.tricks) for play in trick]
    for keep in range(len(plays) - 1, -1, -1):
        tricks: list[list[Any]] = [[] for _ in record.tricks]
        for t, play in plays[:keep]:
            tricks[t].append(play)
        shorter = replace(record, tricks=tuple(tuple(t) for t in tricks if t))
        if _fits(shorter, number, profile):
            return shorter, why
    for keep in range(len(record.bids) - 1, -1, -1):
        shorter = replace(record, bids=record.bids[:keep], tricks=(), discard=None)
        if _fits(shorter, number, profile):
            return shorter, why
    raise EgnError(f"hand {number}: {why}")


def _fits(record: HandRecord, number: int, profile: RuleProfile) -> bool:
    try:
        deal_of(record, number - 1, profile)
    except EgnError:
        return False
    return True


def _seat(value: object) -> Seat | None:
    try:
        return Seat.parse(value)  # type: ignore[arg-type]
    except ValueError:
        return None


def _clock(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%H:%M:%S UTC")
