"""Differential fuzz of the SSE decoder: NEW (sansio_responses) vs OLD (srb, /work/wt-before).

Usage: sse_fuzz.py SEED NBODIES [--big]
Random bodies: BOM (whole, partial, twice), CR / LF / CRLF line endings (per body or per line),
comments, event/data/id/retry/unknown fields with and without the space, NUL in id, bad retry,
empty event, several data lines, extra blank lines, invalid UTF-8, OpenAI-shaped blocks, large
payloads, an unterminated tail; max_event_size None / default / tiny / exactly a block's size
(-1, 0, +1). Each body at several chunkings and in 5 decoder modes (feed, feed_raw with comments,
keep_bytes, bytes_over, feed/feed_raw alternated; bytes, bytearray, memoryview inputs).
Compares, per call: the returned events (repr), the error (type, message, offset, limit), offset,
last_event_id, reconnection_time, comments; after an error, the next feed/close errors; at end,
close(), discarded, closed, and feed after close."""
import os, random, sys
sys.path.insert(0, "/work/notes/review3")
from dual import N, B, sub, norm

DN, DB = sub(N, "_sse").SSEDecoder, sub(B, "_sse").SSEDecoder

ALPH = [b"a", b"b", b" ", b"{", b"}", b'"', b":", b",", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80",
        b"\xff", b"\xc3", b"\x00", b"\\", b"data: ", b"event: ", b"\t", b"\xef\xbb\xbf", b"id"]


