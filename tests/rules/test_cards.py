"""Cards and the notation of CONTRACTS.md."""

from __future__ import annotations

import pytest

from kiosk.rules.cards import (
    EUCHRE_DECK,
    Card,
    CardParseError,
    FaceDown,
    Rank,
    Seat,
    Suit,
    parse_token,
)


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("JH", "JH"),
        ("jh", "JH"),
        ("10D", "TD"),
        ("td", "TD"),
        (" 9c ", "9C"),
        ("5H", "5H"),
        ("2C", "2C"),
    ],
)
def test_contracts_names_parse_and_print_back(token: str, expected: str) -> None:
    assert str(Card.parse(token)) == expected


@pytest.mark.parametrize("token", ["XH", "J", "JX", "1H", "10", "JHH", "", "back"])
def test_a_bad_token_raises_an_error_naming_it(token: str) -> None:
    with pytest.raises(CardParseError) as raised:
        Card.parse(token)
    assert repr(token) in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_non_string_token_is_a_parse_error_not_a_crash() -> None:
    with pytest.raises(CardParseError):
        Card.parse(None)  # type: ignore[arg-type]


def test_the_euchre_pack_is_24_cards_nine_to_ace() -> None:
    assert len(EUCHRE_DECK) == 24 == len(set(EUCHRE_DECK))
    assert all(card.is_euchre for card in EUCHRE_DECK)
    assert not Card.parse("8S").is_euchre


def test_repr_pastes_back() -> None:
    card = Card.parse("QS")
    assert eval(repr(card)) == card  # noqa: S307 - the repr is meant to be pasted


def test_back_is_a_face_down_token_not_a_card() -> None:
    assert parse_token("back") is FaceDown.BACK
    assert parse_token("BACK") is FaceDown.BACK
    assert parse_token("KH") == Card(Rank.KING, Suit.HEARTS)


def test_seats_go_clockwise_and_partners_sit_opposite() -> None:
    assert [seat.left for seat in Seat] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert {seat: seat.partner for seat in Seat} == {
        Seat.N: Seat.S,
        Seat.S: Seat.N,
        Seat.E: Seat.W,
        Seat.W: Seat.E,
    }
    assert [seat.team for seat in Seat] == ["NS", "EW", "NS", "EW"]


def test_bad_seat_is_named() -> None:
    with pytest.raises(ValueError, match="'Q' is not a seat"):
        Seat.parse("Q")
