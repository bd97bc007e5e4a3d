"""A streaming client on urllib3, written as a user would (public names only), that leaves every
decision to ``sr.Exchange``: retries (with the server's ``retry-after``), the automatic resume of a
dropped background response, the connect, idle and total deadlines, and errors that carry the
stream. Issue 18's measure of the public exchange: its lines of glue and its type-checker errors
(tests/test_own_clients.py runs it against the test server with faults)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import urllib3
from urllib3.exceptions import ConnectTimeoutError, HTTPError, NewConnectionError, ReadTimeoutError

import sansio_responses as sr


def events(
    x: sr.Exchange[sr.ResponsesStream],
    pool: urllib3.PoolManager,
    connect: float = 10.0,
    idle: float = 60.0,
) -> Iterator[sr.ResponseStreamEvent]:
    """The events of *x*, read with urllib3."""
    response: urllib3.BaseHTTPResponse | None = None
    try:
        while (event := x.pop()) is not None or x.state != "finished":
            if event is not None:
                yield event
                continue
            try:
                if x.state == "connect":  # the first request, a retry or a resume
                    if response is not None:
                        response.close()
                    time.sleep(x.delay)  # a retry's backoff (the server's retry-after, if any)
                    r = x.begin()
                    timeout = urllib3.Timeout(connect=x.limit(connect), read=x.limit(idle))
                    response = pool.urlopen(
                        r.method, r.url, body=r.body, headers=dict(sr.send_headers(r)),
                        timeout=timeout, retries=False, redirect=False, preload_content=False,
                    )  # fmt: skip
                    x.on_head(response.status, list(response.headers.items()))
                else:  # "body" or "error-body": each read within the idle and total deadlines
                    assert response is not None
                    sock = getattr(response.connection, "sock", None)
                    if sock is not None:
                        sock.settimeout(x.limit(idle))
                    data = response.read1(65536)
                    x.on_data(data) if data else x.on_end()
            except NewConnectionError as exc:  # first: urllib3 makes it a ConnectTimeoutError
                x.on_error(sr.failure("connect", x.request, cause=exc))
            except ConnectTimeoutError:
                x.on_error(x.timed_out("connect-timeout", connect))
            except ReadTimeoutError:
                x.on_error(x.timed_out("idle", idle))
            except HTTPError as exc:
                x.on_error(sr.failure("dropped", x.request, cause=exc))
    finally:
        x.cancel()  # left early: the outcome becomes "cancelled"
        if response is not None:
            response.close()
