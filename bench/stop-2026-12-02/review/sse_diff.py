"""Differential fuzz of SSEDecoder: run with the tree under test importable; writes a pickle of
results for every (body, limit, mode, chunking). Usage: sse_diff.py OUT N SEED"""
import pickle, random, sys
from sansio_responses._sse import SSEDecoder

def gen_body(rng):
    lines = []
    if rng.random() < 0.15:
        lines.append(rng.choice([b"\xef\xbb\xbf", b"\xef\xbb", b"\xef"]))
    n = rng.randint(1, 14)
    canon = rng.choice([0.3, 0.9, 0.97, 1.0])
    types = [b"response.output_text.delta", b"message", b"", b"x" * 300, b"caf\xc3\xa9", b"a\x00b", b"\xff"]
    for _ in range(n):
        r = rng.random()
        eol = rng.choice([b"\n"] * 8 + [b"\r\n", b"\r"])
        if r < canon:  # canonical OpenAI block
            if rng.random() < 0.7:
                lines.append(b"event: " + rng.choice(types) + b"\n")
            payload = rng.choice([b'{"a":1}', b"x" * rng.randint(0, 300), b"[DONE]", b"", b"\xc3", "é".encode(), b"a\x00b", b"data: nested"])
            lines.append(b"data: " + payload + b"\n\n")
        else:
            kind = rng.choice(["event", "data", "datanosp", "id", "idnul", "retry", "comment", "blank", "field", "junk", "big", "dataempty", "spaces"])
            if kind == "event": l = b"event: " + rng.choice(types)
            elif kind == "data": l = b"data: " + bytes(rng.choice(b"abc{}\"\\\x00 :") for _ in range(rng.randint(0, 30)))
            elif kind == "datanosp": l = b"data:" + b"q" * rng.randint(0, 5)
            elif kind == "id": l = b"id: " + str(rng.randint(0, 99)).encode()
            elif kind == "idnul": l = b"id: a\x00b"
            elif kind == "retry": l = b"retry: " + rng.choice([b"100", b"x", b"1" * 20, b""])
            elif kind == "comment": l = b":" + b" keepalive" * rng.randint(0, 40)
            elif kind == "blank": l = b""
            elif kind == "field": l = rng.choice([b"event", b"data", b"id", b"retry", b"foo: bar", b"ev", b"d"])
            elif kind == "junk": l = bytes(rng.randrange(256) for _ in range(rng.randint(0, 12))).replace(b"\n", b"").replace(b"\r", b"")
            elif kind == "big": l = b"data: " + b"B" * rng.choice([60, 100, 250, 9000, 20000])
            elif kind == "dataempty": l = b"data: "
            else: l = b"data:  two spaces"
            lines.append(l + eol)
    body = b"".join(lines)
    r = rng.random()
    if r < 0.2:
        body = body[: rng.randint(0, len(body))]  # cut anywhere
    return body

def chunkings(rng, body):
    yield "whole", [body]
    if len(body) <= 4000:
        yield "bytes", [body[i:i + 1] for i in range(len(body))]
    for k in range(3):
        cuts = sorted(rng.randint(0, len(body)) for _ in range(rng.randint(1, 12)))
        parts, last = [], 0
        for c in cuts:
            parts.append(body[last:c]); last = c
        parts.append(body[last:])
        yield f"rand{k}", parts
    k = rng.choice([2, 3, 5, 7, 13, 31])
    yield f"fixed{k}", [body[i:i + k] for i in range(0, len(body), k)]
    # split CRLF and "\n\n" explicitly
    for sep in (b"\r\n", b"\n\n", b"data: ", b"event: "):
        i = body.find(sep)
        if i >= 0:
            yield f"split{sep!r}", [body[: i + 1], body[i + 1:]]

def run(body, parts, limit, mode, keep):
    d = SSEDecoder(max_event_size=limit, report_comments=(mode == "raw"))
    if keep:
        d._keep_bytes = True
        d._bytes_over = 16 * 1024
    out = []
    try:
        for j, p in enumerate(parts):
            m = mode if mode != "mix" else ("raw" if j % 2 else "full")
            r = d.feed_raw(p) if m == "raw" else d.feed(p)
            for e in r:
                if isinstance(e, tuple):
                    ev, data, off = e
                    if isinstance(data, (bytes, bytearray)):
                        data = bytes(data).decode("utf-8", "replace")
                    out.append(("t", ev, data, off))
                else:
                    out.append(("e", e.event, e.data, e.id, e.retry))
            out.append(("id", d.last_event_id, d.reconnection_time, d.offset))
        d.close()
        disc = d.discarded
        out.append(("close", None if disc is None else (disc.event, disc.data, disc.id, disc.retry), d.last_event_id, d.comments))
    except Exception as exc:
        out.append(("err", type(exc).__name__, str(exc), getattr(exc, "offset", None)))
        try:
            d.feed(b"x")
        except Exception as e2:
            out.append(("after", type(e2).__name__))
    return out

def main():
    outp, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    res = []
    for i in range(n):
        body = gen_body(rng)
        limit = rng.choice([None, 16, 64, 200, 1000, 10_000, 64 * 1024])
        for name, parts in list(chunkings(rng, body)):
            for mode, keep in (("raw", False), ("raw", True), ("full", False), ("mix", False)):
                res.append(((i, name, mode, keep, limit), body, parts, run(body, parts, limit, mode, keep)))
    pickle.dump(res, open(outp, "wb"))
    print(len(res), "runs")
if __name__ == "__main__":
    main()
