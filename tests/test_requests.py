"""Sans-IO request builders and HTTP response judging (sansio_responses._http.requests)."""

from __future__ import annotations

import email.utils
import json
import sys
from typing import Any

import pytest
from _deep import dumps_overflow_depth, json_overflow_depth
from hypothesis import given, settings
from hypothesis import strategies as st

from sansio_responses._errors import LocalProtocolError, RemoteProtocolError
from sansio_responses._http.requests import (
    DEFAULT_BASE_URL,
    ERROR_BODY_LIMIT,
    APIErrorObject,
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    Request,
    UnexpectedContentType,
    UnprocessableEntityError,
    chat_request,
    check_content_type,
    needs_error_body,
    response_error,
    responses_request,
    resume_request,
)

KEY = "sk-test-SECRET-0123456789abcdef"


# --- request shapes ------------------------------------------------------------------------------


def test_responses_request_shape() -> None:
    req = responses_request({"model": "gpt-4o", "input": "hi"}, api_key=KEY)
    assert req.method == "POST"
    assert req.url == "https://api.openai.com/v1/responses"
    assert DEFAULT_BASE_URL == "https://api.openai.com/v1"
    assert req.kind == "responses"
    assert req.background is False
    assert req.response_id is None
    assert req.body is not None
    assert json.loads(req.body) == {"model": "gpt-4o", "input": "hi", "stream": True}
    assert req.header("Accept") == "text/event-stream"
    assert req.header("content-type") == "application/json"
    assert req.header("authorization") == f"Bearer {KEY}"
    ua = req.header("user-agent")
    assert ua is not None and ua.startswith("sansio-responses/")
    assert all(name == name.lower() for name, _ in req.headers)
    assert req.header("openai-organization") is None
    assert req.scheme == "https" and req.host == "api.openai.com" and req.port == 443
    assert req.target == "/v1/responses"


def test_stream_true_is_kept_and_false_is_refused() -> None:
    req = responses_request({"model": "m", "stream": True}, api_key=KEY)
    assert req.body is not None and json.loads(req.body)["stream"] is True
    with pytest.raises(LocalProtocolError, match="stream"):
        responses_request({"model": "m", "stream": False}, api_key=KEY)
    with pytest.raises(LocalProtocolError, match="stream"):
        chat_request({"model": "m", "stream": "yes"}, api_key=KEY)


def test_no_key_no_authorization_header() -> None:
    req = responses_request({"model": "m"}, base_url="http://127.0.0.1:8080/v1")
    assert req.header("authorization") is None


def test_background_flag_follows_body() -> None:
    assert responses_request({"model": "m", "background": True}, api_key=KEY).background is True
    assert responses_request({"model": "m", "background": False}, api_key=KEY).background is False
    # Only the JSON literal true counts, not a truthy string.
    assert responses_request({"model": "m", "background": "true"}, api_key=KEY).background is False


def test_org_project_and_extra_headers() -> None:
    req = responses_request(
        {"model": "m"},
        api_key=KEY,
        organization="org-1",
        project="proj-2",
        headers={"X-Trace": "abc", "User-Agent": "mine/1.0"},
        base_url="http://127.0.0.1:8080/v1/",
    )
    assert req.url == "http://127.0.0.1:8080/v1/responses"
    assert req.port == 8080 and req.host == "127.0.0.1" and req.scheme == "http"
    assert req.header("openai-organization") == "org-1"
    assert req.header("openai-project") == "proj-2"
    # Extra headers come last, and replace a default of the same name (only one user-agent).
    names = [name for name, _ in req.headers]
    assert names[-2:] == ["x-trace", "user-agent"]
    assert names.count("user-agent") == 1
    assert req.header("user-agent") == "mine/1.0"


def test_header_injection_refused_without_echoing_secret() -> None:
    with pytest.raises(LocalProtocolError) as info:
        responses_request(
            {"model": "m"}, api_key=KEY, headers={"Authorization": f"Bearer {KEY}\r\nX: y"}
        )
    assert KEY not in str(info.value) and KEY not in repr(info.value)
    with pytest.raises(LocalProtocolError) as info2:
        responses_request({"model": "m"}, api_key=KEY + "\n")
    assert KEY not in str(info2.value)
    with pytest.raises(LocalProtocolError):
        responses_request({"model": "m"}, api_key=KEY, headers={"Bad Name": "x"})


