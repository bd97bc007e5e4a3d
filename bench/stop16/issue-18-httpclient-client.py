import socket
import time
from collections.abc import Iterator
from http.client import HTTPConnection, HTTPException, HTTPResponse, HTTPSConnection

import sansio_responses as sr


def events(x: sr.Exchange[sr.ResponsesStream], idle: float = 60.0,
           ) -> Iterator[sr.ResponseStreamEvent]:
    """The events of *x*, read with http.client; *x* decides retries, resumes and deadlines."""
    conn: HTTPConnection | None = None
    sock: socket.socket | None = None  # conn.sock, which getresponse() may let go of
    response: HTTPResponse | None = None
    try:
        # pop() raises the error that ended the stream, once the events before it are out.
        while (event := x.pop()) is not None or x.state != "finished":
            if event is not None:
                yield event
            elif x.state == "connect":  # the first request, a retry or a resume
                if conn is not None:
                    conn.close()
                time.sleep(x.delay)  # a retry's backoff (the server's retry-after, if any)
                r = x.begin()
                new = HTTPSConnection if r.scheme == "https" else HTTPConnection
                conn = new(r.host, r.port, timeout=x.limit(idle))  # within the deadline
                try:
                    conn.request(r.method, r.target, r.body, dict(sr.send_headers(r)))
                    sock, response = conn.sock, conn.getresponse()
                except TimeoutError:
                    x.on_error(x.timed_out("idle", idle))
                except (OSError, HTTPException) as exc:
                    x.on_error(sr.failure("dropped" if conn.sock else "connect", r, cause=exc))
                else:
                    x.on_head(response.status, response.getheaders())
            else:  # "body" (or "error-body"): read on, each read within both deadlines
                assert sock is not None and response is not None
                sock.settimeout(x.limit(idle))
                try:
                    data = response.read1(65536)
                except TimeoutError:
                    x.on_error(x.timed_out("idle", idle))
                except (OSError, HTTPException) as exc:
                    x.on_error(sr.failure("dropped", x.request, cause=exc))
                else:
                    x.on_data(data) if data else x.on_end()
    finally:
        x.cancel()  # left early (a break, an exception): the outcome becomes "cancelled"
        if conn is not None:
            conn.close()
