import pickle, sys
a = pickle.load(open(sys.argv[1], "rb")); b = pickle.load(open(sys.argv[2], "rb"))
assert [x[0] for x in a] == [x[0] for x in b], "keys differ"
diffs = [(x, y) for x, y in zip(a, b) if x[1] != y[1]]
print("runs", len(a), "differ", len(diffs))
for x, y in diffs[: int(sys.argv[3]) if len(sys.argv) > 3 else 8]:
    print("KEY", x[0])
    (oa, ra), (ob, rb) = x[1], y[1]
    for i, (p, q) in enumerate(zip(ra, rb)):
        if p != q: print("  result field", i, "\n   before", repr(p)[:400], "\n   after ", repr(q)[:400])
    if len(oa) != len(ob): print("  n events", len(oa), len(ob))
    for i, (p, q) in enumerate(zip(oa, ob)):
        if p != q:
            print("  event", i, "\n   before", repr(p)[:600], "\n   after ", repr(q)[:600]); break