def test_bad_base_url_and_body() -> None:
    with pytest.raises(LocalProtocolError, match="base_url"):
        responses_request({"model": "m"}, base_url="api.openai.com/v1")
    with pytest.raises(LocalProtocolError, match="JSON"):
        responses_request({"model": "m", "x": object()}, api_key=KEY)
    with pytest.raises(LocalProtocolError, match="JSON"):
        responses_request({"model": "m", "temperature": float("nan")}, api_key=KEY)
    with pytest.raises(LocalProtocolError, match="mapping"):
        responses_request(["model"], api_key=KEY)  # type: ignore[arg-type]


# Characters a key picks up when pasted from a chat, a PDF or a terminal.
PASTED = ["\t", "\x0b", "\x7f", "\u2026", "\xa0", "\u2028", "\r", "\n", "\0", " ", "\u200b"]


@pytest.mark.parametrize("char", PASTED)
def test_a_key_with_a_stray_character_is_refused_without_showing_it(char: str) -> None:
    bad_key = KEY[:10] + char + KEY[10:]
    for build in (
        lambda: responses_request({"model": "m"}, api_key=bad_key),
        lambda: chat_request({"model": "m"}, api_key=bad_key),
        lambda: resume_request("resp_1", starting_after=1, api_key=bad_key),
    ):
        with pytest.raises(LocalProtocolError) as info:
            build()
        message = str(info.value)
        assert "api_key" in message and f"U+{ord(char):04X}" in message and "position 10" in message
        for secret in (KEY, KEY[:10], KEY[10:]):
            assert secret not in message and secret not in repr(info.value)


@pytest.mark.parametrize("char", ["\t", "\x0b", "\x7f", "\u2026", "\xa0", "\x1b"])
def test_header_values_must_be_visible_ascii(char: str) -> None:
    value = f"Bearer {KEY}{char}"
    for kwargs in (
        {"headers": {"Authorization": value}},
        {"headers": {"X-Custom": value}, "api_key": KEY},
        {"organization": f"org-{KEY}{char}", "api_key": KEY},
        {"project": f"{char}{KEY}", "api_key": KEY},
    ):
        with pytest.raises(LocalProtocolError, match=f"U\\+{ord(char):04X}") as info:
            responses_request({"model": "m"}, **kwargs)  # type: ignore[arg-type]
        assert KEY not in str(info.value) and KEY not in repr(info.value)
    # Spaces inside a value are fine (as in "Bearer <key>"); at either end HTTP would strip them.
    ok = responses_request({"model": "m"}, api_key=KEY, headers={"X-Custom": "a b  c"})
    assert ok.header("x-custom") == "a b  c"
    with pytest.raises(LocalProtocolError, match="leading or trailing space") as info2:
        responses_request({"model": "m"}, headers={"Authorization": f"Bearer {KEY} "})
    assert KEY not in str(info2.value)


@pytest.mark.parametrize("name", ["Bad Name", "x:y", "", "naïve", "a\tb", "(x)", "x\r\ny", "a/b"])
def test_header_names_must_be_tokens(name: str) -> None:
    with pytest.raises(LocalProtocolError, match="header name"):
        responses_request({"model": "m"}, api_key=KEY, headers={name: "v"})


def test_token_characters_are_accepted_as_header_names() -> None:
    name = "X-Odd!#$%&'*+.^_`|~09"
    req = responses_request({"model": "m"}, api_key=KEY, headers={name: "v"})
    assert req.header(name) == "v"


@pytest.mark.parametrize("name", ["Host", "content-length", "Transfer-Encoding", "HOST"])
def test_framing_headers_cannot_be_overridden(name: str) -> None:
    for build in (
        lambda: responses_request({"model": "m"}, api_key=KEY, headers={name: "1"}),
        lambda: chat_request({"model": "m"}, api_key=KEY, headers={name: "1"}),
        lambda: resume_request("r", starting_after=0, api_key=KEY, headers={name: "1"}),
    ):
        with pytest.raises(LocalProtocolError, match=f"{name!r} cannot be set"):
            build()


@pytest.mark.parametrize(
    "url",
    [
        "http://user:hunter2-PASSWORD@127.0.0.1:8000/v1",
        "https://hunter2-PASSWORD@api.example.com/v1",
        "https://user:hunter2-PASSWORD@api.example.com@evil.example/v1",
    ],
)
def test_base_url_with_user_info_is_refused_without_showing_it(url: str) -> None:
    with pytest.raises(LocalProtocolError, match="user info") as info:
        responses_request({"model": "m"}, api_key=KEY, base_url=url)
    assert "hunter2" not in str(info.value) and "hunter2" not in repr(info.value)
    assert "/v1" in str(info.value)  # the rest of the URL is shown, to find it
    # A URL too broken to find its user info in is not shown at all.
    with pytest.raises(LocalProtocolError, match="not a URL") as info2:
        responses_request({"model": "m"}, api_key=KEY, base_url="http://u:hunter2@[::1/v1")
    assert "hunter2" not in str(info2.value)


