"""feed_raw with chunks that are exactly one block (4f1a560's _one_block) and near misses, NEW vs
OLD: random sequences of such chunks, each chosen from: data-only / event+data blocks (cached
head or a new one, empty event, long event type > 256 bytes, non-UTF-8 type), payloads of 0..n
bytes (16 KiB +-1 around bytes_over; the limit -1/0/+1), a payload with an LF or CR inside,
`data:` without space, an `id:`/`retry:`/comment line, a trailing third LF, a block without
its blank line, a partial block, a CR/LF/CRLF split, chunks of two blocks; decoders with
max_event_size None / default / small; keep_bytes / bytes_over 16384 / plain; report_comments.
Usage: one_block.py SEED N"""
import random, sys
sys.path.insert(0, "/work/notes/review3")
import sse_fuzz as F


def chunk(rng, limit):
    r = rng.random()
    et = rng.choice([b"response.output_text.delta", b"response.completed", b"", b"x", b"t" * 257, b"t" * 256, b"\xff\xfe"])
    size = rng.choice([0, 1, 5, 100, 16384 - 1, 16384, 16385, rng.randint(0, 70000)])
    if isinstance(limit, int) and rng.random() < 0.3:
        size = max(0, limit - rng.choice([0, 1, 2, 6, 7, 8]) - (len(et) + 8 if rng.random() < .5 else 0))
    pay = bytes(rng.choice(b"ab {}\":,\xc3\xa9") for _ in range(min(size, 50))) + b"x" * max(0, size - 50)
    if r < 0.35:
        blk = b"data: " + pay + b"\n\n"
    elif r < 0.7:
        blk = b"event: " + et + b"\ndata: " + pay + b"\n\n"
    else:
        blk = rng.choice([
            b"data: " + pay + b"\nx\n\n", b"data: a\rb\n\n", b"data:" + pay + b"\n\n", b"id: 5\ndata: " + pay + b"\n\n",
            b"retry: 10\ndata: x\n\n", b": c\n\n", b"event: x\ndata: y\n\n\n", b"data: " + pay + b"\n",
            b"event: x\ndata: y\n\ndata: z\n\n", b"data: part", b"\n\n", b"data: x\r\n\r\n", b"\r", b"\n",
            b"event: e\n: c\ndata: y\n\n", b"event: e\ndata: y\ndata: z\n\n", b"data: " + pay + b"\n\r\n",
            b"\xef\xbb\xbfdata: x\n\n", b"event: x\ndata: \n\n", b"data: \n\n", b"event:x\ndata: y\n\n"])
    return blk


def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    runs = diffs = 0
    for b in range(n):
        limit = rng.choice([None, "default", rng.randint(5, 300), 16390, 70000])
        parts = [chunk(rng, limit) for _ in range(rng.randint(1, 12))]
        if rng.random() < 0.2:
            parts.insert(0, rng.choice([b"\xef\xbb\xbf", b"\xef", b"data: open", b": comment", b"event: x\n", b"x\r"]))
        for mode in ("raw", "keep", "over", "alt"):
            ra = F.drive(F.DN, parts, limit, mode, ["b"])
            rb = F.drive(F.DB, parts, limit, mode, ["b"])
            runs += 1
            if ra != rb:
                diffs += 1
                if diffs <= 6:
                    print("DIFF", b, "limit", limit, "mode", mode, [p[:40] for p in parts])
                    for i, (x, y) in enumerate(zip(ra, rb)):
                        if x != y:
                            print("  at", i, "\n   new", repr(x)[:400], "\n   old", repr(y)[:400]); break
    print(f"one_block seed={seed} n={n} runs={runs} differ={diffs}")


if __name__ == "__main__":
    main()
