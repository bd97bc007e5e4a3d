"""Sans-IO request descriptions and HTTP response judging.

Nothing here performs I/O. The builders (:func:`responses_request`, :func:`resume_request`,
:func:`chat_request`) describe the HTTP request an adapter must send; :func:`needs_error_body`,
:func:`response_error` and :func:`check_content_type` judge what came back. Status errors follow the
official SDK (``openai/_exceptions.py``, ``_base_client.py``): the same class per status, the
same ``retry-after`` rules (``retry-after-ms``, then ``retry-after`` as seconds or an HTTP-date,
RFC 9110 section 10.2.3) and the same refusal to retry automatically when the server asks for more
than 120 s.

Header names in a :class:`Request` are lower-case (HTTP field names are case-insensitive, RFC 9110
section 5.1, and h11 lower-cases them anyway). The API key never appears in ``repr()`` of a request
or in the message of any exception raised here.
"""

from __future__ import annotations

import email.utils
import json
import math
import re
import sys
import time
import urllib.parse
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, cast

import attrs

from .._errors import LocalProtocolError, RemoteProtocolError, excerpt

if TYPE_CHECKING:
    # Type checkers get a TypeVar with a default (PEP 696), so a request built by hand is typed
    # for either stream kind; the runtime TypeVar (3.10+) takes no default, and needs none.
    from typing_extensions import TypeVar

    from .._base import JSONValue
    from .._chat.stream import ChatCompletionsStream
    from .._responses.stream import ResponsesStream

    StreamT = TypeVar(
        "StreamT",
        bound="ResponsesStream | ChatCompletionsStream",
        covariant=True,
        default="ResponsesStream | ChatCompletionsStream",
    )
else:
    from typing import TypeVar

    StreamT = TypeVar("StreamT", covariant=True)

__all__ = [
    "DEFAULT_BASE_URL",
    "ERROR_BODY_LIMIT",
    "MAX_RESPONSE_ID_LENGTH",
    "MAX_RETRY_AFTER",
    "SENSITIVE_HEADERS",
    "APIErrorObject",
    "APIStatusError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "InternalServerError",
    "NotFoundError",
    "PermissionDeniedError",
    "RateLimitError",
    "Request",
    "UnexpectedContentType",
    "UnprocessableEntityError",
    "chat_request",
    "check_content_type",
    "needs_error_body",
    "response_error",
    "responses_request",
    "resume_request",
    "unusable_response_id",
]

DEFAULT_BASE_URL = "https://api.openai.com/v1"
"""The OpenAI API. Any compatible server works: pass e.g. ``base_url="http://127.0.0.1:8080/v1"``."""

ERROR_BODY_LIMIT = 1 << 20
"""Adapters read at most this many bytes (1 MiB) of a non-2xx body before calling
:func:`response_error`; API error bodies are a few hundred bytes, so this only bounds a hostile
peer."""

MAX_RETRY_AFTER = 120.0
"""A server-requested delay above this many seconds makes ``should_retry`` false (official SDK rule:
``MAX_RETRY_AFTER_DELAY = 120``; such a wait is not safe to take automatically)."""

MAX_RESPONSE_ID_LENGTH = 1024
"""The longest response id a stream is resumed with (OpenAI's are about 50 characters; proxies
that pack routing data into the id, base64-encoded, use a few hundred)."""

SENSITIVE_HEADERS = frozenset({"authorization", "api-key", "x-api-key", "openai-api-key"})
"""Header names whose values are replaced by ``'<redacted>'`` in ``repr(Request)``."""

_REDACTED = "<redacted>"
_OPENAI_HOST = "api.openai.com"
_RETRYABLE_STATUSES = frozenset({408, 409, 429})
_MESSAGE_LIMIT = 500  # characters of a non-JSON error body kept in str(exc)

HeadersLike: TypeAlias = Mapping[str, str] | Iterable[tuple[str | bytes, str | bytes]]
"""Response headers as a mapping or as ``(name, value)`` pairs of str or bytes."""


def _version() -> str:
    # Imported lazily: sansio_responses/__init__.py imports this module.
    from .. import __version__

    return __version__


