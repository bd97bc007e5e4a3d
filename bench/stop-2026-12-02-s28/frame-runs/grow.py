import gc, time, statistics
clock = time.process_time
junk = [{"a": [i]} for i in range(100000)]
block = b"x" * 92443
for step in (4096, 65536):
    chunks = [block[i:i+step] for i in range(0, len(block), step)]
    res = {}
    for r in range(31):
        gc.collect()
        t0 = clock()
        line = bytearray(chunks[0])
        for c in chunks[1:]:
            line += c
        del line[:6]
        res.setdefault("bytearray +=", []).append(clock() - t0)
        del line
        gc.collect()
        t0 = clock()
        pieces = [chunks[0]]
        for c in chunks[1:]:
            pieces.append(c)
        line = bytearray().join(pieces)
        del line[:6]
        res.setdefault("list+join", []).append(clock() - t0)
        del line, pieces
        gc.collect()
        t0 = clock()
        line = bytes(block)
        res.setdefault("one copy (ref)", []).append(clock() - t0)
    print(step, {k: round(statistics.median(v)*1e6, 1) for k, v in res.items()})
