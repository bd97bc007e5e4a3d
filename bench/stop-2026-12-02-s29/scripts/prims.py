import sys, json, gc, time, statistics
sys.path.insert(0, "/work/wt-lead")
import openai, pydantic  # the heap of the full table
from bench import generate as gen
from bench.shapes import _split_final
s = gen.generate("function_call", 20000)
prefix, block, payload = _split_final(s.data)
obj = json.loads(payload)
value = obj["response"]["output"][0]["arguments"]
esc = json.dumps(value, ensure_ascii=False)[1:-1].encode()
at = payload.find(esc[:64])
rest = payload[:at-1] + b"NaN" + payload[at+len(esc)+1:]
rtext = rest.decode()
text = payload.decode()
n = len(block)
ops = {
 "find LF": lambda: block.find(b"\n", 30),
 "CR in": lambda: b"\r" in block,
 "slice copy": lambda: block[30:n-2],
 "decode payload": lambda: payload.decode(),
 "encode value": lambda: value.encode(),
 "replace quote": lambda: esc.replace(b'"', b'\\"'),
 "encode+replace": lambda: value.encode().replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n"),
 "startswith": lambda: payload.startswith(esc, at),
 "hash copy": lambda: hash(payload[at:at+len(esc)]),
 "loads rest": lambda: json.loads(rtext),
 "loads all": lambda: json.loads(text),
 "nothing": lambda: None,
}
res = {k: [] for k in ops}
clock = time.perf_counter
for r in range(31):
    for k, f in ops.items():
        gc.collect()
        t0 = clock(); f(); res[k].append(clock() - t0)
print(f"gc objects {len(gc.get_objects())}, value {len(value)}, esc {len(esc)}, quotes {esc.count(34)}")
for k, v in res.items():
    print(f"{k:16s} cold {statistics.median(v)*1e6:7.1f} us")
