import pickle, sys
a = pickle.load(open(sys.argv[1], "rb")); b = pickle.load(open(sys.argv[2], "rb"))
assert len(a) == len(b)
diffs = [(x, y) for x, y in zip(a, b) if x[3] != y[3]]
print("runs", len(a), "differ", len(diffs))
seen = 0
for x, y in diffs[: int(sys.argv[3]) if len(sys.argv) > 3 else 5]:
    print("KEY", x[0], "body", x[1][:300], "parts", [len(p) for p in x[2]][:40])
    for i, (p, q) in enumerate(zip(x[3], y[3])):
        if p != q:
            print("  first diff at", i, "\n   before", repr(p)[:300], "\n   after ", repr(q)[:300]); break
    else:
        print("  lengths", len(x[3]), len(y[3]), x[3][-2:], y[3][-2:])