@pytest.mark.parametrize(
    ("url", "what"),
    [
        ("http://127.0.0.1:8000/v1 ", "U+0020"),
        (" http://127.0.0.1:8000/v1", "U+0020"),
        ("http://127.0.0.1:8000/my v1", "U+0020"),
        ("http://127.0.0.1:8000/v1\t", "U+0009"),
        ("http://127.0.0.1:8000/v\n1", "U+000A"),
        ("http://127.0.0.1\r:8000/v1", "U+000D"),
        ("http://127.0.0.1:8000/v1\0", "U+0000"),
        ("http://127.0.0.1:8000/v1\x7f", "U+007F"),
        ("http://exämple.com/v1", "U+00E4"),
        ("http://127.0.0.1:8000/v1?x=1", "query"),
        ("http://127.0.0.1:8000/v1#top", "fragment"),
        ("http://127.0.0.1:99999/v1", "port"),
        ("http://127.0.0.1:http/v1", "port"),
        ("http://:8000/v1", "host"),
        ("127.0.0.1:8000/v1", "absolute"),
        ("ftp://127.0.0.1/v1", "absolute"),
        ("http://[::1/v1", "not a URL"),
    ],
)
def test_bad_base_urls_are_refused(url: str, what: str) -> None:
    for build in (
        lambda: responses_request({"model": "m"}, api_key=KEY, base_url=url),
        lambda: chat_request({"model": "m"}, api_key=KEY, base_url=url),
        lambda: resume_request("r", starting_after=0, api_key=KEY, base_url=url),
    ):
        with pytest.raises(LocalProtocolError, match="base_url") as info:
            build()
        assert what in str(info.value)


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"model": "gpt-\ud800"}, "['model']"),
        (
            {"model": "m", "input": [{"role": "user", "content": "a\udcff"}]},
            "['input'][0]['content']",
        ),
        ({"model": "m", "metadata": {"k\udc80": "v"}}, "a key of ['metadata']"),
    ],
)
def test_a_lone_surrogate_in_the_body_is_a_local_protocol_error(
    body: dict[str, object], where: str
) -> None:
    for build in (responses_request, chat_request):
        with pytest.raises(LocalProtocolError, match="surrogate") as info:
            build(body, api_key=KEY)
        assert where in str(info.value)
        assert not isinstance(info.value, UnicodeError)


def test_a_lone_surrogate_in_the_response_id_is_a_local_protocol_error() -> None:
    with pytest.raises(LocalProtocolError, match="response_id has U\\+D83D"):
        resume_request("resp_\ud83d", starting_after=0, api_key=KEY)
    # A valid non-ASCII id is percent-encoded as UTF-8.
    req = resume_request("resp_\U0001f600", starting_after=0, api_key=KEY)
    assert "/responses/resp_%F0%9F%98%80?" in req.url