@attrs.frozen(repr=False)
class Request(Generic[StreamT]):
    """One HTTP request to send, described without I/O.

    The type parameter is the core stream that decodes its response body, for type checkers only
    (the adapters' ``events.stream`` is typed from it): the Responses builders return
    ``Request[ResponsesStream]``, :func:`chat_request` returns ``Request[ChatCompletionsStream]``;
    a ``Request(...)`` built by hand is ``Request[ResponsesStream | ChatCompletionsStream]``. At
    run time :attr:`kind` decides.

    Attributes:
        method: ``"POST"`` or ``"GET"``.
        url: the absolute URL, query string included.
        headers: ordered ``(name, value)`` pairs; the builders use lower-case names (lookups and
            redaction ignore case, so hand-built requests may use any case). No ``Host`` header: the
            adapter (or its HTTP client) adds it from ``url``.
        body: the encoded JSON body, or ``None`` for a GET.
        kind: which protocol the response body speaks: ``"responses"`` (Responses API events) or
            ``"chat"`` (Chat Completions chunks).
        background: ``True`` when the body asked for ``"background": true``, and for every resume
            request (only background responses can be resumed); adapters auto-resume only these.
        response_id: the id being resumed (resume requests only), else ``None``.
    """

    method: str
    url: str
    headers: tuple[tuple[str, str], ...]
    body: bytes | None
    kind: Literal["responses", "chat"] = "responses"
    background: bool = False
    response_id: str | None = None

    def header(self, name: str) -> str | None:
        """The value of header *name* (case-insensitive), repeated values joined by ``", "``, or
        ``None`` when absent."""
        wanted = name.lower()
        values = [value for key, value in self.headers if key.lower() == wanted]
        return ", ".join(values) if values else None

    @property
    def scheme(self) -> str:
        """``"http"`` or ``"https"``."""
        return urllib.parse.urlsplit(self.url).scheme

    @property
    def host(self) -> str:
        """The host name of the URL (no port, no brackets around IPv6 literals)."""
        return urllib.parse.urlsplit(self.url).hostname or ""

    @property
    def port(self) -> int:
        """The port of the URL, defaulting to 443 for https and 80 for http."""
        parts = urllib.parse.urlsplit(self.url)
        if parts.port is not None:
            return parts.port
        return 443 if parts.scheme == "https" else 80

    @property
    def target(self) -> str:
        """The request-target for the HTTP/1.1 request line: path plus query (RFC 9112 3.2.1)."""
        parts = urllib.parse.urlsplit(self.url)
        path = parts.path or "/"
        return f"{path}?{parts.query}" if parts.query else path

    def __repr__(self) -> str:
        headers = tuple(
            (key, _REDACTED if key.lower() in SENSITIVE_HEADERS else value)
            for key, value in self.headers
        )
        body = "None" if self.body is None else f"<{len(self.body)} bytes>"
        url = self.url
        netloc = urllib.parse.urlsplit(url).netloc if "@" in url else ""
        if "@" in netloc:
            # The builders refuse user info; a hand-built Request may still carry a password.
            url = url.replace(netloc, f"{_REDACTED}@{netloc.rpartition('@')[2]}", 1)
        return (
            f"Request(method={self.method!r}, url={url!r}, headers={headers!r}, body={body}, "
            f"kind={self.kind!r}, background={self.background!r}, "
            f"response_id={self.response_id!r})"
        )

    __str__ = __repr__


# --- building requests -------------------------------------------------------------------------


