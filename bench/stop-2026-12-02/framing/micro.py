import sys, time
sys.path.insert(0, '/work/wt-framing')
from bench import generate as gen
data = gen.generate('text', 20000).data
size = 4096
chunks = [data[i:i+size] for i in range(0, len(data), size)]
LF = 10
def A(chunk, heads={}):
    out = []; append = out.append
    end = chunk.rfind(b"\n\n")
    if end < 0: return out
    pieces = chunk[:end].split(b"\n\n")  # approx
    pos = 0
    for block in pieces:
        n = len(block)
        head, sep, payload = block.partition(b"\ndata: ")
        if sep:
            event = heads.get(head)
            if event is None and head.startswith(b"event: ") and head.find(LF) < 0:
                event = head[7:].decode(); heads[head] = event
            if payload.find(LF) >= 0: event = None
        else:
            event = None
        if event is not None:
            append((event, payload, pos))
        pos += n + 2
    return out
def C(chunk, cache=[b"\x00", None]):
    out = []; append = out.append
    end = chunk.rfind(b"\n\n")
    if end < 0: return out
    find = chunk.find; sw = chunk.startswith
    p = chunk.find(b"\n\n") + 2  # skip the partial first block
    head, event = cache
    m = len(head)
    while p < end:
        if sw(head, p):
            s = p + m
        else:
            q = find(b"\n", p)
            if sw(b"event: ", p) and sw(b"data: ", q+1):
                head = chunk[p:q+7]; event = chunk[p+7:q].decode(); m = len(head); cache[:] = [head, event]
                s = p + m
            else:
                raise Exception
        e = find(b"\n", s)
        if chunk[e+1] != 10: raise Exception
        append((event, chunk[s:e], p))
        p = e + 2
    return out
def B(chunk, heads={}):
    out = []; append = out.append
    end = chunk.rfind(b"\n\n")
    lines = chunk[chunk.find(b"\n\n")+2:end].split(b"\n")
    lines.append(b"")
    it = iter(lines)
    pos = 0
    for ev, dl, blank in zip(it, it, it):
        event = heads.get(ev)
        if event is None:
            event = ev[7:].decode(); heads[ev] = event
        if blank or not dl.startswith(b"data: "): raise Exception
        append((event, dl[6:], pos))
        pos += len(ev)+len(dl)+3
    return out
import re
R = re.compile(rb"event: ([^\n]*)\ndata: ([^\n]*)\n\n")
def D(chunk):
    out=[]; append=out.append
    end = chunk.rfind(b"\n\n")
    p = chunk.find(b"\n\n") + 2
    match = R.match
    while p < end:
        m = match(chunk, p)
        ev, payload = m.groups()
        append((ev, payload, p))
        p = m.end()
    return out
fs = {'A':A,'B':B,'C':C,'D':D}
for f in fs.values():
    for c in chunks: f(c)
res = {k: [] for k in fs}
for r in range(7):
    for k, f in fs.items():
        t = time.process_time()
        for c in chunks: f(c)
        res[k].append(time.process_time() - t)
for k,v in res.items():
    v.sort(); print(k, round(v[3]/20000*1e9), "ns/event")
from itertools import accumulate
from operator import itemgetter, add
DROP6 = itemgetter(slice(6, None))
def E(chunk, heads={b"event: response.output_text.delta": "response.output_text.delta"}):
    end = chunk.rfind(b"\n\n")
    p = chunk.find(b"\n\n") + 2
    region = chunk[p:end]
    L = region.split(b"\n")
    L.append(b"")
    k = len(L) // 3
    if len(L) != 3 * k or end < 0: return []
    evs = L[0::3]; dls = L[1::3]
    if L[2::3].count(b"") != k: return []
    if region.count(b"\ndata: ") != k: return []
    try:
        events = list(map(heads.__getitem__, evs))
    except KeyError:
        for e in evs:
            if e not in heads: heads[e] = e[7:].decode()
        events = list(map(heads.__getitem__, evs))
    pos = accumulate(map(add, map(len, evs), map(len, dls)), initial=p)
    # positions: p, p+len0+3, ...  (add 3 per block)
    return list(zip(events, map(DROP6, dls), pos))
fs['E'] = E
for f in fs.values():
    for c in chunks: f(c)
res = {k: [] for k in fs}
for r in range(7):
    for k, f in fs.items():
        t = time.process_time()
        for c in chunks: f(c)
        res[k].append(time.process_time() - t)
print(sum(1 for c in chunks if not E(c)), len(chunks))
for k,v in res.items():
    v.sort(); print(k, round(v[3]/20000*1e9), "ns/event")
