"""Throughput of the SSE decoder on a Responses-API-shaped stream (indicative; not a test).

Usage, from the repository root: ``PYTHONPATH=. .venv/bin/python bench/sse_speed.py [N_EVENTS]``.
Prints events/s and ns/byte for ``feed_raw`` and ``feed`` with 4, 16 and 64 KiB chunks, ``feed_raw``
with 1-byte chunks (on fewer events), a CRLF-terminated variant, and a 50 MiB line fed in 64 KiB
pieces through a 32 MiB-limited and an unlimited decoder. Times are process CPU time (best of a few
runs), so that other load on the machine disturbs them less.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from sansio_responses._errors import EventTooLarge
from sansio_responses._sse import SSEDecoder

EVENT = (
    b"event: response.output_text.delta\n"
    b'data: {"type":"response.output_text.delta","sequence_number":12,"item_id":"msg_1",'
    b'"output_index":0,"content_index":0,"delta":"Hi","logprobs":[]}\n\n'
)


def chunked(body: bytes, size: int) -> list[bytes]:
    return [body[i : i + size] for i in range(0, len(body), size)]


def best_of(runs: int, fn: Callable[[], int]) -> tuple[float, int]:
    best = float("inf")
    count = 0
    for _ in range(runs):
        t0 = time.process_time()
        count = fn()
        best = min(best, time.process_time() - t0)
    return best, count


def run(chunks: list[bytes], raw: bool) -> int:
    decoder = SSEDecoder()
    feed = decoder.feed_raw if raw else decoder.feed
    n = 0
    for chunk in chunks:
        n += len(feed(chunk))
    decoder.close()
    return n


def report(label: str, body: bytes, chunk_size: int, raw: bool, runs: int = 5) -> float:
    chunks = chunked(body, chunk_size)
    seconds, n = best_of(runs, lambda: run(chunks, raw))
    ns_per_byte = seconds * 1e9 / len(body)
    print(
        f"{label:<40} {n / seconds:>12,.0f} events/s  {ns_per_byte:7.1f} ns/byte  "
        f"({n} events, {len(body) / 2**20:.1f} MiB, {seconds:.3f} s)"
    )
    return ns_per_byte


def big_line() -> None:
    piece = b"x" * 65536
    for limit in (32 * 2**20, None):
        decoder = SSEDecoder(max_event_size=limit)
        t0 = time.process_time()
        fed = 0
        try:
            decoder.feed(b"data: ")
            for _ in range(50 * 16):
                decoder.feed(piece)
                fed += len(piece)
            events = decoder.feed(b"\n\n")
            outcome = f"{len(events)} event of {len(events[0].data) / 2**20:.0f} MiB"
        except EventTooLarge as exc:
            outcome = f"EventTooLarge after {fed / 2**20:.1f} MiB ({exc})"
        seconds = time.process_time() - t0
        print(f"50 MiB line, 64 KiB pieces, limit={limit}: {seconds:.3f} s, {outcome}")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    body = EVENT * n
    print(f"{len(EVENT)} bytes per event, Python {sys.version.split()[0]}")
    per_byte_4k = report("feed_raw, 4 KiB chunks", body, 4096, True)
    report("feed_raw, 16 KiB chunks", body, 16384, True)
    report("feed_raw, 64 KiB chunks", body, 65536, True)
    report("feed, 4 KiB chunks", body, 4096, False)
    report("feed_raw, 4 KiB chunks, CRLF", body.replace(b"\n", b"\r\n"), 4096, True)
    small = EVENT * max(1, n // 50)
    per_byte_1 = report("feed_raw, 1-byte chunks", small, 1, True, runs=2)
    print(f"1-byte chunks cost {per_byte_1 / per_byte_4k:.1f}x per byte vs 4 KiB chunks")
    big_line()


if __name__ == "__main__":
    main()
