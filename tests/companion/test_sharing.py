from companion.sharing import (
    CODE_DIGITS,
    FREE_TRIES,
    PAUSE_AFTER_MISSES_S,
    TableLock,
    lan_address,
    new_code,
    qr_png,
    qr_text,
)


def test_codes_are_short_digits_and_differ() -> None:
    codes = {new_code() for _ in range(50)}
    assert all(len(code) == CODE_DIGITS and code.isdigit() for code in codes)
    assert len(codes) > 40


def test_the_right_code_opens_the_table() -> None:
    lock = TableLock(code="123456")
    assert lock.try_code("phone", " 123456 ", now=0)
    assert not lock.try_code("phone", "654321", now=0)


def test_repeated_misses_pause_that_device_only() -> None:
    lock = TableLock(code="123456")
    for _ in range(FREE_TRIES):
        assert not lock.try_code("guesser", "000000", now=10)
    assert lock.wait_s("guesser", now=10) == PAUSE_AFTER_MISSES_S
    assert not lock.try_code("guesser", "123456", now=11)  # even the right one
    assert lock.try_code("friend", "123456", now=11)
    assert lock.try_code("guesser", "123456", now=10 + PAUSE_AFTER_MISSES_S)


def test_address_and_qr_code() -> None:
    assert lan_address().count(".") == 3
    assert qr_png("http://192.0.2.1:8550").startswith(b"\x89PNG")
    assert len(qr_text("http://192.0.2.1:8550").splitlines()) > 10
