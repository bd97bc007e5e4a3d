import sys, json, gc, time, statistics
sys.path.insert(0, sys.argv[1])
from bench import generate as gen
from bench.shapes import _split_final
s = gen.generate('function_call', 20000)
prefix, block, payload = _split_final(s.data)
text = payload.decode()
i = text.index('"arguments":"{'); j = text.index('","call_id"', i)
rest = text[:i] + '"arguments":NaN' + text[j+1:]
print(len(rest))
dec = json.JSONDecoder(parse_constant=lambda n: "x")
T = time.perf_counter
junk = [dict(a=i) for i in range(int(sys.argv[2]))]
for label, pre in [("warm", lambda: None), ("gc", gc.collect), ("gc+touch", lambda: (gc.collect(), bytes(4_000_000)))]:
    for name, f in [("scan rest", lambda: dec.scan_once(rest, 0)), ("loads rest", lambda: json.loads(rest)), ("loads full", lambda: json.loads(text))]:
        ts = []
        for k in range(30):
            pre(); t0 = T(); f(); ts.append(T() - t0)
        print(label, name, f"{statistics.median(ts)*1e6:.1f}")
