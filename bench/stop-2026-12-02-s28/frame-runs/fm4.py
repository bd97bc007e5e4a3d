# Cold cost of single operations after gc.collect() (process_time).
import sys, gc, time, statistics
clock = time.process_time
junk = [{"a": [i]} for i in range(100000)]
small = b'event: response.in_progress\ndata: {"type":"x","sequence_number":3,"a":"' + b"x"*1500 + b'"}\n\n'
big = b'event: response.completed\ndata: ' + b"y"*92000 + b'\n\n'
heads = {b"event: response.in_progress": "a"}
ops = {
    "noop": lambda: None,
    "len": lambda: len(small),
    "in": lambda: 10 in small,
    "find": lambda: small.find(b"\n"),
    "startswith": lambda: small.startswith(b"data: ", 28),
    "dict.get": lambda: heads.get(b"event: response.in_progress"),
    "slice small": lambda: small[40:1500],
    "decode": lambda: small[40:1500].decode("utf-8", "replace"),
    "tuple list": lambda: [("a", small, 3)],
    "CR in big": lambda: 13 in big,
    "slice big": lambda: big[33:92000],
    "in+find+sw+get": lambda: (10 in small, small.find(b"\n"), small.startswith(b"data: ", 28), heads.get(b"event: response.in_progress")),
}
res = {}
for r in range(31):
    for k, f in ops.items():
        gc.collect()
        t0 = clock(); f(); d = clock() - t0
        res.setdefault(k, []).append(d)
for k, v in res.items():
    print(f"{k:16s} {statistics.median(v)*1e6:7.1f} us")