def payload(rng, big):
    r = rng.random()
    if big and r < 0.15:
        n = rng.choice([8 * 1024 - 7, 8 * 1024, 8 * 1024 + 1, 16 * 1024, 16 * 1024 + 1, 65536, 65537,
                        rng.randint(1, 300_000)])
        unit = rng.choice([b"x", b"ab", b"\xc3\xa9", b'{"a":"'])
        return (unit * (n // len(unit) + 1))[:n]
    if r < 0.5:
        return b'{"type":"response.output_text.delta","delta":"' + bytes(rng.choice(b"abc xyz")
                                                                          for _ in range(rng.randint(0, 12))) + b'"}'
    return b"".join(rng.choice(ALPH) for _ in range(rng.randint(0, 30)))


def gen_block(rng, big):
    """A list of lines (bytes, no line ends) and whether it is OpenAI-shaped."""
    r = rng.random()
    if r < 0.45:
        lines = [b"event: " + rng.choice([b"response.output_text.delta", b"response.completed", b"x", b"message", b"\xc3\xa9t\xff"]),
                 b"data: " + payload(rng, big)]
        return lines
    if r < 0.6:
        return [b"data: " + payload(rng, big)]
    lines = []
    for _ in range(rng.randint(0, 6)):
        k = rng.random()
        if k < 0.3:
            lines.append(rng.choice([b"data: ", b"data:", b"data:  ", b"data"]) + (payload(rng, big) if rng.random() < .9 else b""))
        elif k < 0.45:
            lines.append(rng.choice([b"event: ", b"event:", b"event"]) + rng.choice([b"", b"x", b"ping", b"a b", b"\xff"]))
        elif k < 0.6:
            lines.append(rng.choice([b"id: ", b"id:", b"id"]) + rng.choice([b"", b"1", b"abc", b"a\x00b", b"\xc3\xa9", b"99"]))
        elif k < 0.72:
            lines.append(rng.choice([b"retry: ", b"retry:", b"retry"]) + rng.choice(
                [b"", b"100", b"0", b"00000000000001234", b"12345678901", b"1234567890", b"-5", b"+5", b"1_0", b"5x", b"\xd9\xa1"]))
        elif k < 0.85:
            lines.append(b":" + rng.choice([b"", b" keep-alive", b"data: x", b"\xff"]) * rng.randint(1, 3))
        elif k < 0.95:
            lines.append(rng.choice([b"foo: bar", b"DATA: x", b" data: x", b"data : x", b"e", b"\xef\xbb\xbfdata: x"]))
        else:
            lines.append(b"")
    return lines


def gen_body(rng, big):
    mode = rng.choice(["lf", "lf", "lf", "crlf", "cr", "mix"])
    ends = {"lf": [b"\n"], "crlf": [b"\r\n"], "cr": [b"\r"], "mix": [b"\n", b"\r\n", b"\r"]}[mode]
    out = []
    r = rng.random()
    if r < 0.1:
        out.append(b"\xef\xbb\xbf")
    elif r < 0.13:
        out.append(b"\xef\xbb\xbf\xef\xbb\xbf")
    elif r < 0.16:
        out.append(rng.choice([b"\xef", b"\xef\xbb", b"\xef\xbbx", b"\xefx"]))
    blocks = []
    for _ in range(rng.randint(1, 25)):
        lines = gen_block(rng, big)
        blocks.append(lines)
        for ln in lines:
            out.append(ln + rng.choice(ends))
        out.append(rng.choice(ends) * (1 if rng.random() < .9 else rng.randint(2, 3)))
        if rng.random() < 0.1:
            out.append(b": ping" + rng.choice(ends))
    r = rng.random()
    if r < 0.15:
        # unterminated tail: a block with no blank line, maybe a partial line
        for ln in gen_block(rng, big):
            out.append(ln + rng.choice(ends))
        if rng.random() < .5:
            out.append(b"data: tail")
    elif r < 0.2:
        out.append(rng.choice([b"\r", b"data: x\r", b"data: x\r\n\r", b":c"]))
    return b"".join(out), blocks


def block_size(lines):
    return sum(len(x) for x in lines if x and x[:1] != b":")


def chunkings(rng, body):
    yield "whole", [body]
    if len(body) < 3000:
        yield "bytes", [body[i:i + 1] for i in range(len(body))]
    cuts = sorted(rng.randint(0, len(body)) for _ in range(rng.randint(1, 40)))
    yield "rand", [body[a:b] for a, b in zip([0] + cuts, cuts + [len(body)])]
    parts, i = [], 0
    while i < len(body):
        k = rng.randint(1, 64); parts.append(body[i:i + k]); i += k
    yield "small", parts
    # cuts right after each line end (between CR and LF, after LF) for a random subset
    ends = [i + 1 for i, c in enumerate(body) if c in (10, 13) and rng.random() < 0.3]
    yield "eol", [body[a:b] for a, b in zip([0] + ends, ends + [len(body)])]
    # one chunk per block (cut after every blank line), and random groups of 1-3 blocks
    import re as _re
    ends = [m.end() for m in _re.finditer(rb"\n\n|\r\n\r\n|\r\r", body)]
    if ends:
        yield "blocks", [body[a:b] for a, b in zip([0] + ends, ends + [len(body)]) if b > a]
        g = sorted(set(e for e in ends if rng.random() < 0.5))
        yield "blocks2", [body[a:b] for a, b in zip([0] + g, g + [len(body)]) if b > a]
    for k in (4096, 65536):
        if len(body) > k // 4:
            yield f"fixed{k}", [body[i:i + k] for i in range(0, len(body), k)]


def ev_repr(x):
    return norm(repr(x))


def err_rec(e):
    return ("err", type(e).__name__, norm(str(e)), getattr(e, "offset", None), getattr(e, "limit", None))


def drive(cls, parts, limit, mode, types):
    kw = {} if limit == "default" else {"max_event_size": limit}
    d = cls(report_comments=(mode != "feed"), **kw)
    if mode == "keep":
        d._keep_bytes = True
    elif mode == "over":
        d._bytes_over = 40
    rec = []
    failed = False
    for k, p in enumerate(parts):
        t = types[k % len(types)]
        q = bytearray(p) if t == "ba" else memoryview(p) if t == "mv" else p
        use_full = mode == "feed" or (mode == "alt" and k % 2 == 0)
        try:
            r = d.feed(q) if use_full else d.feed_raw(q)
            if not use_full and mode != "feed":
                try:
                    d.raise_pending()
                    rec.append(("ok", [ev_repr(e) for e in r]))
                except Exception as e:
                    rec.append(("ok", [ev_repr(e) for e in r]))
                    rec.append(("pending",) + err_rec(e)); failed = True
            else:
                rec.append(("ok", [ev_repr(e) for e in r]))
        except Exception as e:
            rec.append(err_rec(e)); failed = True
        rec.append((d.offset, d.last_event_id, d.reconnection_time, d.comments))
        if failed:
            for what in ("feed", "close"):
                try:
                    rec.append((what, d.feed(b"data: x\n\n") if what == "feed" else d.close()))
                except Exception as e:
                    rec.append(err_rec(e))
            break
    if not failed:
        try:
            rec.append(("close", d.close()))
        except Exception as e:
            rec.append(err_rec(e))
        rec.append((ev_repr(d.discarded), d.closed, d.offset, d.last_event_id, d.reconnection_time, d.comments))
        try:
            d.feed(b"x")
        except Exception as e:
            rec.append(err_rec(e))
    rec.append(norm(repr(d)))
    return rec


def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    big = "--big" in sys.argv
    rng = random.Random(seed)
    runs = diffs = 0
    for b in range(n):
        body, blocks = gen_body(rng, big)
        limits = [None, "default", rng.randint(0, 60)]
        sized = [block_size(x) for x in blocks if block_size(x)]
        if sized:
            s = rng.choice(sized)
            limits += [s - 1, s, s + 1]
        if big:
            limits.append(8 * 1024)
        for cname, parts in chunkings(rng, body):
            for limit in limits:
                if limit is not None and limit != "default" and limit < 0:
                    continue
                for mode in ("feed", "raw", "keep", "over", "alt"):
                    if cname == "bytes" and mode in ("keep", "over") and limit not in (None,):
                        continue
                    types = rng.choice([["b"], ["b"], ["b", "ba", "mv"]])
                    ra = drive(DN, parts, limit, mode, types)
                    rb = drive(DB, parts, limit, mode, types)
                    runs += 1
                    if ra != rb:
                        diffs += 1
                        if diffs <= 5:
                            print("DIFF seed", seed, "body", b, cname, "limit", limit, "mode", mode, "types", types)
                            for i, (x, y) in enumerate(zip(ra, rb)):
                                if x != y:
                                    print("  at", i, "\n   new", repr(x)[:500], "\n   old", repr(y)[:500]); break
                            if len(ra) != len(rb):
                                print("  lengths", len(ra), len(rb))
                            os.makedirs("/tmp/r3", exist_ok=True)
                            with open(f"/tmp/r3/sse_diff_{seed}_{b}.bin", "wb") as f:
                                f.write(body)
    print(f"sse_fuzz seed={seed} bodies={n} big={big} runs={runs} differ={diffs}")


if __name__ == "__main__":
    main()
