"""The access gate's memory: wrong access codes counted per client address and for the whole deployment, on disk,
with growing waits, so that a reload, a new tab, a dropped cookie or a restart of the app gives no try back.

State: ``PRISM_HOME/access/attempts.json`` (``{"version": 1, "clients": {key: record}, "all": record}``, a record
being ``{"n": wrong codes counted, "last": time of the last one, "until": end of the wait}``, times in Unix
seconds; a client's key is a SHA-256 of its address, not the address in clear). Every attempt reads, checks and
rewrites it under one file lock (``filelock``; threads and processes), the file replaced atomically.

Rules (settings ``access_*``, :class:`prism.config_deployment.DeploymentSettings`):

- A wrong code adds one to its client's count and one to the deployment's. When a count reaches its limit
  (``access_max_attempts`` for a client, ``access_global_max_attempts`` for all), the next try must wait
  ``access_lockout_s``; each further wrong code doubles the wait, up to ``access_lockout_max_s``.
- While a wait runs, a code is refused unchecked, the right one too (else the wait would limit nothing); a refusal
  counts nothing. The deployment's wait holds every client.
- A count forgets one wrong code per ``access_lockout_max_s`` without a new one; the right code clears its client's
  count (not the deployment's).

The client is its address (:func:`client_key`); a client whose address is unknown shares one count with every other
such client. The checks and the refusals are logged; the checks are recorded in the audit log by
:class:`AccessFacade`.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from prism.config import Settings
from prism.errors import StoreError
from prism.fsutil import atomic_write_json
from prism.types import AccessDecision, AuditEntry

__all__ = ["ACCESS_FILE", "UNKNOWN_CLIENT", "AccessFacade", "AccessGuard", "client_key"]

logger = logging.getLogger(__name__)

ACCESS_FILE = Path("access") / "attempts.json"
"""The state file, under ``PRISM_HOME``."""
UNKNOWN_CLIENT = "unknown"
"""The key of every client whose address is not known (a local browser, a proxy that added no address)."""
ALL = "all"


def client_key(peer: str | None, forwarded_for: Sequence[str] = (), proxy_hops: int = 0) -> str:
    """The address a client is counted by.

    Args:
        peer: the address of the connection (Streamlit's ``st.context.ip_address``; ``None`` for a local browser).
        forwarded_for: the values of every ``X-Forwarded-For`` header of the request, in order.
        proxy_hops: how many proxies in front of the app append the address they saw (``access_proxy_hops``).
            0: the header is ignored, since a client can write anything into it, and ``peer`` is used; N: the
            entry N places from the right, the address the outermost proxy saw (the entries left of it are the
            client's to forge). Fewer entries than N: unknown.

    Returns:
        An IPv4 address (``"203.0.113.7"``; an IPv4-mapped IPv6 one as IPv4), an IPv6 /64 network
        (``"2001:db8:1:2::/64"``: one subscriber usually holds a whole /64), or :data:`UNKNOWN_CLIENT` when the
        address is missing or not an IP address.
    """
    address: str | None = peer
    if proxy_hops > 0:
        hops = [h.strip() for value in forwarded_for for h in str(value).split(",") if h.strip()]
        address = hops[-proxy_hops] if len(hops) >= proxy_hops else None
    ip = _ip(address)
    if ip is None:
        return UNKNOWN_CLIENT
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


def _ip(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``text`` as an IP address (``"[::1]:80"`` and ``"1.2.3.4:80"`` without their port, a zone id dropped), or
    ``None``."""
    if not text or len(text) > 100:
        return None
    text = text.strip()
    if text.startswith("[") and "]" in text:
        text = text[1:text.index("]")]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    return ip


class AccessGuard:
    """Counts wrong access codes per client and for the whole deployment, on disk (see the module docstring).

    Args:
        home: ``PRISM_HOME`` (the state is :data:`ACCESS_FILE` under it).
        settings: the ``access_*`` limits and waits.
        clock: the time in Unix seconds (tests pass a fake; waits survive restarts, so this is wall-clock time).
    """

    def __init__(self, home: Path, settings: Settings, clock: Callable[[], float] = time.time):
        self.path = Path(home) / ACCESS_FILE
        self.settings = settings
        self.clock = clock
        self._lock = FileLock(str(self.path.parent / ".attempts.lock"), timeout=10)

    def status(self, client: str) -> AccessDecision:
        """Whether ``client`` may try a code now (``wait_s`` 0.0) and how many wrong ones it has left; ``granted``
        is ``False``. Reads without the lock (the file is replaced atomically).

        Raises:
            StoreError: never for a missing or unreadable file (an unreadable one counts as empty, logged).
        """
        return self._decision(self._read(), _hash(client), self.clock(), granted=False)

    def attempt(self, client: str, entered: str, expected: str) -> AccessDecision:
        """Check ``entered`` against ``expected`` for ``client`` (constant time, surrounding spaces ignored),
        unless a wait runs; count a wrong code and start or lengthen a wait at a limit.

        Returns:
            ``granted`` for the right code outside a wait; else the wait now due and the tries left (``checked``
            ``False`` when the code was refused unchecked).

        Raises:
            StoreError: the state could not be locked (another check held it over 10 s) or written.
        """
        key = _hash(client)
        try:
            with self._lock:
                now = self.clock()
                data = self._read()
                before = self._decision(data, key, now, granted=False)
                if before.wait_s > 0:
                    return AccessDecision(False, before.wait_s, 0, before.scope, checked=False)
                if _same(entered, expected):
                    data["clients"].pop(key, None)
                    self._write(data, now)
                    return AccessDecision(True, tries_left=self.settings.access_max_attempts)
                for record, limit in ((data["clients"].setdefault(key, {}), self.settings.access_max_attempts),
                                      (data[ALL], self.settings.access_global_max_attempts)):
                    n = self._count(record, now) + 1
                    record.update(n=n, last=now, until=now + self._wait_for(n, limit))
                self._write(data, now)
                return self._decision(data, key, now, granted=False)
        except Timeout as exc:
            raise StoreError("The access code could not be checked: the check stayed busy. Try again.") from exc

    # --- counting -------------------------------------------------------------------------------------------
    def _count(self, record: dict[str, Any], now: float) -> int:
        """The record's wrong codes still counted at ``now``: one forgotten per ``access_lockout_max_s``."""
        n = int(record.get("n", 0))
        quiet = max(0.0, now - float(record.get("last", now)))
        return max(0, n - int(quiet // self.settings.access_lockout_max_s))

    def _wait_for(self, n: int, limit: int) -> float:
        """The wait after the ``n``-th counted wrong code: 0 below ``limit``, then ``access_lockout_s`` doubling
        per further code, at most ``access_lockout_max_s``."""
        if n < limit:
            return 0.0
        return min(self.settings.access_lockout_max_s, self.settings.access_lockout_s * 2.0 ** min(n - limit, 64))

    def _left(self, record: dict[str, Any], now: float) -> float:
        """Seconds of the record's wait still to run, never above the longest wait (a clock set back)."""
        return min(self.settings.access_lockout_max_s, max(0.0, float(record.get("until", 0.0)) - now))

    def _decision(self, data: dict[str, Any], key: str, now: float, granted: bool) -> AccessDecision:
        mine = data["clients"].get(key, {})
        own, every = self._left(mine, now), self._left(data[ALL], now)
        wait = max(own, every)
        left = 0 if wait > 0 else max(0, min(self.settings.access_max_attempts - self._count(mine, now),
                                             self.settings.access_global_max_attempts - self._count(data[ALL], now)))
        scope = "" if wait <= 0 else ("all" if every >= own else "client")
        return AccessDecision(granted, wait, left, scope, checked=True)

    # --- the file -------------------------------------------------------------------------------------------
    def _read(self) -> dict[str, Any]:
        """The state; a missing file is empty, an unreadable or malformed one too (logged at WARNING)."""
        empty: dict[str, Any] = {"version": 1, "clients": {}, ALL: {}}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return empty
        except (OSError, ValueError) as exc:
            logger.warning("access attempts file %s unreadable (%s); counting from zero", self.path, exc)
            return empty
        if not (isinstance(data, dict) and isinstance(data.get("clients"), dict) and isinstance(data.get(ALL), dict)
                and all(isinstance(r, dict) for r in data["clients"].values())):
            logger.warning("access attempts file %s malformed; counting from zero", self.path)
            return empty
        return data

    def _write(self, data: dict[str, Any], now: float) -> None:
        """Write the state, dropping clients with nothing counted and no wait left."""
        data["clients"] = {k: r for k, r in data["clients"].items()
                           if self._count(r, now) > 0 or self._left(r, now) > 0}
        try:
            atomic_write_json(self.path, data, compact=True)
        except OSError as exc:
            raise StoreError(f"The access attempts file {self.path} could not be written "
                             f"({exc.strerror or exc}).") from exc


def _hash(client: str) -> str:
    return hashlib.sha256(client.encode("utf-8")).hexdigest()[:32]


def _same(entered: str, expected: str) -> bool:
    """Constant-time comparison of two codes (UTF-8 bytes; surrounding spaces ignored)."""
    return hmac.compare_digest(entered.strip().encode("utf-8"), expected.strip().encode("utf-8"))


class AccessFacade:
    """The access gate for a class that has ``settings`` and the audit trail's ``record`` (mixed into
    :class:`prism.service.PrismService`)."""

    settings: Settings
    record: Callable[..., AuditEntry]

    def access_client(self, peer: str | None, forwarded_for: Sequence[str] = ()) -> str:
        """The key a client is counted by (:func:`client_key` with ``settings.access_proxy_hops``)."""
        return client_key(peer, forwarded_for, self.settings.access_proxy_hops)

    def access_status(self, client: str) -> AccessDecision:
        """Whether ``client`` may try an access code now (:meth:`AccessGuard.status`)."""
        return AccessGuard(self.settings.home, self.settings).status(client)

    def try_access_code(self, entered: str, expected: str, client: str, actor: str | None = None
                        ) -> AccessDecision:
        """Check an access code for ``client`` (:meth:`AccessGuard.attempt`); a code checked is recorded in the
        home audit log (``access.granted`` / ``access.denied``, by ``actor``, with the client's address, the wait
        started and the tries left), a refusal during a wait only in the app's log. Raises ``StoreError``."""
        decision = AccessGuard(self.settings.home, self.settings).attempt(client, entered, expected)
        if not decision.checked:
            logger.warning("access code refused unchecked: %s waits %.0f s (%s)", client, decision.wait_s,
                           decision.scope)
            return decision
        action = "access.granted" if decision.granted else "access.denied"
        (logger.info if decision.granted else logger.warning)("%s for %s", action, client)
        details = {"client": client, "wait_s": round(decision.wait_s, 1), "tries_left": decision.tries_left,
                   "scope": decision.scope}
        self.record(None, actor, action, "access code", details)  # no workspace: the home log
        return decision
