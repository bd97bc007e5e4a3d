import sys, json, gc, time, statistics
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
from bench.shapes import _split_final
s = gen.generate('function_call', 20000)
prefix, block, payload = _split_final(s.data)
text = payload.decode()
i = text.index('"arguments":"{'); j = text.index('","call_id"', i)
rest = text[:i] + '"arguments":NaN' + text[j+1:]
dec = json.JSONDecoder(parse_constant=lambda n: "x")
T = time.perf_counter
junk = [dict(a=i) for i in range(int(sys.argv[2]))]
def run(label, pre, f):
    ts = []
    for k in range(41):
        pre(); t0 = T(); f(); ts.append(T() - t0)
    print(f"{label:40s} {statistics.median(ts)*1e6:.1f}")
scan = lambda: dec.scan_once(rest, 0)
run("warm scan", lambda: None, scan)
run("gc; scan", gc.collect, scan)
run("gc; small loads; scan", gc.collect, lambda: (json.loads('{"a":[1,{"b":2.5}]}'), scan()))
run("gc; small loads", gc.collect, lambda: json.loads('{"a":[1,{"b":2.5}]}'))
run("gc; 100 dicts", gc.collect, lambda: [{} for _ in range(100)])
run("warm 100 dicts", lambda: None, lambda: [{} for _ in range(100)])
run("gc; touch 1MB; scan", lambda: (gc.collect(), bytearray(1<<20)), scan)
run("touch 8MB; scan", lambda: bytes(8<<20), scan)
run("gc.freeze? gen0 collect; scan", lambda: gc.collect(0), scan)
run("gc; loop no alloc", gc.collect, lambda: sum(range(100)))
run("gc; 100 floats", gc.collect, lambda: [x * 1.5 for x in range(100)])
run("gc; 100 tuples", gc.collect, lambda: [(x, x) for x in range(100)])
run("gc; 1 dict", gc.collect, lambda: {})
run("gc; 10 dict", gc.collect, lambda: [{} for _ in range(10)])
run("gc; 1000 dict", gc.collect, lambda: [{} for _ in range(1000)])
run("warm 1000 dict", lambda: None, lambda: [{} for _ in range(1000)])
