"""The access gate across reloads and restarts (issue 41 B, case 68): each AppTest is a new browser session of
app.py (what a reload, a new tab or a dropped cookie gives); a restart is a new service over the same PRISM_HOME
(the resource cache cleared). Wrong codes are counted on disk by client (here: no address, one shared count)."""

from __future__ import annotations

import time

from prism.index.access import ACCESS_FILE
from prism.ui import resources
from tests.ui.apptest_helpers import app, click, no_exception

RIGHT = "correct horse battery staple"


def _session():
    at = app()
    at.secrets["PRISM_ACCESS_CODE"] = RIGHT
    return at.run()


def _form(at) -> bool:
    return any(b.label == "Continue" for b in at.button)


def _guess(at, code: str):
    at.text_input(key="prism.access_input").set_value(code)
    return click(at, "Continue")


def test_a_reload_or_a_restart_gives_no_try_back(with_sample, service_factory, monkeypatch):
    monkeypatch.setenv("PRISM_ACCESS_MAX_ATTEMPTS", "3")
    at = _session()
    assert _form(at)
    at = _guess(at, "guess 1")
    assert [e.value for e in at.error] == ["That code is not right. 2 tries left."]
    at = _guess(at, "guess 2")
    at = _guess(at, "guess 3")
    no_exception(at)
    assert not _form(at)
    assert [e.value for e in at.error] == ["Too many wrong codes from your address. Try again in 30 s."]

    reloaded = _session()  # a reload: a new session, no form, the same wait
    no_exception(reloaded)
    assert not _form(reloaded) and not reloaded.title
    assert reloaded.error[0].value.startswith("Too many wrong codes from your address. Try again in ")

    resources._service.clear()  # a restart: a new service, nothing but the files on disk
    restarted = _session()
    assert not _form(restarted)
    assert (with_sample / ACCESS_FILE).is_file()
    denied = [e for e in resources.get_service().audit() if e.action == "access.denied"]
    assert [(e.details["client"], e.details["tries_left"]) for e in denied] == [
        ("unknown", 2), ("unknown", 1), ("unknown", 0)]
    assert denied[-1].details["wait_s"] == 30.0


def test_the_right_code_works_once_the_wait_has_run(with_sample, service_factory, monkeypatch):
    monkeypatch.setenv("PRISM_ACCESS_MAX_ATTEMPTS", "1")
    monkeypatch.setenv("PRISM_ACCESS_LOCKOUT_S", "1")
    at = _guess(_session(), "guess")
    assert not _form(at)
    assert [e.value for e in at.error] == ["Too many wrong codes from your address. Try again in 1 s."]
    time.sleep(1.1)
    at = _session()
    assert _form(at)
    at = _guess(at, RIGHT)
    no_exception(at)
    assert at.title[0].value == "Chat"
