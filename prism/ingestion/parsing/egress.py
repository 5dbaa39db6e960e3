"""Where URL ingest may connect: every address a host resolves to is checked, and the checked one is connected to.

Server-side request forgery (SSRF; CWE-918; OWASP Top 10 for LLM Applications 2025, LLM05 "Improper Output
Handling"; the same bug in LLM tools: CVE-2023-46229 (LangChain ``RecursiveUrlLoader``), CVE-2024-0243 (LangChain
crawler redirects), CVE-2024-0455 (AnythingLLM fetching the cloud metadata address)). Prism runs on a shared host: a
URL typed by one analyst must not read a service only the host can reach (127.0.0.1, the RFC 1918 networks,
169.254.169.254). The rules follow the OWASP SSRF Prevention Cheat Sheet
(https://cheatsheetseries.owasp.org/cheatsheets/Server_Side_Request_Forgery_Prevention_Cheat_Sheet.html):

- only ``http`` and ``https``;
- the host is resolved first and EVERY address it resolves to must be public (one private answer refuses the URL);
  a host written as a number (``2130706433``, ``0x7f.1``, ``017700000001``, ``127.1``) is read the way the C
  resolver reads it (``inet_aton``) and checked as that address;
- the checked address is the one connected to (:class:`Target`), so a DNS answer that changes between the check
  and the connection (DNS rebinding) is never used; :mod:`prism.ingestion.parsing.url` checks every redirect hop.

``allow_private=True`` (``PRISM_URL_ALLOW_PRIVATE``) turns the address rules off for a single-user, local install;
``PRISM_URL_ALLOW_HOSTS`` names the few hosts they are off for (an internal documents server). The scheme rule and
the pinning always stay.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import re
import socket
from collections.abc import Callable, Sequence

from prism.errors import FetchError, UnsafeURLError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Sequence[str]]
"""``(host, port) -> addresses`` as text, in the resolver's order; raises ``OSError`` when the name is unknown."""

ALLOWED_SCHEMES = ("http", "https")
HINT = "set PRISM_URL_ALLOW_PRIVATE=true for local use"

_NUMERIC_HOST = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]+)){0,3}", re.IGNORECASE)
_METADATA = {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
_CGNAT = ipaddress.ip_network("100.64.0.0/10")  # RFC 6598
_RFC1918 = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))
_UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")  # RFC 4193
_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052: the low 32 bits are an IPv4 address


@dataclasses.dataclass(frozen=True)
class Target:
    """A checked destination: connect to ``address``, speak to ``host`` (Host header and TLS SNI).

    Attributes:
        host: the URL's host in lower case (an IPv6 address without brackets).
        port: the TCP port (the scheme's default when the URL names none).
        address: the checked IP address, as text, that the connection must use.
    """

    host: str
    port: int
    address: str


