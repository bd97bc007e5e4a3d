"""Sans-IO request builders and HTTP response judging (sansio_responses._requests)."""

from __future__ import annotations

import email.utils
import json

import pytest

from sansio_responses._errors import LocalProtocolError, RemoteProtocolError
from sansio_responses._requests import (
    DEFAULT_BASE_URL,
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
    req = responses_request({"model": "m", "stream": True})
    assert req.body is not None and json.loads(req.body)["stream"] is True
    with pytest.raises(LocalProtocolError, match="stream"):
        responses_request({"model": "m", "stream": False})
    with pytest.raises(LocalProtocolError, match="stream"):
        chat_request({"model": "m", "stream": "yes"})


def test_no_key_no_authorization_header() -> None:
    req = responses_request({"model": "m"})
    assert req.header("authorization") is None


def test_background_flag_follows_body() -> None:
    assert responses_request({"model": "m", "background": True}).background is True
    assert responses_request({"model": "m", "background": False}).background is False
    # Only the JSON literal true counts, not a truthy string.
    assert responses_request({"model": "m", "background": "true"}).background is False


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
        responses_request({"model": "m"}, headers={"Authorization": f"Bearer {KEY}\r\nX: y"})
    assert KEY not in str(info.value) and KEY not in repr(info.value)
    with pytest.raises(LocalProtocolError) as info2:
        responses_request({"model": "m"}, api_key=KEY + "\n")
    assert KEY not in str(info2.value)
    with pytest.raises(LocalProtocolError):
        responses_request({"model": "m"}, headers={"Bad Name": "x"})


def test_bad_base_url_and_body() -> None:
    with pytest.raises(LocalProtocolError, match="base_url"):
        responses_request({"model": "m"}, base_url="api.openai.com/v1")
    with pytest.raises(LocalProtocolError, match="JSON"):
        responses_request({"model": "m", "x": object()})
    with pytest.raises(LocalProtocolError, match="JSON"):
        responses_request({"model": "m", "temperature": float("nan")})
    with pytest.raises(LocalProtocolError, match="mapping"):
        responses_request(["model"])  # type: ignore[arg-type]


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
    assert resume_request("r", starting_after=0).url.endswith("?stream=true&starting_after=0")
    for bad in (-1, True, 1.5):
        with pytest.raises(LocalProtocolError, match="starting_after"):
            resume_request("r", starting_after=bad)  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError, match="response_id"):
        resume_request("", starting_after=None)


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


def test_2xx_is_not_an_error() -> None:
    for status in (200, 201, 204):
        assert not needs_error_body(status, [])
        assert response_error(status, [], b"") is None


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
