import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import Card, deck_from_lists, deck_of
from companion.errors import CardError


def test_parses_and_prints_its_code() -> None:
    assert Card.parse("R7") == Card("R", 7)
    assert str(Card.parse("G14")) == "G14"
    assert Card.parse(" c20 ") == Card("C", 20)


@given(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), st.integers(0, 99))
def test_round_trips(suit: str, number: int) -> None:
    card = Card(suit, number)
    assert Card.parse(str(card)) == card


@pytest.mark.parametrize("bad", ["", "7R", "R", "RR7", "R123", "R-1", 7, None, ["R7"]])
def test_refuses_what_is_not_a_card_code(bad: object) -> None:
    with pytest.raises(CardError) as error:
        Card.parse(bad)
    assert "card code" in str(error.value)


def test_decks_count_copies() -> None:
    assert sum(deck_of("PGRY", range(1, 15)).values()) == 56
    deck = deck_from_lists({"T": [9, 9, 9, 5]})
    assert deck[Card("T", 9)] == 3