@pytest.mark.parametrize(
    "base_url", [DEFAULT_BASE_URL, "https://api.openai.com/v1/", "https://api.openai.com:443/v1"]
)
def test_no_key_for_the_openai_api_is_refused(
    base_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The builders never read the environment: set or not, the key must be passed.
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    for build in (
        lambda: responses_request({"model": "m"}, base_url=base_url),
        lambda: chat_request({"model": "m"}, base_url=base_url),
        lambda: resume_request("r", starting_after=0, base_url=base_url),
    ):
        with pytest.raises(LocalProtocolError) as info:
            build()
        assert "api_key" in str(info.value) and "OPENAI_API_KEY" in str(info.value)
        assert KEY not in str(info.value)
    with pytest.raises(LocalProtocolError, match="api_key is empty"):
        responses_request({"model": "m"}, api_key="", base_url=base_url)


def test_a_key_in_headers_or_another_server_needs_no_api_key() -> None:
    by_header = responses_request({"model": "m"}, headers={"Authorization": f"Bearer {KEY}"})
    assert by_header.header("authorization") == f"Bearer {KEY}"
    local = chat_request({"model": "m"}, base_url="http://127.0.0.1:8000/v1")
    assert local.header("authorization") is None
    # Only the OpenAI host itself: a look-alike is "another server".
    other = responses_request({"model": "m"}, base_url="https://api.openai.com.example.org/v1")
    assert other.header("authorization") is None


def test_resume_request_shape() -> None:
    req = resume_request("resp_abc", starting_after=41, api_key=KEY, project="p")
    assert req.method == "GET"
    assert req.url == "https://api.openai.com/v1/responses/resp_abc?stream=true&starting_after=41"
    assert req.target == "/v1/responses/resp_abc?stream=true&starting_after=41"
    assert req.body is None
    assert req.header("content-type") is None
    assert req.header("accept") == "text/event-stream"
    assert req.header("authorization") == f"Bearer {KEY}"
    assert req.header("openai-project") == "p"
    assert req.response_id == "resp_abc"
    assert req.background is True and req.kind == "responses"


def test_resume_request_omits_none_and_encodes_id() -> None:
    req = resume_request("a/b c?", starting_after=None, base_url="http://localhost:1/v1")
    assert req.url == "http://localhost:1/v1/responses/a%2Fb%20c%3F?stream=true"
    assert req.response_id == "a/b c?"
    assert resume_request("r", starting_after=0, api_key=KEY).url.endswith(
        "?stream=true&starting_after=0"
    )
    for bad in (-1, True, 1.5):
        with pytest.raises(LocalProtocolError, match="starting_after"):
            resume_request("r", starting_after=bad, api_key=KEY)  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError, match="response_id"):
        resume_request("", starting_after=None, api_key=KEY)


def test_chat_request_shape() -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "héllo"}]}
    req = chat_request(body, api_key=KEY, base_url="http://127.0.0.1:9/v1")
    assert req.method == "POST"
    assert req.url == "http://127.0.0.1:9/v1/chat/completions"
    assert req.kind == "chat"
    assert req.body is not None
    assert json.loads(req.body) == {**body, "stream": True}
    assert "héllo".encode() in req.body  # UTF-8, not \u escapes
    assert req.header("authorization") == f"Bearer {KEY}"
    assert body == {"model": "gpt-4o", "messages": [{"role": "user", "content": "héllo"}]}


def test_request_repr_redacts_secrets() -> None:
    req = responses_request(
        {"model": "m"},
        api_key=KEY,
        headers={"api-key": KEY + "-azure", "X-Api-Key": KEY + "-x", "OpenAI-Api-Key": KEY},
    )
    for text in (repr(req), str(req), f"{req}", repr([req])):
        assert KEY not in text
        assert "<redacted>" in text
        assert "/v1/responses" in text
    # Still the real values underneath.
    assert req.header("api-key") == KEY + "-azure"
    manual = Request("GET", "http://x/", (("Authorization", "Bearer " + KEY),), None)
    assert manual.header("authorization") == "Bearer " + KEY
    assert KEY not in repr(manual)
    # User info in a hand-built URL (the builders refuse it) is redacted too.
    by_hand = Request("GET", f"http://user:{KEY}@h:1/v1/responses/r", (), None)
    assert KEY not in repr(by_hand) and "'http://<redacted>@h:1/v1/responses/r'" in repr(by_hand)


# --- judging responses ---------------------------------------------------------------------------


def _body(message: str, type_: str, code: str | None, param: str | None = None) -> bytes:
    return json.dumps(
        {"error": {"message": message, "type": type_, "param": param, "code": code}}
    ).encode()


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (403, PermissionDeniedError),
        (404, NotFoundError),
        (409, ConflictError),
        (422, UnprocessableEntityError),
        (429, RateLimitError),
        (500, InternalServerError),
        (502, InternalServerError),
        (503, InternalServerError),
        (418, APIStatusError),
        (408, APIStatusError),
        (302, APIStatusError),
    ],
)
def test_status_maps_to_class(status: int, cls: type[APIStatusError]) -> None:
    body = _body(f"boom {status}", "some_error", "some_code", "input")
    headers = [(b"X-Request-Id", b"req_123"), (b"Content-Type", b"application/json")]
    assert needs_error_body(status, headers)
    exc = response_error(status, headers, body)
    assert exc is not None
    assert type(exc) is cls
    assert isinstance(exc, APIStatusError)
    assert exc.status_code == status
    assert exc.request_id == "req_123"
    assert exc.body == body
    assert exc.error == APIErrorObject(
        type="some_error",
        code="some_code",
        message=f"boom {status}",
        param="input",
        raw=json.loads(body)["error"],
    )
    assert str(exc) == f"Error code: {status} - boom {status}"
    assert exc.retry_after is None
    expected_retry = status in (408, 409, 429) or status >= 500
    assert exc.should_retry is expected_retry