def system_resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (``socket.getaddrinfo``, TCP), duplicates removed, resolver order kept.

    Raises:
        OSError: ``socket.gaierror`` when the name does not resolve.
    """
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def literal_address(host: str) -> IPAddress | None:
    """The address ``host`` is written as, or ``None`` for a name.

    Besides dotted quads and IPv6 (zone ids allowed), the legacy numeric forms the C resolver accepts are read as
    ``inet_aton`` reads them: one decimal, octal (leading 0) or hex (0x) integer for the whole address, or two or
    three parts (``127.1`` is 127.0.0.1), so ``2130706433`` and ``0x7f000001`` are 127.0.0.1.

    Raises:
        FetchError: the host looks numeric but is no address (``999999999999``).
    """
    text = host.strip("[]")
    try:
        return ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        pass
    bare = text[:-1] if text.endswith(".") else text
    if not _NUMERIC_HOST.fullmatch(bare):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(bare))
    except OSError as exc:
        raise FetchError(f"{host} is neither a host name nor a valid address") from exc


def embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for: IPv4-mapped (``::ffff:a.b.c.d``), 6to4 (``2002::/16``) or
    NAT64 (``64:ff9b::/96``, RFC 6052); ``None`` otherwise (and for IPv4)."""
    if isinstance(ip, ipaddress.IPv4Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def refusal(ip: IPAddress) -> str | None:
    """Why URL ingest must not connect to ``ip`` ("a loopback address"), or ``None`` when it is a public address.

    Refused: unspecified (0.0.0.0, ::), loopback (127.0.0.0/8, ::1), link-local (169.254.0.0/16 with the cloud
    metadata address 169.254.169.254, fe80::/10), carrier-grade NAT (100.64.0.0/10, RFC 6598), private (RFC 1918),
    unique-local (fc00::/7, RFC 4193), site-local (fec0::/10), multicast, and whatever else the IANA special-purpose
    registries mark as not globally reachable (``ipaddress``'s ``is_global``: 0.0.0.0/8, 192.0.2.0/24, 240.0.0.0/4,
    broadcast …). An IPv6 address that embeds an IPv4 one (:func:`embedded_ipv4`) is judged by that.
    """
    inner = embedded_ipv4(ip)
    if inner is not None:
        reason = refusal(inner)
        return f"{reason} ({inner})" if reason else None
    checks: tuple[tuple[bool, str], ...] = (
        (ip.is_unspecified, "the unspecified address"),
        (ip.is_loopback, "a loopback address"),
        (ip in _METADATA, "the cloud metadata address (link-local)"),
        (ip.is_link_local, "a link-local address"),
        (ip in _CGNAT, "a carrier-grade NAT address (RFC 6598)"),
        (any(ip in net for net in _RFC1918), "a private address (RFC 1918)"),
        (ip in _UNIQUE_LOCAL, "a unique-local address (RFC 4193)"),
        (isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local, "a site-local address"),
        (ip.is_multicast, "a multicast address"),
        (ip.is_reserved or not ip.is_global, "a reserved, non-public address"),
    )
    return next((reason for hit, reason in checks if hit), None)


def allowed_hosts(setting: str) -> frozenset[str]:
    """The host names of ``PRISM_URL_ALLOW_HOSTS`` (comma-separated), lower case, without a trailing dot."""
    return frozenset(h.strip().lower().rstrip(".") for h in setting.split(",") if h.strip())


def check_target(url: str, scheme: str, host: str, port: int | None, *, allow_private: bool,
                 allow_hosts: frozenset[str] = frozenset(), resolve: Resolver = system_resolve) -> Target:
    """Check one request's destination and pin the address to connect to.

    Args:
        url: the URL as the analyst will read it in a message.
        scheme, host, port: its parts (``port`` ``None`` for the scheme's default).
        allow_private: skip the address rules (``PRISM_URL_ALLOW_PRIVATE``); the scheme rule still holds.
        allow_hosts: host names the address rules skip (``PRISM_URL_ALLOW_HOSTS``, see :func:`allowed_hosts`).
        resolve: the resolver (:func:`system_resolve`; tests pass a stub).

    Returns:
        The :class:`Target`: the first address the host resolves to, every one of them checked.

    Raises:
        UnsafeURLError: not http(s), or an address is refused ("refused: 127.0.0.1 is a loopback address; set
            PRISM_URL_ALLOW_PRIVATE=true for local use"); the message names the URL.
        FetchError: the host does not resolve, or is a malformed number.
    """
    scheme = scheme.lower()
    if scheme not in ALLOWED_SCHEMES:
        raise UnsafeURLError(f"Could not fetch URL: {url} (refused: only http and https addresses are fetched, "
                             f"not {scheme or 'a relative address'})")
    host = host.lower().strip("[]")
    port = port or (443 if scheme == "https" else 80)
    literal = literal_address(host)
    if literal is not None:
        addresses = [literal]
    else:
        try:
            addresses = [ipaddress.ip_address(a.split("%", 1)[0]) for a in resolve(host, port)]
        except OSError as exc:
            raise FetchError(f"Could not fetch URL: {url} (the host {host} could not be resolved)") from exc
        if not addresses:
            raise FetchError(f"Could not fetch URL: {url} (the host {host} could not be resolved)")
    if not allow_private and host.rstrip(".") not in allow_hosts:
        for ip in addresses:
            reason = refusal(ip)
            if reason:
                what = f"{host} is" if literal is not None else f"{host} resolves to {ip},"
                raise UnsafeURLError(f"Could not fetch URL: {url} (refused: {what} {reason}; {HINT})")
    return Target(host, port, str(addresses[0]))
