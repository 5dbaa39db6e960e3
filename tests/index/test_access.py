"""The access code's lockout (issue 41 B): wrong codes counted per client address and for the whole deployment, in
a real state file under a temp PRISM_HOME, with growing waits that a new guard (a restart) still sees; attempts in
the home audit log. Time is a fake clock: the waits are hand-computed (30 s, doubling, at most the cap)."""

from __future__ import annotations

import json
import logging
import threading

import pytest

from prism.config import Settings
from prism.index.access import ACCESS_FILE, UNKNOWN_CLIENT, AccessGuard, client_key
from prism.index.audit import AUDIT_FILE
from prism.service import PrismService
from prism.types import AccessDecision, wait_phrase

RIGHT = "correct horse battery staple"


class Clock:
    """A settable wall clock (Unix seconds)."""

    def __init__(self, now: float = 1_800_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def guard(home, clock, **limits) -> AccessGuard:
    settings = Settings(home=home, **{"access_lockout_s": 30.0, "access_lockout_max_s": 3600.0, **limits})
    return AccessGuard(home, settings, clock)


# --- who a client is --------------------------------------------------------------------------------------------
def test_client_key_uses_the_connection_unless_proxies_are_configured():
    # no proxy configured: a forwarded address is the client's own writing and is ignored
    assert client_key("203.0.113.7", ["198.51.100.1"], 0) == "203.0.113.7"
    assert client_key(None, ["198.51.100.1"], 0) == UNKNOWN_CLIENT  # a local browser
    # one proxy that appends what it saw: the last entry, whatever the client wrote before it
    assert client_key("10.0.0.2", ["1.1.1.1, 203.0.113.7"], 1) == "203.0.113.7"
    assert client_key("10.0.0.2", ["forged", "203.0.113.7"], 1) == "203.0.113.7"  # two header lines, in order
    assert client_key("10.0.0.2", ["198.51.100.9, 203.0.113.7, 10.0.0.3"], 2) == "203.0.113.7"
    # fewer entries than proxies, or no address: unknown (one shared count), never the connection of the proxy
    assert client_key("10.0.0.2", [], 1) == UNKNOWN_CLIENT
    assert client_key("10.0.0.2", ["203.0.113.7"], 2) == UNKNOWN_CLIENT
    assert client_key("10.0.0.2", ["<script>"], 1) == UNKNOWN_CLIENT
    assert client_key("10.0.0.2", ["x" * 500], 1) == UNKNOWN_CLIENT


def test_client_key_normalises_ports_ipv6_and_mapped_addresses():
    assert client_key("203.0.113.7:51000") == "203.0.113.7"
    assert client_key("[2001:db8:1:2:aaaa::5]:443") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"  # the same subscriber's /64: one client
    assert client_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert client_key("fe80::1%eth0") == "fe80::/64"


# --- counting and waiting ---------------------------------------------------------------------------------------
def test_five_wrong_codes_start_a_wait_that_doubles_and_refuses_even_the_right_code(tmp_path):
    clock = Clock()
    g = guard(tmp_path, clock)
    lefts = [g.attempt("203.0.113.7", f"guess {i}", RIGHT).tries_left for i in range(4)]
    assert lefts == [4, 3, 2, 1]
    fifth = g.attempt("203.0.113.7", "guess 5", RIGHT)
    assert (fifth.granted, fifth.wait_s, fifth.tries_left, fifth.scope) == (False, 30.0, 0, "client")
    clock.now += 10
    refused = g.attempt("203.0.113.7", RIGHT, RIGHT)  # the right code during the wait: refused, unchecked
    assert (refused.granted, refused.checked, refused.wait_s) == (False, False, 20.0)
    assert g.status("203.0.113.7").wait_s == 20.0
    assert g.status("198.51.100.1") == AccessDecision(False, 0.0, 5, "", True)  # another address is not held
    clock.now += 20
    assert g.attempt("203.0.113.7", "guess 6", RIGHT).wait_s == 60.0  # the refusal counted nothing; doubles
    clock.now += 60
    assert g.attempt("203.0.113.7", "guess 7", RIGHT).wait_s == 120.0
    clock.now += 120
    assert g.attempt("203.0.113.7", RIGHT, RIGHT).granted
    assert g.status("203.0.113.7").tries_left == 5  # the right code clears the client's count


def test_the_wait_is_capped_and_a_count_forgets_one_code_per_longest_wait(tmp_path):
    clock = Clock()
    g = guard(tmp_path, clock, access_lockout_max_s=100.0)
    waits = []
    for step in (0, 0, 0, 0, 0, 30, 60, 100):  # each guess as soon as the last wait has run
        clock.now += step
        waits.append(g.attempt("c", "guess", RIGHT).wait_s)
    # 30, 60, then 120 capped at 100; the 8th guess came 100 s after the 7th: one code forgotten, still 7 counted
    assert waits == [0, 0, 0, 0, 30.0, 60.0, 100.0, 100.0]
    clock.now += 250  # two more periods without a wrong code: 7 → 5
    assert g.status("c") == AccessDecision(False, 0.0, 0, "", True)
    assert g.attempt("c", "guess", RIGHT).wait_s == 60.0  # the 6th counted code
    clock.now -= 10_000  # a clock set back never makes a wait longer than the cap
    assert g.status("c").wait_s == 100.0


def test_wrong_codes_from_many_addresses_make_every_client_wait(tmp_path):
    clock = Clock()
    g = guard(tmp_path, clock, access_global_max_attempts=12)
    for i in range(11):  # eleven addresses, one guess each: under every client's limit
        assert g.attempt(f"203.0.113.{i}", "guess", RIGHT).wait_s == 0.0
    assert g.status("198.51.100.1").tries_left == 1  # the deployment's count leaves one try to anyone
    last = g.attempt("203.0.113.200", "guess", RIGHT)
    assert (last.wait_s, last.scope) == (30.0, "all")
    held = g.status("198.51.100.1")  # a new address, never wrong, waits too
    assert (held.wait_s, held.scope) == (30.0, "all")
    assert "from all addresses together" in held.message and "30 s" in held.message
    assert not g.attempt("198.51.100.1", RIGHT, RIGHT).granted


def test_the_lockout_survives_a_restart_and_the_file_holds_no_address(tmp_path):
    clock = Clock()
    first = guard(tmp_path, clock)
    for i in range(5):
        first.attempt("203.0.113.7", f"guess {i}", RIGHT)
    restarted = guard(tmp_path, clock)  # a new process: nothing but the file
    assert restarted.status("203.0.113.7").wait_s == 30.0
    text = (tmp_path / ACCESS_FILE).read_text(encoding="utf-8")
    assert "203.0.113" not in text
    assert json.loads(text)["all"]["n"] == 5


def test_an_unreadable_state_file_counts_from_zero_with_a_warning(tmp_path, caplog):
    (tmp_path / ACCESS_FILE).parent.mkdir(parents=True)
    (tmp_path / ACCESS_FILE).write_text('{"clients": [1, 2]', encoding="utf-8")
    g = guard(tmp_path, Clock())
    with caplog.at_level(logging.WARNING, logger="prism.index.access"):
        assert g.attempt("c", "guess", RIGHT).tries_left == 4
    assert "unreadable" in caplog.text
    assert json.loads((tmp_path / ACCESS_FILE).read_text(encoding="utf-8"))["all"]["n"] == 1


def test_concurrent_wrong_codes_are_all_counted(tmp_path):
    g = guard(tmp_path, Clock(), access_max_attempts=100, access_global_max_attempts=1000)
    threads = [threading.Thread(target=lambda i=i: guard(tmp_path, g.clock, access_max_attempts=100,
                                                          access_global_max_attempts=1000).attempt("c", str(i), RIGHT))
               for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert g.status("c").tries_left == 100 - 12  # no update lost: each check holds the file lock


def test_wait_phrase():
    assert [wait_phrase(s) for s in (0.2, 29.1, 60, 185, 3600, 3725)] == [
        "1 s", "30 s", "1 min", "3 min 5 s", "1 h", "1 h 2 min"]


# --- through the service: the audit log -------------------------------------------------------------------------
def test_checked_codes_are_in_the_home_audit_log(tmp_path):
    svc = PrismService(Settings(home=tmp_path, access_max_attempts=2))
    who = svc.access_client("203.0.113.7")
    assert svc.try_access_code("nope", RIGHT, who, actor="session-a").tries_left == 1
    assert svc.try_access_code("nope again", RIGHT, who, actor="session-b").wait_s == 30.0
    assert not svc.try_access_code(RIGHT, RIGHT, who, actor="session-c").checked  # refused: not in the audit log
    entries = svc.audit()
    assert [(e.actor, e.action, e.details["client"], e.details["wait_s"]) for e in entries] == [
        ("session-a", "access.denied", "203.0.113.7", 0.0), ("session-b", "access.denied", "203.0.113.7", 30.0)]
    assert RIGHT not in (tmp_path / AUDIT_FILE).read_text(encoding="utf-8")  # codes are never written
    assert "nope" not in (tmp_path / AUDIT_FILE).read_text(encoding="utf-8")
    other = svc.access_client("198.51.100.1")
    assert svc.try_access_code(f"  {RIGHT} ", RIGHT, other, actor="session-d").granted
    assert svc.audit()[-1].action == "access.granted"


@pytest.mark.parametrize("hops,expected", [(0, "10.0.0.2"), (1, "203.0.113.7")])
def test_the_service_reads_the_proxy_setting(tmp_path, hops, expected):
    svc = PrismService(Settings(home=tmp_path, access_proxy_hops=hops))
    assert svc.access_client("10.0.0.2", ["198.51.100.1, 203.0.113.7"]) == expected