@settings(max_examples=40, deadline=None)
@given(
    depth=st.integers(1, 4) | st.sampled_from([json_overflow_depth(), -1]),
    shape=st.sampled_from(["[", '{"error":', '{"error":{"message":"m","x":[']),
    status=st.sampled_from([400, 429, 500, 503]),
)
def test_an_error_body_nesting_past_the_decoder_limit(depth: int, shape: str, status: int) -> None:
    # Issue 22, item 2: a body nesting past json's recursion limit (well under the 1 MiB error
    # body limit) raised RecursionError from response_error(). It is the status's APIStatusError,
    # carrying the raw body and a bounded excerpt of it as the message.
    closer = {"[": "]", '{"error":': "}", '{"error":{"message":"m","x":[': "]}}"}[shape]
    tail = {"[": "", '{"error":': "1", '{"error":{"message":"m","x":[': ""}[shape]
    if depth == -1:  # the deepest that fits in the error body limit
        depth = (ERROR_BODY_LIMIT - len(tail)) // (len(shape) + len(closer))
    body = (shape * depth + tail + closer * depth).encode()
    assert len(body) <= ERROR_BODY_LIMIT
    exc = response_error(status, [("content-type", "application/json")], body)
    assert isinstance(exc, APIStatusError) and exc.status_code == status
    assert exc.body == body
    assert len(str(exc)) < 600


def test_2xx_is_not_an_error() -> None:
    for status in (200, 201, 204):
        assert not needs_error_body(status, [])
        with pytest.raises(LocalProtocolError, match=f"status {status}, which is no error"):
            response_error(status, [], b"")


def test_retry_after_seconds_ms_and_date() -> None:
    body = _body("slow down", "rate_limit_exceeded", "rate_limit_exceeded")
    exc = response_error(429, {"retry-after": "1.5"}, body)
    assert exc is not None and exc.retry_after == 1.5 and exc.should_retry
    # retry-after-ms wins over retry-after.
    exc = response_error(429, {"Retry-After-Ms": "250", "Retry-After": "9"}, body)
    assert exc is not None and exc.retry_after == 0.25
    now = 1_700_000_000.0
    date = email.utils.formatdate(now + 30, usegmt=True)
    exc = response_error(429, [("retry-after", date)], body, now=now)
    assert exc is not None and exc.retry_after == 30.0
    past = email.utils.formatdate(now - 30, usegmt=True)
    exc = response_error(503, [("retry-after", past)], body, now=now)
    assert exc is not None and exc.retry_after == 0.0
    exc = response_error(429, [("retry-after", "soon")], body)
    assert exc is not None and exc.retry_after is None


def test_long_retry_after_is_not_retried_automatically() -> None:
    body = _body("wait", "rate_limit_exceeded", None)
    exc = response_error(429, {"retry-after": "120"}, body)
    assert exc is not None and exc.should_retry
    exc = response_error(429, {"retry-after": "121", "x-should-retry": "true"}, body)
    assert exc is not None and exc.retry_after == 121.0 and not exc.should_retry
    exc = response_error(429, {"retry-after-ms": "120001"}, body)
    assert exc is not None and not exc.should_retry


def test_x_should_retry_overrides_status() -> None:
    body = _body("x", "t", None)
    exc = response_error(400, {"x-should-retry": "true"}, body)
    assert exc is not None and exc.should_retry
    exc = response_error(500, {"X-Should-Retry": "false"}, body)
    assert exc is not None and not exc.should_retry


def test_non_json_error_body() -> None:
    body = b"  <html>502 Bad Gateway</html>\n"
    exc = response_error(502, [], body)
    assert isinstance(exc, InternalServerError)
    assert exc.body == body
    assert exc.error is not None
    assert exc.error.message == "<html>502 Bad Gateway</html>"
    assert exc.error.type is None and exc.error.code is None
    assert str(exc) == "Error code: 502 - <html>502 Bad Gateway</html>"
    empty = response_error(500, [], b"")
    assert empty is not None and empty.error is None
    assert str(empty) == "Error code: 500 - (empty body)"


