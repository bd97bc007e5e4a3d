import sys, timeit, hashlib
sys.path.insert(0, "/work/wt-final3")
from bench import generate as gen
from bench.shapes import SHAPES, _split_final
import json
for shape in ("text","function_call","reasoning"):
    prefix, block, payload = _split_final(gen.generate(shape, dict(SHAPES)[shape]).data)
    obj = json.loads(payload)
    def longest(o, acc):
        if isinstance(o, str):
            if len(o) > 4096: acc.append(o)
        elif isinstance(o, dict):
            for v in o.values(): longest(v, acc)
        elif isinstance(o, list):
            for v in o: longest(v, acc)
        return acc
    ss = longest(obj, [])
    s = ss[0]
    raw = s.encode()
    mv = memoryview(payload)
    n=2000
    f = lambda fn: min(timeit.repeat(fn, number=n, repeat=5))/n*1e6
    print(shape, len(s), "ascii" if s.isascii() else "non-ascii", "kind", "n=%d"%len(ss),
      "encode %.1f" % f(lambda: s.encode()),
      "enc+repl %.1f" % f(lambda: s.encode().replace(b'"', b'\\"')),
      "startswith %.1f" % f(lambda: payload.startswith(raw, 0)),
      "sha256 %.1f" % f(lambda: hashlib.sha256(mv[:len(raw)]).digest()),
      "sha1 %.1f" % f(lambda: hashlib.sha1(mv[:len(raw)]).digest()),
      "blake2b %.1f" % f(lambda: hashlib.blake2b(mv[:len(raw)]).digest()),
      "md5 %.1f" % f(lambda: hashlib.md5(mv[:len(raw)]).digest()),
      "hash(str) %.1f" % f(lambda: hash(s)),
      "decode %.1f" % f(lambda: raw.decode()),
    )
