from companion.sharing import (
    CODE_DIGITS,
    FORGIVEN_AFTER_S,
    FREE_TRIES,
    JOIN_TOKEN_BYTES,
    LONGEST_PAUSE_S,
    PAUSE_AFTER_MISSES_S,
    TABLE_BUDGET,
    TABLE_PAUSE_S,
    TABLE_WINDOW_S,
    TableLock,
    address_key,
    lan_address,
    new_code,
    qr_png,
    qr_text,
)


def test_codes_are_short_digits_and_differ() -> None:
    codes = {new_code() for _ in range(50)}
    assert all(len(code) == CODE_DIGITS and code.isdigit() for code in codes)
    assert len(codes) > 40


def test_each_run_has_its_own_code_and_a_long_join_token() -> None:
    first, second = TableLock(), TableLock()
    assert first.join_token != second.join_token
    assert len(first.join_token) * 6 >= JOIN_TOKEN_BYTES * 8 >= 128
    assert not second.try_join_token("phone", first.join_token, now=0).admitted


def test_the_right_code_opens_the_table_and_hands_out_an_admission() -> None:
    lock = TableLock(code="123456")
    opened = lock.try_code("phone", " 123456 ", now=0)
    assert opened.admitted and lock.admits(opened.admission)
    assert opened.admission != lock.code
    assert not lock.admits("123456") and not lock.admits("")
    assert not lock.try_code("phone", "654321", now=0).admitted


def test_repeated_misses_pause_that_address_longer_each_time() -> None:
    lock = TableLock(code="123456")
    for _ in range(FREE_TRIES):
        assert not lock.try_code("guesser", "000000", now=10).admitted
    assert lock.wait_s("guesser", now=10) == PAUSE_AFTER_MISSES_S
    refused = lock.try_code("guesser", "123456", now=11)  # even the right one
    assert not refused.admitted and refused.wait_s == PAUSE_AFTER_MISSES_S - 1
    assert not refused.counted
    assert lock.try_code("friend", "123456", now=11).admitted
    later = 10 + PAUSE_AFTER_MISSES_S
    for _ in range(FREE_TRIES):
        lock.try_code("guesser", "000000", now=later)
    assert lock.wait_s("guesser", now=later) == 2 * PAUSE_AFTER_MISSES_S
    assert lock.try_code("guesser", "123456", now=later + 2 * PAUSE_AFTER_MISSES_S)


def test_the_table_pauses_once_its_budget_is_spent_from_anywhere() -> None:
    heard: list[str] = []
    lock = TableLock(code="123456", warn=heard.append)
    for number in range(TABLE_BUDGET):
        lock.try_code(f"10.0.0.{number}", "000000", now=number)
    now = TABLE_BUDGET - 1
    assert lock.table_wait_s(now) == TABLE_PAUSE_S
    assert lock.recent_misses(now) == TABLE_BUDGET
    refused = lock.try_code("10.0.1.1", "123456", now=now + 1)
    assert not refused.admitted and refused.wait_s == TABLE_PAUSE_S - 1
    # Each further miss makes the next pause longer.
    lock.try_code("10.0.1.2", "000000", now=now + TABLE_PAUSE_S)
    assert lock.table_wait_s(now + TABLE_PAUSE_S) == 2 * TABLE_PAUSE_S
    assert any("someone is guessing" in line for line in heard)
    assert not any("123456" in line or lock.join_token in line for line in heard)


def test_the_join_token_passes_a_table_pause_but_not_an_address_pause() -> None:
    lock = TableLock(code="123456")
    for _ in range(FREE_TRIES):
        lock.try_code("guesser", "000000", now=0)
    for number in range(TABLE_BUDGET - FREE_TRIES):
        lock.try_code(f"10.0.0.{number}", "000000", now=0)
    assert lock.table_wait_s(now=1) > 0
    assert lock.try_join_token("10.0.1.1", lock.join_token, now=1).admitted
    assert not lock.try_join_token("guesser", lock.join_token, now=1).admitted
    missed = lock.try_join_token("10.0.1.2", "not-the-token", now=1)
    assert missed.counted and not missed.admitted


def test_pauses_never_grow_past_the_longest_and_a_quiet_hour_forgets_them() -> None:
    lock = TableLock(code="123456")
    now = 0.0
    for _ in range(40):
        now += lock.wait_s("guesser", now)
        lock.try_code("guesser", "000000", now)
    assert lock.wait_s("guesser", now) <= LONGEST_PAUSE_S
    assert now > TABLE_WINDOW_S
    quiet = now + LONGEST_PAUSE_S + FORGIVEN_AFTER_S + 1
    for _ in range(FREE_TRIES):
        lock.try_code("guesser", "000000", quiet)
    assert lock.wait_s("guesser", quiet) == PAUSE_AFTER_MISSES_S


def test_an_ipv6_guesser_is_one_address_for_its_whole_network() -> None:
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:1234")
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("192.0.2.7") == "192.0.2.7"
    assert address_key(None) == address_key("") == "unknown"


def test_address_and_qr_code() -> None:
    assert lan_address().count(".") == 3
    assert qr_png("http://192.0.2.1:8550").startswith(b"\x89PNG")
    assert len(qr_text("http://192.0.2.1:8550").splitlines()) > 10
