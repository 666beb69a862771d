"""Sharing one table between devices: its address and the code that lets them in.

A device on the local network sees nothing until it gives the table code the
host was shown. Wrong guesses are counted per device and slowed down, so a
six-digit code cannot be tried through in an evening.
"""

from __future__ import annotations

import io
import secrets
import socket
import struct
import threading
import time
from dataclasses import dataclass, field

import qrcode

CODE_DIGITS = 6
FREE_TRIES = 5
PAUSE_AFTER_MISSES_S = 30.0
SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def new_code() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))


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


@dataclass
class TableLock:
    """The table code and each device's misses."""

    code: str = field(default_factory=new_code)
    misses: dict[str, int] = field(default_factory=dict)
    paused_until: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def wait_s(self, device: str, now: float | None = None) -> float:
        """How long ``device`` must wait before its next try (0 when it may try)."""
        now = time.monotonic() if now is None else now
        return max(0.0, self.paused_until.get(device, 0.0) - now)

    def try_code(self, device: str, given: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        with self._lock:
            if self.wait_s(device, now) > 0:
                return False
            if secrets.compare_digest(given.strip(), self.code):
                self.misses.pop(device, None)
                return True
            self.misses[device] = self.misses.get(device, 0) + 1
            if self.misses[device] >= FREE_TRIES:
                self.paused_until[device] = now + PAUSE_AFTER_MISSES_S
                self.misses[device] = 0
            return False