def _base(base_url: str) -> str:
    if not isinstance(base_url, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # for untyped callers
        raise LocalProtocolError(f"base_url must be a str, got {type(base_url).__name__}")
    # Checked before parsing: urlsplit silently drops some control characters (TAB, CR, LF), so
    # the URL sent would not be the one written. Nothing of the URL is echoed until userinfo (which
    # may hold a password) is known to be absent.
    bad = _first_outside(base_url, "\x21")
    if bad is not None:
        raise LocalProtocolError(
            f"base_url has {bad[1]} at position {bad[0]}: a URL holds no spaces, control or "
            "non-ASCII characters (percent-encode the path, use the punycode form of an "
            "international host name)"
        )
    try:
        parts = urllib.parse.urlsplit(base_url)
    except ValueError as exc:  # e.g. "Invalid IPv6 URL" for an unclosed "["
        shown = "(not shown: it has an '@')" if "@" in base_url else excerpt(base_url)
        raise LocalProtocolError(f"base_url is not a URL ({exc}): {shown}") from None
    if "@" in parts.netloc:
        # httpx would turn it into Basic auth (replacing the Bearer key), aiohttp refuses it, and
        # repr(Request) would show it: refuse it, and show the URL without it.
        shown = parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()
        raise LocalProtocolError(
            "base_url must not hold user info (user:password@host): pass the key as api_key= "
            f"(or an authorization header in headers=); got {excerpt(shown)} with the user info "
            "removed"
        )
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise LocalProtocolError(
            f"base_url must be an absolute http:// or https:// URL, got {excerpt(base_url)}"
        )
    if parts.query or parts.fragment or "?" in base_url or "#" in base_url:
        raise LocalProtocolError(
            f"base_url must not have a query or fragment (the path is appended to it), got "
            f"{excerpt(base_url)}"
        )
    try:
        parts.port  # noqa: B018 (urlsplit checks the port only when asked)
    except ValueError:
        raise LocalProtocolError(
            f"base_url has an invalid port (0-65535), got {excerpt(base_url)}"
        ) from None
    if not parts.hostname:
        raise LocalProtocolError(f"base_url has no host name, got {excerpt(base_url)}")
    return base_url.rstrip("/")


def _first_outside(text: str, low: str) -> tuple[int, str] | None:
    """The position of the first character of *text* outside *low* .. ``"~"`` (printable ASCII
    from *low*) and that character named for a message (never the text itself), else None."""
    for index, char in enumerate(text):
        if not low <= char <= "\x7e":
            return index, _describe_char(char)
    return None


def _describe_char(char: str) -> str:
    """A character named for an error message, e.g. ``"U+0009 (a control character)"``."""
    code = ord(char)
    if code == 0x20:
        kind = "a space"
    elif code < 0x20 or code == 0x7F:
        kind = "a control character"
    elif 0xD800 <= code <= 0xDFFF:
        kind = "a lone surrogate"
    elif code in (0xA0, 0x2007, 0x202F, 0xFEFF) or char.isspace():
        kind = "a non-ASCII space"
    else:
        kind = "a non-ASCII character"
    return f"U+{code:04X} ({kind})"


# RFC 9110 section 5.6.2: a field name is a token.
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+\Z")

# Set by the HTTP layer from the URL and the body; a caller's value would contradict it (a second
# Host, a Content-Length that does not match the body: request smuggling, RFC 9112 section 6.3).
_RESERVED_HEADERS = frozenset({"host", "content-length", "transfer-encoding"})


def _check_header(name: str, value: str) -> None:
    # Names are tokens and values visible ASCII with inner spaces (RFC 9110 section 5.5, without
    # obs-text and HTAB): anything else is refused here, where the message can be kept free of the
    # value, rather than by h11, httpx or str.encode, whose messages print the whole value. A value
    # is never echoed (it may be a key); only the position and kind of the bad character.
    if not _TOKEN.match(name):
        raise LocalProtocolError(
            f"invalid header name {excerpt(name)}: a header name is a token (letters, digits and "
            "!#$%&'*+-.^_`|~)"
        )
    bad = _first_outside(value, "\x20")
    if bad is not None:
        raise LocalProtocolError(
            f"header {name!r} has {bad[1]} at position {bad[0]} of its value (of {len(value)} "
            "characters; the value is not shown): header values are visible ASCII, so look for a "
            "stray character pasted with it"
        )
    if value != value.strip(" "):
        raise LocalProtocolError(
            f"header {name!r} has a leading or trailing space in its value (of {len(value)} characters; the "
            "value is not shown): HTTP would strip it"
        )


def _has_auth(extra: Mapping[str, str] | None) -> bool:
    return any(
        isinstance(name, str)  # pyright: ignore[reportUnnecessaryIsInstance]
        and name.lower() in SENSITIVE_HEADERS
        for name in (extra or {})
    )


def _check_key(api_key: str | None, base_url: str, extra: Mapping[str, str] | None) -> None:
    if api_key is None:
        if urllib.parse.urlsplit(base_url).hostname == _OPENAI_HOST and not _has_auth(extra):
            # The builders do not read OPENAI_API_KEY themselves: a request description that
            # depends on the environment would differ between a test and production, and a key
            # read behind the caller's back could be sent to a server they did not mean it for.
            raise LocalProtocolError(
                "no api_key: this request goes to the OpenAI API, which refuses requests without "
                "a key; pass api_key=os.environ['OPENAI_API_KEY'] (the builders do not read "
                "OPENAI_API_KEY themselves), or base_url= for a server that needs no key"
            )
        return
    if not isinstance(api_key, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise LocalProtocolError(f"api_key must be a str, got {type(api_key).__name__}")
    if not api_key:
        raise LocalProtocolError("api_key is empty (is OPENAI_API_KEY set?)")
    bad = _first_outside(api_key, "\x21")
    if bad is not None:
        raise LocalProtocolError(
            f"api_key has {bad[1]} at position {bad[0]} (of {len(api_key)} characters; the key is "
            "not shown): keys are visible ASCII, so look for a stray space, line break or "
            "character pasted with it"
        )


def _headers(
    *,
    post: bool,
    api_key: str | None,
    organization: str | None,
    project: str | None,
    extra: Mapping[str, str] | None,
) -> tuple[tuple[str, str], ...]:
    pairs: list[tuple[str, str]] = [("accept", "text/event-stream")]
    if post:
        pairs.append(("content-type", "application/json"))
    pairs.append(("user-agent", f"sansio-responses/{_version()}"))
    if api_key is not None:
        pairs.append(("authorization", f"Bearer {api_key}"))  # checked by _check_key
    if organization is not None:
        _check_header("openai-organization", organization)
        pairs.append(("openai-organization", organization))
    if project is not None:
        _check_header("openai-project", project)
        pairs.append(("openai-project", project))
    for name, value in (extra or {}).items():
        if not isinstance(name, str) or not isinstance(value, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise LocalProtocolError(
                f"header names and values must be str, got {type(name).__name__} name"
            )
        _check_header(name, value)
        key = name.lower()
        if key in _RESERVED_HEADERS:
            raise LocalProtocolError(
                f"header {name!r} cannot be set through headers=: the HTTP client derives it from "
                "base_url and the body"
            )
        # An extra header replaces a default of the same name (so callers can override
        # Authorization, Accept or User-Agent); it goes last, in the caller's order.
        pairs = [pair for pair in pairs if pair[0] != key]
        pairs.append((key, value))
    return tuple(pairs)


def _json_body(body: Mapping[str, Any], what: str) -> tuple[bytes, bool]:
    if not isinstance(body, Mapping):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise LocalProtocolError(f"{what} body must be a mapping, got {type(body).__name__}")
    payload = dict(body)
    if "stream" in payload and payload["stream"] is not True:
        raise LocalProtocolError(
            f"{what} body has 'stream': {payload['stream']!r}; this library only makes streamed "
            "requests, so leave 'stream' out or set it to true"
        )
    payload["stream"] = True
    _, data = _serialized(payload, f"{what} body")
    return data, payload.get("background") is True


def _serialized(payload: Any, what: str) -> tuple[str, bytes]:
    """*payload* as compact JSON text and its UTF-8 bytes, or :class:`LocalProtocolError` naming
    *what* when it cannot be sent: not JSON, nested past ``json.dumps``' recursion, or holding a
    lone surrogate (no UTF-8 form). For the HTTP request bodies and the WebSocket messages."""
    try:
        # allow_nan=False: NaN and Infinity are not JSON (RFC 8259 section 6); the API rejects them.
        encoded = json.dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise LocalProtocolError(f"{what} is not JSON-serializable: {exc}") from None
    except RecursionError:
        # json.dumps recurses once per level: a body nested deeper than Python's stack allows.
        raise LocalProtocolError(
            f"{what} nests arrays/objects too deeply to serialize "
            f"(Python's recursion limit is {sys.getrecursionlimit()})"
        ) from None
    try:
        data = encoded.encode("utf-8")
    except UnicodeEncodeError as exc:
        # A lone surrogate (e.g. from os.fsdecode or a broken JSON \ud800 escape) has no UTF-8 form.
        try:
            path = _surrogate_path(payload)
        except RecursionError:  # as deep as json.dumps allowed, deeper than this walk can go
            path = None
        where = path or f"at character {exc.start} of the JSON"
        raise LocalProtocolError(
            f"{what} has {_describe_char(encoded[exc.start])} {where}: it is not valid "
            "Unicode and cannot be sent as UTF-8"
        ) from None
    return encoded, data


def _has_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def _surrogate_path(value: Any, path: str = "") -> str | None:
    """Where in *value* the first string with a lone surrogate is, e.g. ``"in ['input'][0]"``."""
    if isinstance(value, str):
        return f"in {path or 'the body'}" if _has_surrogate(value) else None
    if isinstance(value, Mapping):
        # isinstance narrows the Any to Mapping[Unknown, Unknown] (and below list[Unknown]).
        for key, item in value.items():  # pyright: ignore[reportUnknownVariableType]
            if isinstance(key, str) and _has_surrogate(key):
                return f"in a key of {path or 'the body'}"
            found = _surrogate_path(item, f"{path}[{key!r}]")
            if found:
                return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
            found = _surrogate_path(item, f"{path}[{index}]")
            if found:
                return found
    return None


def responses_request(
    body: Mapping[str, Any],
    *,
    base_url: str = DEFAULT_BASE_URL,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    organization: str | None = None,
    project: str | None = None,
) -> Request[ResponsesStream]:
    """Describe ``POST {base_url}/responses`` creating a streamed response.

    *body* is the JSON request body (``model``, ``input``, ...); ``"stream": true`` is added (a body
    with ``"stream"`` set to anything but ``true`` raises :class:`LocalProtocolError`). Headers, in
    order: ``accept: text/event-stream``, ``content-type: application/json``, ``user-agent``,
    ``authorization: Bearer <api_key>`` when a key is given, ``openai-organization`` and
    ``openai-project`` when given, then *headers*; an extra header replaces a default of the same
    name.

    Raises :class:`LocalProtocolError` (whose message never holds a header value or the key) for:
    no *api_key* when the request goes to ``api.openai.com`` and *headers* has no
    ``Authorization`` (the builders never read ``OPENAI_API_KEY``: pass
    ``api_key=os.environ["OPENAI_API_KEY"]``); a key that is empty or not visible ASCII; a header
    name that is not a token or a value that is not visible ASCII (inner spaces allowed);
    ``Host``, ``Content-Length`` or ``Transfer-Encoding`` in *headers*; a *base_url* that is not an
    absolute http(s) URL or has spaces, control or non-ASCII characters, user info, a query or a
    fragment; a lone surrogate anywhere in *body*.
    """
    encoded, background = _json_body(body, "responses")
    base = _base(base_url)
    _check_key(api_key, base, headers)
    return Request(
        method="POST",
        url=base + "/responses",
        headers=_headers(
            post=True, api_key=api_key, organization=organization, project=project, extra=headers
        ),
        body=encoded,
        kind="responses",
        background=background,
    )


def resume_request(
    response_id: str,
    *,
    starting_after: int | None,
    base_url: str = DEFAULT_BASE_URL,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    organization: str | None = None,
    project: str | None = None,
) -> Request[ResponsesStream]:
    """Describe ``GET {base_url}/responses/{id}?stream=true&starting_after=N``.

    This resumes a background response after event number *starting_after*; the query parameter is
    omitted when ``None``, which replays the stream from the start. The id is percent-encoded as one
    path segment. Refusals as for :func:`responses_request` (and a lone surrogate in the id, or an
    id that is ``.`` or ``..``, which no URL can keep as a segment). Adapters resume only with the
    ids :func:`unusable_response_id` accepts.
    """
    if not isinstance(response_id, str) or not response_id:  # pyright: ignore[reportUnnecessaryIsInstance]
        raise LocalProtocolError(f"response_id must be a non-empty str, got {response_id!r:.60}")
    if starting_after is not None and (
        isinstance(starting_after, bool)
        or not isinstance(starting_after, int)  # pyright: ignore[reportUnnecessaryIsInstance]
        or starting_after < 0
    ):
        raise LocalProtocolError(
            f"starting_after must be a non-negative int or None, got {starting_after!r:.60}"
        )
    query = "stream=true"
    if starting_after is not None:
        query += f"&starting_after={starting_after}"
    if _has_surrogate(response_id):
        index = next(i for i, char in enumerate(response_id) if "\ud800" <= char <= "\udfff")
        raise LocalProtocolError(
            f"response_id has {_describe_char(response_id[index])} at position {index}: it is not "
            "valid Unicode and cannot be sent"
        )
    if response_id in (".", ".."):
        raise LocalProtocolError(
            f"response_id {response_id!r} is a dot segment: URL normalisation would remove it "
            "from the path, so no request can name it"
        )
    path = urllib.parse.quote(response_id, safe="")
    base = _base(base_url)
    _check_key(api_key, base, headers)
    return Request(
        method="GET",
        url=f"{base}/responses/{path}?{query}",
        headers=_headers(
            post=False, api_key=api_key, organization=organization, project=project, extra=headers
        ),
        body=None,
        kind="responses",
        background=True,
        response_id=response_id,
    )


def unusable_response_id(response_id: str) -> str | None:
    """Why a server-named *response_id* is not used to resume a stream, or ``None`` when it is usable.

    A usable id is 1 to :data:`MAX_RESPONSE_ID_LENGTH` visible ASCII characters (``!`` to ``~``: no
    space, control character or non-ASCII, so no lone surrogate) and is not ``.`` or ``..``. The
    resume request percent-encodes every character outside RFC 3986's unreserved set (section
    2.3), so ``/``, ``?``, ``#``, ``%`` and ``\\`` stay inside the one path segment after
    ``responses/``; a dot segment is refused because URL normalisation (RFC 3986 section 5.2.4,
    which httpx and aiohttp apply) would remove it, and the request would go to another path. An
    adapter that meets an unusable id does not resume: it raises a :class:`RemoteProtocolError`
    (the stream's outcome is ``"truncated"``).
    """
    if not response_id:
        return "it is empty"
    if len(response_id) > MAX_RESPONSE_ID_LENGTH:
        return f"it is longer than {MAX_RESPONSE_ID_LENGTH} characters ({len(response_id)})"
    outside = _first_outside(response_id, "!")
    if outside is not None:
        return f"it has {outside[1]} at position {outside[0]}"
    if response_id in (".", ".."):
        return "it is a dot segment, which URL normalisation removes from the path"
    return None


def chat_request(
    body: Mapping[str, Any],
    *,
    base_url: str = DEFAULT_BASE_URL,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    organization: str | None = None,
    project: str | None = None,
) -> Request[ChatCompletionsStream]:
    """Describe ``POST {base_url}/chat/completions`` with ``"stream": true``; headers as for
    :func:`responses_request`, and so are the refusals. Pass ``"stream_options": {"include_usage":
    true}`` in *body* to get the final usage chunk."""
    encoded, _ = _json_body(body, "chat")
    base = _base(base_url)
    _check_key(api_key, base, headers)
    return Request(
        method="POST",
        url=base + "/chat/completions",
        headers=_headers(
            post=True, api_key=api_key, organization=organization, project=project, extra=headers
        ),
        body=encoded,
        kind="chat",
        background=False,
    )


# --- judging responses ---------------------------------------------------------------------------


def _normalize_headers(headers: HeadersLike) -> tuple[tuple[str, str], ...]:
    items: Iterable[tuple[str | bytes, str | bytes]]
    if isinstance(headers, Mapping):
        # pyright's narrowing also allows a Mapping with tuple keys (an Iterable of pairs).
        items = cast("Mapping[str, str]", headers).items()
    else:
        items = headers
    out: list[tuple[str, str]] = []
    for name, value in items:
        # HTTP field values are octets; latin-1 maps each to one code point (RFC 9110 section 5.5).
        key = name.decode("latin-1") if isinstance(name, bytes) else str(name)
        text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
        out.append((key.lower(), text))
    return tuple(out)


def _get(headers: tuple[tuple[str, str], ...], name: str) -> str | None:
    for key, value in headers:
        if key == name:
            return value.strip()
    return None


@attrs.frozen
class APIErrorObject:
    """The error object of an API error body.

    Parsed from the body's ``"error"`` object when there is one (OpenAI), else from the body itself
    (several compatible servers put ``message``/``type``/``code`` at top level). For a body that is
    not JSON, ``message`` is the stripped text. ``raw`` is the parsed object (or text) untouched, so
    fields this class does not name are kept.
    """

    type: str | None
    code: str | int | None
    message: str | None
    param: str | None
    raw: Any


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _parse_error(body: bytes) -> APIErrorObject | None:
    text = body.decode("utf-8", errors="replace").strip()
    if not text:
        return None
    try:
        parsed: JSONValue = json.loads(text)
    except ValueError:
        return APIErrorObject(type=None, code=None, message=text, param=None, raw=text)
    except RecursionError:
        # JSON nesting past the decoder's limit (the error body limit allows ~500,000 levels):
        # no error object can be read; the caller keeps the raw body and a bounded excerpt.
        return None
    if isinstance(parsed, dict):
        inner: JSONValue = parsed.get("error", parsed)
        if isinstance(inner, str):  # {"error": "message"}, seen on some compatible servers
            return APIErrorObject(type=None, code=None, message=inner, param=None, raw=parsed)
        if isinstance(inner, dict):
            code = inner.get("code")
            return APIErrorObject(
                type=_str_or_none(inner.get("type")),
                code=code if isinstance(code, (str, int)) and not isinstance(code, bool) else None,
                message=_str_or_none(inner.get("message")),
                param=_str_or_none(inner.get("param")),
                raw=inner,
            )
        parsed = inner
    return APIErrorObject(
        type=None,
        code=None,
        message=parsed if isinstance(parsed, str) else None,
        param=None,
        raw=parsed,
    )


def _retry_after(headers: tuple[tuple[str, str], ...], now: float | None) -> float | None:
    ms = _get(headers, "retry-after-ms")
    if ms is not None:
        try:
            value = float(ms)
        except ValueError:
            value = math.nan
        if math.isfinite(value) and value >= 0:
            return value / 1000.0
    header = _get(headers, "retry-after")
    if header is None:
        return None
    try:
        seconds = float(header)
    except ValueError:
        pass
    else:
        return seconds if math.isfinite(seconds) and seconds >= 0 else None
    try:
        # RFC 9110 section 10.2.3: delay-seconds or an HTTP-date.
        when = email.utils.parsedate_to_datetime(header)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000" dates: RFC 5322 says UTC
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def _should_retry(
    status: int, headers: tuple[tuple[str, str], ...], retry_after: float | None
) -> bool:
    # Order of the official SDK's _should_retry: a long retry-after wins over everything.
    if retry_after is not None and retry_after > MAX_RETRY_AFTER:
        return False
    override = _get(headers, "x-should-retry")
    if override is not None and override.lower() in ("true", "false"):
        return override.lower() == "true"
    return status in _RETRYABLE_STATUSES or status >= 500


class APIStatusError(Exception):
    """The server answered with a non-2xx status.

    Attributes:
        status_code: the HTTP status.
        message: the server's message (the error object's ``message``, else the body text).
        error: the parsed :class:`APIErrorObject`, or ``None`` for an empty body.
        body: the raw body bytes, intact.
        headers: the response headers as lower-case ``(name, value)`` pairs.
        request_id: the ``x-request-id`` header, or ``None``.
        retry_after: seconds the server asked to wait (``retry-after-ms``, else ``retry-after`` as
            seconds or an HTTP-date, clamped at 0), or ``None``.
        should_retry: whether retrying automatically is safe: statuses 408, 409, 429 and >= 500;
            ``x-should-retry: true/false`` overrides; a ``retry_after`` above 120 s always makes it
            false (the official SDK's rule).
        stream: the core stream of the exchange that raised it (``snapshot()``, ``outcome``,
            ``diagnostics``: a resume answered with an error keeps what came before); ``None`` for
            an error no exchange raised (:func:`response_error` alone).
    """

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        headers: tuple[tuple[str, str], ...] = (),
        body: bytes = b"",
        error: APIErrorObject | None = None,
        request_id: str | None = None,
        retry_after: float | None = None,
        should_retry: bool = False,
    ) -> None:
        self.message = message
        self.status_code = status_code
        self.headers = headers
        self.body = body
        self.error = error
        self.request_id = request_id
        self.retry_after = retry_after
        self.should_retry = should_retry
        self.stream: ResponsesStream | ChatCompletionsStream | None = None
        super().__init__(f"Error code: {status_code} - {message}")


class BadRequestError(APIStatusError):
    """HTTP 400."""


class AuthenticationError(APIStatusError):
    """HTTP 401."""


class PermissionDeniedError(APIStatusError):
    """HTTP 403."""


class NotFoundError(APIStatusError):
    """HTTP 404."""


class ConflictError(APIStatusError):
    """HTTP 409."""


class UnprocessableEntityError(APIStatusError):
    """HTTP 422."""


class RateLimitError(APIStatusError):
    """HTTP 429."""


class InternalServerError(APIStatusError):
    """HTTP 500 and above."""


_BY_STATUS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


class UnexpectedContentType(RemoteProtocolError):
    """A 2xx response whose body is not ``text/event-stream`` (for example a JSON body from a server
    that ignored ``"stream": true``).

    Attributes:
        status_code: the HTTP status.
        content_type: the ``Content-Type`` header, or ``None`` when absent.
    """

    def __init__(self, message: str, *, status_code: int, content_type: str | None, body: str):
        self.status_code = status_code
        self.content_type = content_type
        super().__init__(message, excerpt=excerpt(body) if body else None)


def needs_error_body(status: int, headers: HeadersLike = ()) -> bool:
    """Whether the response is an error whose whole body the adapter must read.

    True for every non-2xx status. The adapter reads at most :data:`ERROR_BODY_LIMIT` bytes and
    passes them to :func:`response_error`. *headers* is accepted for symmetry with the other judges
    and is currently unused.
    """
    del headers
    return not 200 <= status < 300


def response_error(
    status: int,
    headers: HeadersLike,
    body: bytes,
    *,
    now: float | None = None,
    request: Request | None = None,
) -> APIStatusError:
    """Build the :class:`APIStatusError` subclass for a non-2xx response.

    Call it when :func:`needs_error_body` is true, so that ``raise sr.response_error(...)`` is the
    whole idiom; a 2xx status is no error and raises :class:`LocalProtocolError`.
    *body* is the full error body (the adapter bounds it by :data:`ERROR_BODY_LIMIT`). *now* is the
    current POSIX time used to turn an HTTP-date ``retry-after`` into seconds (default: the clock).
    *request*, the request that got this answer, lets a 404 name the method and URL (without the
    query) and hint at a base URL missing its ``/v1``; ``message`` stays the server's own.
    """
    if not needs_error_body(status):
        # Returning None here would type every caller's `raise response_error(...)` as raising an
        # Optional; the guard the docs show (needs_error_body) is what tells an error apart.
        raise LocalProtocolError(
            f"response_error() got status {status}, which is no error: "
            "call it only when needs_error_body(status) is true"
        )
    pairs = _normalize_headers(headers)
    error = _parse_error(body)
    if error is not None and error.message:
        message = error.message
    else:
        text = body.decode("utf-8", errors="replace").strip()
        message = text[:_MESSAGE_LIMIT] if text else "(empty body)"
    retry_after = _retry_after(pairs, now)
    cls = _BY_STATUS.get(status, InternalServerError if status >= 500 else APIStatusError)
    exc = cls(
        message,
        status_code=status,
        headers=pairs,
        body=body,
        error=error,
        request_id=_get(pairs, "x-request-id"),
        retry_after=retry_after,
        should_retry=_should_retry(status, pairs, retry_after),
    )
    if status == 404 and request is not None:
        # "Error code: 404 - 404: Not Found" alone does not say what was not found; the usual
        # cause is a base_url without the /v1 the API and most compatible servers serve under.
        exc.args = (f"{exc.args[0]} ({_not_found_hint(request)})",)
    return exc


def _not_found_hint(request: Request) -> str:
    parts = urllib.parse.urlsplit(request.url)
    where = f"{request.method} {parts._replace(query='', fragment='').geturl()}"
    # The base path: what the builders appended "/responses..." or "/chat/completions" to.
    suffix = "/chat/completions" if request.kind == "chat" else "/responses"
    base_path = parts.path.rpartition(suffix)[0] if suffix in parts.path else parts.path
    if "/v1" in base_path:
        return where
    base = parts._replace(path=base_path, query="", fragment="").geturl()
    return (
        f"{where}; the OpenAI API and most compatible servers serve under /v1: is base_url "
        f"missing it, e.g. base_url={base + '/v1'!r}?"
    )


def check_content_type(status: int, headers: HeadersLike, body_prefix: bytes = b"") -> None:
    """Raise :class:`UnexpectedContentType` when a 2xx response is not ``text/event-stream``.

    The media type is compared case-insensitively and parameters (``; charset=utf-8``) are ignored
    (RFC 9110 section 8.3.1). A missing ``Content-Type`` is an error too: the body cannot be known
    to be an event stream, and decoding JSON as one would silently give zero events. *body_prefix*
    (the first bytes of the body, if the adapter has them) is quoted in the message. Non-2xx
    statuses are not judged here: see :func:`response_error`.
    """
    if not 200 <= status < 300:
        return
    content_type = _get(_normalize_headers(headers), "content-type")
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media == "text/event-stream":
        return
    got = repr(content_type) if content_type is not None else "no Content-Type"
    raise UnexpectedContentType(
        f"expected a text/event-stream body, got {got} (HTTP {status})",
        status_code=status,
        content_type=content_type,
        body=body_prefix[:1024].decode("utf-8", errors="replace"),
    )
