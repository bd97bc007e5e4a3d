"""Unit-level attack of load_sharing/_cuts (final4): random JSON documents holding strings of a
held set exactly, repeated, reordered, as keys, inside longer strings, as prefixes/suffixes of
each other, escaped differently, truncated; held lists in any order, with equal copies and
strings absent from the document. For every call: the result is None or == json.loads(data)
(same types: repr compared), and no exception but RecursionError within the nesting limit.
Prints per-case digests (result repr hash, None or not, which held objects were placed where)
so that two trees can be compared line by line. Usage: unit_cuts.py SEED N
"""
import hashlib, json, random, sys
from sansio_responses import _base as B

ALPH = ["a", "b", "é", "😀", "\"", "\\", "/", "\n", "\t", "\x01", "\x7f", " ", "日", "\u2028", "x", "y", "NaN", "\\u", "\ud800"]

def rstr(rng, n):
    alph = ALPH if rng.random() < 0.7 else ["a", "b", "c"]
    if rng.random() < 0.85:
        alph = [c for c in alph if c != "\ud800"]
    return "".join(rng.choice(alph) for _ in range(n))

def variant(rng, s, held):
    r = rng.random()
    if r < 0.45: return s
    if r < 0.55: return rng.choice(held)
    if r < 0.62: return s[:-1] if s else s
    if r < 0.69: return s + rng.choice(["a", "é", "\""])
    if r < 0.76: return rng.choice(["", "p", "\\", "\""]) + s + rng.choice(["", "q", "\\"])
    if r < 0.82: return s[: len(s) // 2]
    if r < 0.88: return s + rng.choice(held)
    return rstr(rng, rng.randint(0, 40))

def doc(rng, held, depth=0):
    r = rng.random()
    if depth > 3 or r < 0.35:
        k = rng.random()
        if k < 0.6: return variant(rng, rng.choice(held), held)
        if k < 0.7: return rng.randint(-5, 10**6)
        if k < 0.75: return rng.choice([None, True, False, 1.5])
        if k < 0.8: return float("nan") if rng.random() < 0.3 else 1e300
        return rstr(rng, rng.randint(0, 10))
    if r < 0.65:
        return [doc(rng, held, depth + 1) for _ in range(rng.randint(0, 5))]
    d = {}
    for _ in range(rng.randint(0, 5)):
        key = variant(rng, rng.choice(held), held) if rng.random() < 0.25 else rng.choice(["text", "a", "b", "x", "arguments", "é"])
        d[key] = doc(rng, held, depth + 1)
    return d

def post(rng, text):
    for _ in range(rng.choice([0, 0, 1, 2])):
        k = rng.random()
        if k < 0.25: text = text.replace("/", "\\/")
        elif k < 0.5: text = text.replace("a", "\\u0061", 1)
        elif k < 0.7: text = text.replace("é", "\\u00e9", rng.choice([1, 99]))
        elif k < 0.8: text = text.replace(":", ": ", 1)
        elif k < 0.9: text = text.replace("\\n", "\\u000a")
        else: text = text.replace("\\\\", "\\u005c", 1)
    return text

def run_one(rng):
    nheld = rng.randint(1, 8)
    held = [rstr(rng, rng.choice([1, 3, 10, 40, 100, 300])) for _ in range(nheld)]
    for _ in range(rng.randint(0, 2)):  # one held string a prefix/suffix/infix of another
        s = rng.choice(held)
        held.append(s[: rng.randint(0, len(s))] if rng.random() < 0.5 else s[rng.randint(0, len(s)):])
    obj = {"type": "x", "v": doc(rng, held)}
    text = json.dumps(obj, ensure_ascii=rng.random() < 0.2, separators=rng.choice([(",", ":"), (", ", ": ")]))
    text = post(rng, text)
    # the held list: a random order, equal copies (not the same objects), absent strings
    shared = [h for h in held if h]
    rng.shuffle(shared) if rng.random() < 0.5 else None
    if rng.random() < 0.3:
        shared += ["".join(list(h)) for h in shared[: rng.randint(0, len(shared))]]
        shared = [h if rng.random() < 0.5 else h[:0] + h for h in shared]
    if rng.random() < 0.2:
        shared.append(rstr(rng, 50))
    shared = [s for s in shared if s]
    try:
        truth = json.loads(text)
    except ValueError:
        truth = ValueError
    out = []
    for as_bytes in (True, False):
        data = text.encode("utf-8", "surrogatepass") if as_bytes else text
        if as_bytes:
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue  # a lone surrogate written raw: not UTF-8 data
        for loads_name in ("stdlib", "orjson", "lambda"):
            loads = {"stdlib": B.stdlib_loads, "orjson": B._orjson_loads or B.stdlib_loads,
                     "lambda": lambda s: json.loads(s)}[loads_name]
            for mode in ("plain", "profiles", "found"):
                if mode != "plain" and not as_bytes:
                    continue
                profiles = {} if mode != "plain" else None
                found = [] if mode == "found" else None
                md = rng.choice([None, None, 3, 6, 50])
                try:
                    got = B.load_sharing(data, list(shared), loads, md, profiles, [], found)
                    err = None
                except RecursionError as exc:
                    got, err = None, "RecursionError"
                except Exception as exc:
                    got, err = None, f"{type(exc).__name__}: {exc}"
                bad = None
                if got is not None and truth is ValueError:
                    bad = "accepted invalid JSON"
                elif got is not None and repr(got) != repr(truth):
                    if not (loads_name == "orjson" and _orjson_differs(text)):
                        bad = "value differs from json.loads"
                elif err and err != "RecursionError":
                    bad = "raised " + err
                placed = _placed(got, shared)
                out.append((as_bytes, loads_name, mode, md, got is None, err,
                            hashlib.sha256(repr(got).encode("utf-8", "surrogatepass")).hexdigest()[:12], placed, bad))
                # a second event with the same profiles (proofs): repeat once
                if mode == "profiles" and got is not None:
                    got2 = B.load_sharing(data, list(shared), loads, md, profiles, [], None)
                    if got2 is not None and repr(got2) != repr(truth):
                        out.append(("again", "value differs from json.loads"))
    return text, shared, out

def _orjson_differs(text):
    try:
        import orjson
        return repr(orjson.loads(text)) != repr(json.loads(text))
    except Exception:
        return True

def _placed(got, shared):
    ids = {id(s): i for i, s in enumerate(shared)}
    res = []
    st = [got]
    while st:
        n = st.pop()
        if type(n) is str:
            if id(n) in ids: res.append(ids[id(n)])
        elif type(n) is dict:
            st.extend(n.values())
        elif type(n) is list:
            st.extend(n)
    return tuple(sorted(res))

def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    nbad = calls = 0
    for i in range(n):
        text, shared, out = run_one(rng)
        for o in out:
            calls += 1
            if o[-1]:
                nbad += 1
                if nbad <= 10:
                    print("BAD", i, o, repr(text)[:300], file=sys.stderr)
        print(i, hashlib.sha256(repr(out).encode("utf-8", "surrogatepass")).hexdigest()[:16], sum(1 for o in out if o[4] is False))
    print("docs", n, "calls", calls, "bad", nbad, file=sys.stderr)

if __name__ == "__main__":
    main()
