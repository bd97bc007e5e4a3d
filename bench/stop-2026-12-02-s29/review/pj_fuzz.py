"""PartialJSON vs json.loads (strict: no NaN) at random splits. Usage: pj_fuzz.py SEED N"""
import sys, json, random, math
import sansio_responses as sr

def strict_loads(t):
    def bad(x): raise ValueError("const " + x)
    return json.loads(t, parse_constant=bad)

ATOMS = ['0', '-0', '1', '-1', '1.5', '1e5', '1E+5', '1e-5', '-0.0e0', '123456789012345678901234567890', '1e400', '-1e400',
         '01', '1.', '.5', '-', '+1', '1e', '1e+', 'true', 'false', 'null', 'tru', 'nul', 'NaN', 'Infinity', '-Infinity',
         '""', '"a"', '"\\u00e9"', '"\\ud83d\\ude00"', '"\\ud83d"', '"\\ude00"', '"\\ud83dx"', '"\\u0000"', '"\\/"', '"\\x"',
         '"é😀"', '"\x01"', '"\t"', '"\\uD83D\\uDE00"', '"\\u12"', '"a\\"b"', '"\\\\"', '"\ud800"', '"\\ud83d\\u0041"',
         '"\\ud800\\ud800"', '"\\udbff\\udfff"', '1.0e+0001']

def gen(rng, d=0):
    r = rng.random()
    if d > 4 or r < 0.4:
        return rng.choice(ATOMS)
    if r < 0.7:
        n = rng.randrange(4)
        return "[" + rng.choice([",", ", ", " ,"]).join(gen(rng, d+1) for _ in range(n)) + rng.choice(["]", "]", "]", ",]", ""]) 
    n = rng.randrange(4)
    items = []
    for _ in range(n):
        k = rng.choice(['"a"', '"b"', '"a"', '""', '"\\u0061"', '"é"', '"\\ud83d"', '1', 'a'])
        items.append(k + rng.choice([":", " : ", ""]) + gen(rng, d+1))
    return "{" + ",".join(items) + rng.choice(["}", "}", "}", ",}", ""])

def ws(rng):
    return rng.choice(["", "", " ", "\n", "\r\n\t", "\u00a0", "\ufeff"])

def run(text, parts, max_depth=512):
    p = sr.PartialJSON(max_depth=max_depth)
    vals = []
    try:
        for x in parts:
            p.feed(x)
            vals.append(repr(p.value))
    except Exception as e:
        return ("UNTYPED-feed", type(e).__name__, str(e)[:200])
    try:
        v = p.final()
        return ("ok", repr(v), p.complete)
    except sr.PartialJSONError as e:
        return ("err", e.position, e.message)
    except Exception as e:
        return ("UNTYPED-final", type(e).__name__, str(e)[:200])

def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    bad = 0
    for it in range(n):
        text = ws(rng) + gen(rng) + ws(rng)
        if rng.random() < 0.1: text += rng.choice([" 1", "x", "{}", ""])
        try:
            ref = ("ok", repr(strict_loads(text)))
        except (ValueError, RecursionError) as e:
            ref = ("err",)
        whole = run(text, [text])
        bytes_ = run(text, list(text))
        cuts = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, 3)))
        parts = [text[a:b] for a, b in zip([0] + cuts, cuts + [len(text)])]
        rnd = run(text, parts)
        msgs = []
        if whole != bytes_ or whole != rnd:
            msgs.append(("chunking", whole, bytes_, rnd))
        if whole[0].startswith("UNTYPED"):
            msgs.append(("untyped", whole))
        if (whole[0] == "ok") != (ref[0] == "ok") or (ref[0] == "ok" and whole[1] != ref[1]):
            msgs.append(("vs json.loads", ref, whole))
        if msgs:
            bad += 1
            if bad < 25:
                print(repr(text), msgs)
    print("done", n, "bad", bad)
main()
