"""The access gate: the only page a session sees before it gives the access code (``PRISM_ACCESS_CODE``).

Wrong codes are counted by the service on disk, per client address and for the whole deployment, with growing
waits (:class:`prism.index.access.AccessGuard`), so a reload, a new tab or a restart gives no try back. The
client's address is the connection's (``st.context.ip_address``) or, behind ``access_proxy_hops`` proxies, read
from ``X-Forwarded-For`` (:func:`prism.index.access.client_key`). Only whether this session got in is kept in the
session.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

import streamlit as st

from prism.errors import PrismError
from prism.service import PrismService
from prism.ui import state
from prism.ui.resources import get_service, secret

logger = logging.getLogger(__name__)

def access_code() -> str | None:
    """The configured access code (``PRISM_ACCESS_CODE`` in secrets or env), or ``None`` for an open app."""
    return secret("PRISM_ACCESS_CODE")


def access_granted() -> bool:
    """True when no access code is configured or this session has given it."""
    return access_code() is None or bool(st.session_state.get(state.AUTHENTICATED))


def forwarded_for() -> Sequence[str]:
    """The values of every ``X-Forwarded-For`` header of this session's request (none outside a browser)."""
    headers = st.context.headers
    if not headers:
        return ()
    getter = getattr(headers, "get_all", None)
    values = getter("x-forwarded-for") if getter is not None else [headers.get("x-forwarded-for")]
    return [str(v) for v in values if v]


def client(service: PrismService) -> str:
    """The address this session is counted by (:meth:`PrismService.access_client`)."""
    return service.access_client(st.context.ip_address, forwarded_for())


def access_gate(css: str = "") -> None:
    """The access code form; while this client (or every client) has to wait, the wait instead of the form."""
    expected = access_code()
    st.html(css)
    _, middle, _ = st.columns([1, 2, 1])
    with middle:
        st.markdown('<p class="prism-brand"><span>◆</span> Prism</p>', unsafe_allow_html=True)
        st.subheader("Enter your access code")
        st.caption("This Prism workspace is private. Ask the person who shared the link for the access code.")
        try:
            service = get_service()
            who = client(service)
            status = service.access_status(who)
        except PrismError as e:
            st.error(str(e))
            return
        if status.wait_s > 0:
            st.error(status.message)
            return
        with st.form("access", clear_on_submit=True, border=True):
            entered = st.text_input("Access code", type="password", key="prism.access_input")
            submitted = st.form_submit_button("Continue", type="primary", use_container_width=True)
        if submitted and expected is not None:
            _submit(service, who, entered or "", expected)


def _submit(service: PrismService, who: str, entered: str, expected: str) -> None:
    """Check one code: in, or the wrong-code message (the wait's, without the form, when one starts)."""
    try:
        decision = service.try_access_code(entered, expected, who, actor=state.actor())
    except PrismError as e:
        st.error(str(e))
        return
    if decision.granted:
        st.session_state[state.AUTHENTICATED] = True
        logger.info("access granted")
        st.rerun()
    time.sleep(0.5)  # slows guessing a little more
    if decision.wait_s > 0:
        st.rerun()  # draw the wait without the form
    left = decision.tries_left
    st.error("That code is not right. " + (f"{left} {'try' if left == 1 else 'tries'} left." if left
                                           else "The next wrong code starts a wait."))
