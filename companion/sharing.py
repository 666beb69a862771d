"""Sharing one table between devices: its address, its code and who may come in.

A device on the local network sees nothing until it gives the table code the
host was shown, or opens the join link inside the QR code. Wrong tries are
counted by the network address the server sees (never by anything the device
says about itself) and across the whole table, and each further miss makes the
next try wait longer, so a six-digit code cannot be tried through in an evening
however many connections or addresses a guesser uses.
"""

from __future__ import annotations

import io
import ipaddress
import secrets
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import qrcode

CODE_DIGITS = 6
# The QR code's join token: far beyond guessing (192 bits), unlike the code.
JOIN_TOKEN_BYTES = 24
ADMISSION_TOKEN_BYTES = 32
# One address: this many misses, then a pause that doubles each time.
FREE_TRIES = 5
PAUSE_AFTER_MISSES_S = 30.0
# The whole table: this many misses from anywhere within the window, then every
# typed code waits, longer with each further miss.
TABLE_BUDGET = 20
TABLE_WINDOW_S = 600.0
TABLE_PAUSE_S = 30.0
LONGEST_PAUSE_S = 3600.0
# A quiet hour forgets past pauses, so a mistyping friend starts over next time.
FORGIVEN_AFTER_S = 3600.0
UNKNOWN_ADDRESS = "unknown"
SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def new_code() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))


def new_token(size: int = JOIN_TOKEN_BYTES) -> str:
    return secrets.token_urlsafe(size)


def address_key(host: str | None) -> str:
    """Whom wrong tries are counted against, from the peer address of a socket.

    An IPv6 device can take a fresh address from its /64 at will, so the whole
    /64 is one guesser; an IPv4-mapped address is its IPv4 address.
    """
    if not host:
        return UNKNOWN_ADDRESS
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _interface_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces (Linux), asked of the kernel."""
    try:
        import fcntl
    except ImportError:
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:
                continue  # an interface with no IPv4 address
            found.append(socket.inet_ntoa(answer[20:24]))
    return found


def lan_address() -> str:
    """This machine's address on the local network, as other devices reach it."""
    try:
        candidates = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        candidates = []
    candidates += _interface_addresses()
    for address in candidates:
        if not address.startswith("127."):
            return address
    return "127.0.0.1"


def qr_png(text: str) -> bytes:
    image = qrcode.make(text, border=2)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


def qr_text(text: str) -> str:
    """The QR code drawn with characters, for the host's terminal."""
    code = qrcode.QRCode(border=1)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def _pause_s(first: float, pauses: int) -> float:
    """The ``pauses``-th pause in a row: the first doubled each time, capped."""
    return min(LONGEST_PAUSE_S, first * 2 ** max(0, pauses - 1))


@dataclass(frozen=True)
class Verdict:
    """One try's answer: let in (with the admission to keep), or how long to wait."""

    admitted: bool
    wait_s: float = 0.0
    admission: str = ""
    counted: bool = False  # the try was judged and missed (not refused unread)


@dataclass
class _Misses:
    """Wrong tries from one address, or from the whole table."""

    recent: deque[float] = field(default_factory=deque)
    pauses: int = 0
    paused_until: float = 0.0
    last_miss: float = float("-inf")

    def wait_s(self, now: float) -> float:
        return max(0.0, self.paused_until - now)

    def forget_old(self, now: float, window_s: float) -> None:
        if now - self.last_miss > FORGIVEN_AFTER_S:
            self.recent.clear()
            self.pauses = 0
        while self.recent and now - self.recent[0] > window_s:
            self.recent.popleft()


@dataclass
class TableLock:
    """The table code, the join token, the devices let in, and the wrong tries.

    ``warn`` hears one line for the host's terminal whenever a pause starts; it
    never carries the code or a token.
    """

    code: str = field(default_factory=new_code)
    join_token: str = field(default_factory=new_token)
    warn: Callable[[str], None] | None = None
    by_address: dict[str, _Misses] = field(default_factory=dict)
    table: _Misses = field(default_factory=_Misses)
    admissions: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def wait_s(self, address: str, now: float | None = None) -> float:
        """How long ``address`` must wait before it may type a code (0: now)."""
        now = time.monotonic() if now is None else now
        mine = self.by_address.get(address)
        return max(self.table.wait_s(now), mine.wait_s(now) if mine else 0.0)

    def recent_misses(self, now: float | None = None) -> int:
        """Wrong tries at this table within the last window, from anywhere."""
        now = time.monotonic() if now is None else now
        with self._lock:
            self.table.forget_old(now, TABLE_WINDOW_S)
            return len(self.table.recent)

    def table_wait_s(self, now: float | None = None) -> float:
        now = time.monotonic() if now is None else now
        return self.table.wait_s(now)

    def try_code(self, address: str, given: str, now: float | None = None) -> Verdict:
        """A typed code: refused unread during a pause, else judged and counted."""
        now = time.monotonic() if now is None else now
        with self._lock:
            wait = self.wait_s(address, now)
            if wait > 0:
                return Verdict(False, wait)
            if secrets.compare_digest(given.strip().encode(), self.code.encode()):
                return self._admit(address)
            return self._miss(address, now)

    def try_join_token(
        self, address: str, given: str, now: float | None = None
    ) -> Verdict:
        """The token from the QR code's link.

        A wrong or stale token (an earlier run's) counts as a miss. The right
        one passes a table-wide pause: it cannot be guessed, and friends
        scanning the host's screen should not be kept out by a stranger's
        guessing. An address that is itself paused waits like for a code.
        """
        now = time.monotonic() if now is None else now
        with self._lock:
            mine = self.by_address.get(address)
            wait = mine.wait_s(now) if mine else 0.0
            if wait > 0:
                return Verdict(False, wait)
            if secrets.compare_digest(given.encode(), self.join_token.encode()):
                return self._admit(address)
            return self._miss(address, now)

    def admits(self, admission: str) -> bool:
        """Whether ``admission`` was handed out by this run to a device let in."""
        with self._lock:
            return any(
                secrets.compare_digest(admission.encode(), kept.encode())
                for kept in self.admissions
            )

    def _admit(self, address: str) -> Verdict:
        self.by_address.pop(address, None)
        admission = new_token(ADMISSION_TOKEN_BYTES)
        self.admissions.add(admission)
        return Verdict(True, admission=admission)

    def _miss(self, address: str, now: float) -> Verdict:
        mine = self.by_address.setdefault(address, _Misses())
        for misses in (mine, self.table):
            misses.forget_old(now, TABLE_WINDOW_S)
            misses.recent.append(now)
            misses.last_miss = now
        if len(mine.recent) >= FREE_TRIES:
            mine.pauses += 1
            mine.recent.clear()
            pause = _pause_s(PAUSE_AFTER_MISSES_S, mine.pauses)
            mine.paused_until = now + pause
            self._warn(
                f"{FREE_TRIES} wrong table codes from {address}: "
                f"its next try waits {pause:.0f} s"
            )
        if len(self.table.recent) >= TABLE_BUDGET:
            self.table.pauses += 1
            pause = _pause_s(TABLE_PAUSE_S, self.table.pauses)
            self.table.paused_until = now + pause
            self._warn(
                f"someone is guessing the table code: {len(self.table.recent)} "
                f"wrong tries in {TABLE_WINDOW_S / 60:.0f} minutes, the last from "
                f"{address}; every typed code now waits {pause:.0f} s"
            )
        return Verdict(False, self.wait_s(address, now), counted=True)

    def _warn(self, line: str) -> None:
        if self.warn is not None:
            self.warn(line)
