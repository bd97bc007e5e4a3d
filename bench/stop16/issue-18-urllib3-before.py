"""The same urllib3 client as urllib3_client.py, written with the public names of e92409d (before
issue 18: no public Exchange): retries, resumes, the three deadlines and the error mapping by hand."""

from __future__ import annotations

import time
from collections.abc import Iterator

import urllib3
from urllib3.exceptions import ConnectTimeoutError, HTTPError, NewConnectionError, ReadTimeoutError

import sansio_responses as sr


def events(
    request: sr.Request[sr.ResponsesStream],
    stream: sr.ResponsesStream,
    pool: urllib3.PoolManager,
    connect: float = 10.0,
    idle: float = 60.0,
    total: float | None = None,
) -> Iterator[sr.ResponseStreamEvent]:
    """The events of *request*, decoded by *stream* (which the caller keeps for the snapshot)."""
    retry, resume = sr.RetryPolicy(), sr.ResumePolicy()
    deadline = None if total is None else time.monotonic() + total
    where, current, tries, fed = f"{request.host}:{request.port}", request, 0, False

    def limit(timeout: float) -> float:
        return timeout if deadline is None else max(min(timeout, deadline - time.monotonic()), 1e-6)

    def timed_out(error: sr.TransportError) -> sr.TransportError:
        if deadline is not None and time.monotonic() >= deadline - 1e-3:
            return sr.TotalTimeout(f"{where} took longer than {total} s", timeout=total or 0)
        return error

    while True:
        error: Exception | None = None
        body_seen = False
        response: urllib3.BaseHTTPResponse | None = None
        try:
            timeout = urllib3.Timeout(connect=limit(connect), read=limit(idle))
            headers = dict(current.headers)
            headers.setdefault("accept-encoding", "identity")
            response = pool.urlopen(
                current.method, current.url, body=current.body, headers=headers,
                timeout=timeout, retries=False, redirect=False, preload_content=False,
            )  # fmt: skip
            head = list(response.headers.items())
            if sr.needs_error_body(response.status, head):
                error = sr.response_error(
                    response.status, head, response.read(sr.ERROR_BODY_LIMIT), request=current
                )
            else:
                try:
                    sr.check_content_type(response.status, head)
                except sr.UnexpectedContentType:
                    sr.check_content_type(response.status, head, response.read(1024))
                while True:
                    sock = getattr(response.connection, "sock", None)
                    if sock is not None:
                        sock.settimeout(limit(idle))
                    data = response.read1(65536)
                    if not data:
                        yield from stream.close()
                        return
                    body_seen = fed = True
                    yield from stream.feed(data)
        except NewConnectionError as exc:
            error = sr.ConnectError(f"cannot connect to {where}: {exc}")
        except ConnectTimeoutError:
            error = timed_out(sr.ConnectTimeout(f"no connection to {where} within {connect} s"))
        except ReadTimeoutError:
            error = timed_out(sr.IdleTimeout(f"no bytes from {where} for {idle} s", timeout=idle))
        except HTTPError as exc:
            error = sr.ConnectionDropped(f"the connection to {where} dropped: {exc}")
        except sr.TruncatedStream as exc:
            yield from getattr(exc, "events", ())
            error = exc
        except sr.ProtocolError as exc:
            yield from getattr(exc, "events", ())
            raise
        finally:
            if response is not None:
                response.close()
        assert error is not None
        if deadline is not None and time.monotonic() >= deadline:
            error = sr.TotalTimeout(f"{where} took longer than {total} s", timeout=total or 0)
        if not isinstance(error, sr.TotalTimeout):
            delay = None if body_seen else retry.delay(error, tries)
            if delay is not None and (deadline is None or time.monotonic() + delay < deadline):
                tries += 1
                time.sleep(delay)
                continue
            following = resume.next_request(request, stream, error)
            if following is not None:
                stream.reconnect()
                current, tries = following, 0
                continue
        if fed and stream.outcome is None:
            try:
                yield from stream.close()  # marks the stream truncated
            except sr.TruncatedStream as exc:
                yield from getattr(exc, "events", ())
        raise error
