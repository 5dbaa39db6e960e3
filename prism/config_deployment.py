"""The settings of a shared deployment: the access code's lockout and the Chroma server's timeout.

:class:`DeploymentSettings` is the base of :class:`prism.config.Settings` (its fields are read like every other
``PRISM_*`` value: ``PRISM_ACCESS_MAX_ATTEMPTS=5``); it lives apart only to keep ``config.py`` short. It imports
nothing from prism. User-facing description: docs/deployment.md.
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings


class DeploymentSettings(BaseSettings):
    """How a deployment shared by several analysts fails safe (a base class of :class:`prism.config.Settings`).

    Raises:
        pydantic.ValidationError: a value is out of its bounds.
    """

    # --- a Chroma server -----------------------------------------------------------------------------------
    chroma_timeout_s: float = Field(
        default=15.0, gt=0, le=600,
        description="Longest wait for a Chroma server (PRISM_CHROMA_HOST) to connect, take a request or send the "
        "next part of its answer, seconds. A server that stays silent longer fails the call with a message naming "
        "it (host:port); other workspaces are not held up meanwhile.",
    )

    # --- the access code -----------------------------------------------------------------------------------
    access_max_attempts: int = Field(
        default=5, ge=1, le=100,
        description="Wrong access codes one client (its address; every client without a known address shares one "
        "count) may enter before each further try has to wait. Kept on disk: a reload or a restart gives none back.",
    )
    access_global_max_attempts: int = Field(
        default=20, ge=1, le=100_000,
        description="Wrong access codes from all clients together before everyone has to wait (an attacker who "
        "changes address meets this limit).",
    )
    access_lockout_s: float = Field(
        default=30.0, gt=0, le=86_400,
        description="The first wait once a limit is reached, seconds; it doubles with each further wrong code.",
    )
    access_lockout_max_s: float = Field(
        default=3600.0, gt=0, le=7 * 86_400,
        description="The longest wait, seconds. A count also forgets one wrong code per this many seconds without "
        "a new one; the right code clears the client's count (not the deployment's).",
    )
    access_proxy_hops: int = Field(
        default=0, ge=0, le=5,
        description="Proxies in front of the app that each append the address they saw to X-Forwarded-For: the "
        "client is the entry this many places from the right. 0: the header is ignored (a client can write "
        "anything into it) and the connection's own address is used. A Hugging Face Space: 1 (its proxy appends "
        "the visitor's address). Too many entries missing: the client counts as unknown.",
    )