def test_error_object_without_error_key_and_other_shapes() -> None:
    # vLLM-style top-level error object.
    body = json.dumps({"object": "error", "message": "bad model", "type": "NotFound", "code": 404})
    exc = response_error(404, [], body.encode())
    assert exc is not None and exc.error is not None
    assert exc.error.message == "bad model" and exc.error.code == 404
    assert exc.error.raw["object"] == "error"
    assert str(exc) == "Error code: 404 - bad model"
    # {"error": "text"}
    exc = response_error(400, [], b'{"error": "plain text"}')
    assert exc is not None and exc.error is not None and exc.error.message == "plain text"
    # JSON that is not an object: kept in raw, message falls back to the text.
    exc = response_error(400, [], b"[1, 2]")
    assert exc is not None and exc.error is not None
    assert exc.error.raw == [1, 2] and exc.error.message is None
    assert str(exc) == "Error code: 400 - [1, 2]"


def test_error_never_contains_api_key() -> None:
    req = responses_request({"model": "m"}, api_key=KEY)
    assert KEY not in repr(req)
    exc = response_error(401, [("www-authenticate", "Bearer")], _body("Incorrect key", "x", None))
    assert exc is not None
    assert KEY not in str(exc) and KEY not in repr(exc)


def test_check_content_type_accepts_event_stream() -> None:
    check_content_type(200, {"Content-Type": "text/event-stream"})
    check_content_type(200, [(b"content-type", b"Text/Event-Stream; charset=utf-8")])
    # Non-2xx statuses are judged by response_error instead.
    check_content_type(500, {"content-type": "application/json"})


def test_2xx_json_body_is_unexpected_content_type() -> None:
    prefix = b'{"id": "resp_1", "object": "response", "status": "completed"}'
    with pytest.raises(UnexpectedContentType) as info:
        check_content_type(200, {"content-type": "application/json"}, prefix)
    exc = info.value
    assert isinstance(exc, RemoteProtocolError)
    assert exc.status_code == 200
    assert exc.content_type == "application/json"
    assert "application/json" in str(exc)
    assert "resp_1" in str(exc)  # an excerpt of the body


def test_missing_content_type_is_unexpected() -> None:
    with pytest.raises(UnexpectedContentType, match="no Content-Type"):
        check_content_type(200, [])


def test_404_names_the_method_and_url_and_hints_at_v1() -> None:
    body = b"404: Not Found"  # aiohttp's (and many frameworks') default 404 body
    request = responses_request({"model": "m"}, base_url="http://127.0.0.1:8000")
    exc = response_error(404, [], body, request=request)
    assert isinstance(exc, NotFoundError)
    text = str(exc)
    assert text.startswith(
        "Error code: 404 - 404: Not Found (POST http://127.0.0.1:8000/responses;"
    )
    assert "base_url='http://127.0.0.1:8000/v1'" in text
    assert exc.message == "404: Not Found"  # the server's own words, untouched
    chat = chat_request({"model": "m"}, base_url="http://h:1/api/")
    assert "base_url='http://h:1/api/v1'" in str(response_error(404, [], body, request=chat))
    # With /v1 already there: the method and URL (no query), no hint.
    resume = resume_request("resp_1", starting_after=3, base_url="http://h:1/v1")
    text = str(
        response_error(
            404, [], _body("No such response", "invalid_request_error", None), request=resume
        )
    )
    assert text == "Error code: 404 - No such response (GET http://h:1/v1/responses/resp_1)"
    # Other statuses and calls without the request keep the SDK's wording.
    assert str(response_error(404, [], body)) == "Error code: 404 - 404: Not Found"
    assert str(response_error(400, [], body, request=request)) == "Error code: 400 - 404: Not Found"


@pytest.mark.parametrize("times", [1, 4])
def test_a_body_nested_too_deeply_is_a_local_protocol_error(times: int) -> None:
    # json.dumps recurses per level: a builder never lets a RecursionError out (at and well past
    # the depth json.dumps cannot encode on this interpreter).
    depth = times * dumps_overflow_depth()
    deep: Any = "x"
    for _ in range(depth):
        deep = [deep]
    with pytest.raises(LocalProtocolError, match="too deeply"):
        responses_request({"model": "m", "input": deep}, api_key="sk-test")


def test_a_lone_surrogate_at_any_depth_is_a_local_protocol_error() -> None:
    # Around Python's recursion limit json.dumps may succeed where the (recursive) surrogate
    # locator cannot: either way the caller gets a LocalProtocolError.
    for depth in range(0, sys.getrecursionlimit() + 50, 25):
        deep: Any = "\ud800"
        for _ in range(depth):
            deep = [deep]
        with pytest.raises(LocalProtocolError, match=r"too deeply|not valid Unicode"):
            responses_request({"model": "m", "input": deep}, api_key="sk-test")
