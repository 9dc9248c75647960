"""Director sessions per device, and the PIN lockout, kept in the tournament's SQLite file.

Why this shape:
- Each device that signs in with the PIN gets its own random cookie; the
  file keeps only its hash, when it ends (12 hours after sign-in), and which
  device and address it came from, so the laptop's Devices page can show
  every signed-in device and sign any of them out.
- Wrong PINs are counted on disk (a restart does not forgive a guesser) per
  *device key*: a browser that once signed in carries a signed "known device"
  cookie and is counted on its own; any other browser is counted by its
  address. Five free tries, then one try per 30 s, doubling to one per 15
  minutes. So a guesser locks out only itself, never the director's phone,
  and never the laptop, which needs no PIN and can clear a lockout.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.director.store import Database
from kiosk.director.text import clean

SESSION_SECONDS = 12 * 3600
#: last_seen is written at most this often (a page view is not worth a write each time)
TOUCH_SECONDS = 60
FREE_FAILURES = 5
FIRST_WAIT = 30.0
LONGEST_WAIT = 15 * 60.0
#: failures older than this are forgiven
FAILURE_WINDOW = 3600.0
DEVICE_COOKIE_DAYS = 30


@dataclass(frozen=True)
class Session:
    """A signed-in device."""

    id: int
    device: str
    address: str
    created_at: float
    expires_at: float


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def lock_wait(failures: list[float], now: float) -> float:
    """Seconds to wait before the next try, given the times of recent failures.

    >>> lock_wait([0.0] * 4, 1.0)
    0.0
    >>> lock_wait([0.0] * 5, 10.0), lock_wait([0.0] * 6, 10.0), lock_wait([0.0] * 40, 10.0)
    (20.0, 50.0, 890.0)
    """
    recent = sorted(t for t in failures if now - t < FAILURE_WINDOW)
    if len(recent) < FREE_FAILURES:
        return 0.0
    wait = min(LONGEST_WAIT, FIRST_WAIT * 2 ** (len(recent) - FREE_FAILURES))
    return float(max(0.0, recent[-1] + wait - now))


class Sessions:
    """Sign-in, sign-out, revoke and the PIN lockout over the tournament's database."""

    def __init__(self, db: Database, secret: str, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.secret = secret
        self.clock = clock

    # -- sessions --------------------------------------------------------------

    def start(self, device: str, address: str) -> tuple[str, Session]:
        """A new session for a device that gave the right PIN: (cookie value, session)."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        device = clean(device, 160)

        def job(conn: sqlite3.Connection) -> int:
            cur = conn.execute(
                "INSERT INTO director_session (token_hash, device, address, created_at,"
                " expires_at, last_seen) VALUES (?, ?, ?, ?, ?, ?)",
                (_hash(token), device, address, now, now + SESSION_SECONDS, now),
            )
            return int(cur.lastrowid or 0)

        session_id = self.db.write(job)
        return token, Session(session_id, device, address, now, now + SESSION_SECONDS)

    def check(self, token: str) -> Session | None:
        """The live session this cookie belongs to, or None (unknown, expired, signed out)."""
        if not token or len(token) > 100:
            return None
        row = self.db.read(
            lambda c: c.execute(
                "SELECT * FROM director_session WHERE token_hash = ? AND ended_at IS NULL",
                (_hash(token),),
            ).fetchone()
        )
        now = self.clock()
        if row is None or row["expires_at"] <= now:
            return None
        if now - row["last_seen"] > TOUCH_SECONDS:
            self.db.write(
                lambda c: c.execute(
                    "UPDATE director_session SET last_seen = ? WHERE id = ?", (now, row["id"])
                )
            )
        return Session(row["id"], row["device"], row["address"], row["created_at"],
                       row["expires_at"])

    def end(self, session_id: int, why: str) -> bool:
        """Sign one device out (its own sign-out, or revoked from the laptop)."""
        now = self.clock()
        return bool(
            self.db.write(
                lambda c: c.execute(
                    "UPDATE director_session SET ended_at = ?, ended_by = ?"
                    " WHERE id = ? AND ended_at IS NULL",
                    (now, why, session_id),
                ).rowcount
            )
        )

    def end_all(self, why: str) -> int:
        """Sign every device out (a lost phone, a PIN seen by the wrong person)."""
        now = self.clock()
        return int(
            self.db.write(
                lambda c: c.execute(
                    "UPDATE director_session SET ended_at = ?, ended_by = ? WHERE ended_at IS NULL",
                    (now, why),
                ).rowcount
            )
        )

    def active(self) -> list[dict[str, Any]]:
        """Every signed-in device, newest first."""
        now = self.clock()
        return self.db.read(
            lambda c: [
                dict(r)
                for r in c.execute(
                    "SELECT id, device, address, created_at, expires_at, last_seen"
                    " FROM director_session WHERE ended_at IS NULL AND expires_at > ?"
                    " ORDER BY id DESC",
                    (now,),
                )
            ]
        )

    # -- the known-device cookie -------------------------------------------------

    def device_cookie(self) -> str:
        """A fresh signed id for a browser that just signed in: its own lockout bucket."""
        ident = secrets.token_urlsafe(12)
        return f"{ident}.{self._sign(ident)}"

    def device_key(self, cookie: str, address: str) -> str:
        """Whose wrong PINs these are: a known device by its id, anyone else by address."""
        ident, _, mac = cookie.partition(".")
        if ident and len(cookie) < 100 and hmac.compare_digest(mac, self._sign(ident)):
            return f"device:{ident}"
        return f"address:{address}"

    def _sign(self, ident: str) -> str:
        return hmac.new(self.secret.encode(), b"device:" + ident.encode(), "sha256").hexdigest()[
            :32
        ]

    # -- the PIN lockout -----------------------------------------------------------

    def wait_seconds(self, key: str) -> float:
        """How long `key` must wait before the PIN is checked again (0: now)."""
        now = self.clock()
        times = self.db.read(
            lambda c: [
                r[0]
                for r in c.execute(
                    "SELECT at FROM pin_failure WHERE address = ? AND at > ?",
                    (key, now - FAILURE_WINDOW),
                )
            ]
        )
        return lock_wait(times, now)

    def try_pin(self, key: str, right: bool) -> float:
        """One sign-in try by `key`, decided in one write so that tries sent together
        cannot all slip past the lockout: 0.0 when the PIN was checked (a wrong one is
        counted, a right one forgives the key), else the seconds to wait (not checked).
        """
        now = self.clock()

        def job(conn: sqlite3.Connection) -> float:
            times = [r[0] for r in conn.execute(
                "SELECT at FROM pin_failure WHERE address = ? AND at > ?",
                (key, now - FAILURE_WINDOW),
            )]
            wait = lock_wait(times, now)
            if wait > 0:
                return wait
            if right:
                conn.execute("DELETE FROM pin_failure WHERE address = ?", (key,))
            else:
                conn.execute("INSERT INTO pin_failure (address, at) VALUES (?, ?)", (key, now))
            return 0.0

        return float(self.db.write(job))

    def failed(self, key: str) -> None:
        now = self.clock()
        self.db.write(
            lambda c: c.execute("INSERT INTO pin_failure (address, at) VALUES (?, ?)", (key, now))
        )

    def forgive(self, key: str | None = None) -> None:
        """Clear the wrong PINs of one key (after the right PIN), or of everyone (the laptop)."""
        if key is None:
            self.db.write(lambda c: c.execute("DELETE FROM pin_failure"))
        else:
            self.db.write(lambda c: c.execute("DELETE FROM pin_failure WHERE address = ?", (key,)))

    def lockouts(self) -> list[dict[str, Any]]:
        """Who has been guessing: each key with its recent failures and its wait now."""
        now = self.clock()
        rows = self.db.read(
            lambda c: c.execute(
                "SELECT address, at FROM pin_failure WHERE at > ? ORDER BY at",
                (now - FAILURE_WINDOW,),
            ).fetchall()
        )
        by_key: dict[str, list[float]] = {}
        for r in rows:
            by_key.setdefault(r["address"], []).append(r["at"])
        return [
            {"key": k, "failures": len(v), "wait": round(lock_wait(v, now))}
            for k, v in sorted(by_key.items())
        ]
