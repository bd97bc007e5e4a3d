"""events=True vs events=False in one result pickle: same error type/message/offset, snapshot,
outcome and diagnostics (the events themselves differ by design)."""
import pickle, sys
for path in sys.argv[1:]:
    res = dict((k, v) for k, v in pickle.load(open(path, "rb")))
    n = bad = 0
    for k, v in res.items():
        if k[-1] is True or (len(k) == 5 and k[3] is True):
            kf = k[:-1] + (False,) if k[-1] is True else k[:3] + (False,) + k[4:]
            if kf in res:
                n += 1
                a, b = list(v[1]), list(res[kf][1])
                # the number of events attached to the error differs by design (none with events=False)
                a[0] = a[0] and a[0][:4]; b[0] = b[0] and b[0][:4]
                if a != b:
                    bad += 1
                    if bad <= 3: print(path, k, [i for i in range(len(a)) if a[i] != b[i]], str(a[0])[:200], "|", str(b[0])[:200])
    print(path, "pairs", n, "differ", bad)
