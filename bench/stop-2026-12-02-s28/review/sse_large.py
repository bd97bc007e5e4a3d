"""Targeted SSE differential (NEW vs OLD) around large blocks: chunk cuts placed at and near every
structural point of a body (block start, the LF after `event:`, `data: ` prefix, the payload's
last bytes, between the two LFs of the blank line, after it), 2-3 cuts at a time, for bodies with
payloads of 8 KiB +-1 (the hold limit), 16 KiB +-1, 64 KiB, comments / id / retry lines next to
them, CRLF or CR in some; limits: None, default, each large block's counted size -1/0/+1.
Usage: sse_large.py SEED NBODIES"""
import random, sys
sys.path.insert(0, "/work/notes/review3")
import sse_fuzz as F

SIZES = [8 * 1024 - 20, 8 * 1024 - 13, 8 * 1024 - 12, 8 * 1024 - 6, 8 * 1024, 8 * 1024 + 1, 16 * 1024 - 1,
         16 * 1024, 16 * 1024 + 1, 65536, 100_000]


def body_of(rng):
    blocks = []  # list of (bytes, [interesting offsets within], counted size)
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        pay = (b'{"type":"x","d":"' + b"y" * rng.choice(SIZES) + b'"}') if rng.random() < .7 else b"z" * rng.randint(0, 30)
        if rng.random() < .2:
            pay = pay.replace(b"y", b"\xc3\xa9", rng.randint(0, 3))
        if kind < 0.5:
            head = b"event: response.completed\n"
        elif kind < 0.7:
            head = b""
        elif kind < 0.8:
            head = rng.choice([b": keep\n", b"id: 7\n", b"retry: 50\n", b"event: x\n: c\n"])
        else:
            head = b"event: a\nid: 9\n"
        lines = head + b"data: " + pay
        if rng.random() < .15:
            lines += b"\ndata: second"
        end = rng.choice([b"\n\n"] * 8 + [b"\r\n\r\n", b"\r\r", b"\n\r\n", b"\n\n\n"])
        blk = lines + end
        pts = [0, len(head), len(head) + 1, len(head) + 6, len(lines) - 2, len(lines) - 1, len(lines),
               len(lines) + 1, len(blk) - 1, len(blk)]
        counted = sum(len(x) for x in (head + b"data: " + pay).split(b"\n") if x and x[:1] != b":")
        blocks.append((blk, pts, counted))
    body = b""
    points = set()
    for blk, pts, _ in blocks:
        for p in pts:
            for d in (-2, -1, 0, 1, 2):
                q = len(body) + p + d
                if 0 < q < len(body) + len(blk):
                    points.add(q)
        body += blk
    if rng.random() < .2:
        body += rng.choice([b"data: tail", b"event: x\ndata: " + b"q" * 9000, b":c"])
    return body, sorted(points), [c for _, _, c in blocks]


def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    runs = diffs = 0
    for b in range(n):
        body, points, counted = body_of(rng)
        limits = [None, "default"] + [c + d for c in counted for d in (-1, 0, 1) if c > 1000] 
        limits = limits[:2] + rng.sample(limits[2:], min(3, len(limits) - 2))
        for _ in range(12):
            cuts = sorted(set(rng.sample(points, min(len(points), rng.randint(1, 3)))))
            parts = [body[a:c] for a, c in zip([0] + cuts, cuts + [len(body)])]
            for limit in limits:
                for mode in ("feed", "raw", "keep", "over"):
                    ra = F.drive(F.DN, parts, limit, mode, ["b"])
                    rb = F.drive(F.DB, parts, limit, mode, ["b"])
                    runs += 1
                    if ra != rb:
                        diffs += 1
                        if diffs <= 5:
                            print("DIFF body", b, "cuts", cuts, "limit", limit, "mode", mode, "len", len(body))
                            for i, (x, y) in enumerate(zip(ra, rb)):
                                if x != y:
                                    print("  at", i, "\n   new", repr(x)[:400], "\n   old", repr(y)[:400]); break
    print(f"sse_large seed={seed} bodies={n} runs={runs} differ={diffs}")


if __name__ == "__main__":
    main()
