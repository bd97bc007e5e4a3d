"""Cost of partial JSON parsing over a long arguments stream (indicative; not a test).

Usage, from the repository root::

    PYTHONPATH=. python bench/partial_json_speed.py [SIZE_BYTES] [STRIDE]

Builds a JSON object of about SIZE_BYTES (default 200 000) shaped like tool-call arguments (file
paths, code with escapes, number lists, booleans), splits it into deltas of 1-8 characters (seeded)
and times, reading the partial value after every delta:

(a) one :class:`PartialJSON` fed delta by delta (incremental: the method the library uses);
(b) re-parsing from scratch on each delta: a fresh ``PartialJSON`` over the whole prefix, the same
    partial semantics (what the official SDK's Chat helper does with jiter on every chunk). Running
    it on every one of ~45 000 prefixes takes many minutes, so it is timed on every STRIDE-th prefix
    (default 100) and scaled by STRIDE: an estimate, printed as such;
(c) for scale, ``json.loads`` (C) of each whole prefix if it were complete, estimated as
    n_deltas * json.loads(full)/2: a lower bound for any from-scratch re-parse, even in C.

A second scenario streams one long string value (code written by a tool), where reading the value
after each delta must materialise the growing string (O(its length) per read, a memcpy: quadratic
in the string's length, with a small constant; reading once at the end is linear).
"""

from __future__ import annotations

import json
import random
import sys
import time

from sansio_responses._json.partial import PartialJSON


def build_document(size: int) -> str:
    files = []
    i = 0
    while True:
        body = "".join(
            f'def f{j}(x):\n\treturn "value \\"{j}\\"" + x  # caf\u00e9 \U0001f600\n'
            for j in range(3)
        )
        files.append(
            {
                "path": f"src/module_{i}.py",
                "content": body,
                "lines": list(range(i % 17)),
                "executable": i % 2 == 0,
                "ratio": i / 7,
                "owner": None,
            }
        )
        i += 1
        if i % 50 == 0 and len(json.dumps({"files": files})) >= size:
            return json.dumps({"files": files})


def split(doc: str, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    deltas = []
    i = 0
    while i < len(doc):
        k = rng.randint(1, 8)
        deltas.append(doc[i : i + k])
        i += k
    return deltas


def incremental(deltas: list[str]) -> tuple[float, object]:
    t0 = time.perf_counter()
    parser = PartialJSON()
    for delta in deltas:
        parser.feed(delta)
        parser.value  # noqa: B018 - the read is what is being timed
    return time.perf_counter() - t0, parser.final()


def from_scratch_sampled(deltas: list[str], stride: int) -> float:
    prefix_ends = []
    total = 0
    for delta in deltas:
        total += len(delta)
        prefix_ends.append(total)
    doc = "".join(deltas)
    t0 = time.perf_counter()
    for end in prefix_ends[stride - 1 :: stride]:
        parser = PartialJSON()
        parser.feed(doc[:end])
        parser.value  # noqa: B018
    return (time.perf_counter() - t0) * stride


def main() -> None:
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    stride = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    doc = build_document(size)
    deltas = split(doc)
    print(f"Python {sys.version.split()[0]}; document {len(doc):,} chars in {len(deltas):,} deltas")

    seconds_a, final = incremental(deltas)
    assert final == json.loads(doc)
    print(
        f"(a) incremental feed + value per delta: {seconds_a:8.3f} s "
        f"({seconds_a * 1e9 / len(doc):.0f} ns/char)"
    )
    seconds_b = from_scratch_sampled(deltas, stride)
    print(
        f"(b) fresh partial parse of each prefix: {seconds_b:8.3f} s "
        + (
            "(measured on every prefix)"
            if stride == 1
            else f"(estimated from every {stride}th prefix)"
        )
    )
    whole = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        json.loads(doc)
        whole = min(whole, time.perf_counter() - t0)
    seconds_c = whole * len(deltas) / 2
    print(f"(c) C json.loads of each prefix, bound: {seconds_c:8.3f} s (estimated)")
    print(
        f"ratio (b)/(a): {seconds_b / seconds_a:,.0f}x   "
        f"ratio (c)/(a): {seconds_c / seconds_a:,.1f}x"
    )

    code = "".join(f'    line_{j} = "x" * {j}  # \\u00e9\\n' for j in range(size // 30))
    string_doc = json.dumps({"path": "big.py", "content": code})
    string_deltas = split(string_doc, seed=1)
    seconds_s, final = incremental(string_deltas)
    assert final == json.loads(string_doc)
    t0 = time.perf_counter()
    parser = PartialJSON()
    for delta in string_deltas:
        parser.feed(delta)
    parser.value  # noqa: B018
    seconds_s_noread = time.perf_counter() - t0
    print(
        f"one {len(string_doc):,}-char string in {len(string_deltas):,} deltas: "
        f"value read per delta {seconds_s:.3f} s, read once at the end {seconds_s_noread:.3f} s"
    )


if __name__ == "__main__":
    main()
