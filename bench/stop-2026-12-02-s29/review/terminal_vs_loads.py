"""Large texts: the terminal event (and .done events) repeat the held text, sometimes with one
character changed, other escapes (\\/, \\u00e9, \\uXXXX for ASCII), or as a prefix/suffix;
the final snapshot must be exactly Response.from_dict(json.loads(terminal)['response']); every
.done event's to_dict() must be json.loads of its data. Usage: terminal_vs_loads.py SEED N"""
import sys, json, random
sys.path.insert(0, "/work/notes/review4")
import sansio_responses as sr
from sansio_responses.testing import StreamBuilder
from h import digest, chunkings

def variants(rng, s):
    """(name, json text of the string)"""
    enc = json.dumps(s, ensure_ascii=False)
    out = [("same", enc), ("ascii", json.dumps(s))]
    i = rng.randrange(1, len(enc) - 1)
    while enc[i - 1] == "\\" or enc[i] in '\\"':
        i = rng.randrange(1, len(enc) - 1)
    out.append(("slash-escaped", enc.replace("/", "\\/")))
    j = rng.randrange(len(s))
    ch = s[j]
    out.append(("one-u-escape", json.dumps(s[:j], ensure_ascii=False)[:-1] + "\\u%04x" % ord(ch) + json.dumps(s[j + 1:], ensure_ascii=False)[1:] if ord(ch) < 0x10000 else enc))
    t = s[:j] + ("X" if ch != "X" else "Y") + s[j + 1:]
    out.append(("one-char-changed", json.dumps(t, ensure_ascii=False)))
    out.append(("prefix", json.dumps(s[:-1], ensure_ascii=False)))
    out.append(("longer", json.dumps(s + "z", ensure_ascii=False)))
    out.append(("upper-hex", json.dumps(s).replace("\\u00e9", "\\u00E9")))
    out.append(("surrogate-pair-split", json.dumps(s, ensure_ascii=True)))
    return out

FC = "fc" in sys.argv
def make_text(rng, n):
    if FC and rng.random() < 0.7:  # ASCII with characters to escape (1b42001's case)
        alphabet = ["a", "b", " ", '"', "\\", "\n", "/", "{", "}", ":", ",", "\t", "\x7f", "x"]
        return "".join(rng.choices(alphabet, [30, 20, 10, 5, 3, 2, 2, 2, 2, 2, 2, 1, 1, 20], k=n))
    alphabet = ["a", "b", " ", "é", "\"", "\\", "\n", "/", "😀", "\u2028", "\x7f", "\t", "ü", "x"]
    weights = [30, 20, 10, 5, 2, 2, 2, 2, 1, 1, 1, 1, 3, 20]
    return "".join(rng.choices(alphabet, weights, k=n))

def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    bad = 0; runs = 0
    for it in range(n):
        text = make_text(rng, rng.choice([5000, 70000, 140000]))
        if FC:
            body = StreamBuilder().function_call("f", text, deltas=rng.choice([3, 40])).completed().to_sse()
        else:
            body = StreamBuilder().text(text, chunks=rng.choice([3, 40])).completed().to_sse()
        blocks = body.split(b"\n\n")
        # choose which event(s) to rewrite
        enc_same = json.dumps(text, ensure_ascii=False).encode()
        targets = [k for k, b in enumerate(blocks) if enc_same in b]
        vs = variants(rng, text)
        name, venc = rng.choice(vs)
        chosen = rng.sample(targets, rng.randint(1, len(targets)))
        for k in chosen:
            blocks[k] = blocks[k].replace(enc_same, venc.encode("utf-8", "surrogatepass"))
        mbody = b"\n\n".join(blocks)
        datas = []
        for b in blocks:
            for line in b.split(b"\n"):
                if line.startswith(b"data: "):
                    datas.append(json.loads(line[6:]))
        terminal = [d for d in datas if d["type"] == "response.completed"][-1]
        expect = sr.Response.from_dict(terminal["response"]).to_dict()
        for loads in (None, json.loads):
            for events in (True, False):
                for cname, ch in chunkings(mbody, random.Random(it)):
                    if cname == "bytes": continue
                    runs += 1
                    d = digest(sr.ResponsesStream, mbody, ch, events, loads, max_event_size=None)
                    msg = None
                    if d["err"]:
                        msg = ("error", d["err"][:2])
                    elif repr(d["snap"]) != repr(expect):
                        msg = ("snapshot != json.loads(terminal)",)
                    elif events:
                        want = [sr.parse_event(x).to_dict() for x in datas]
                        if repr(d["ev"]) != repr(want):
                            k = next(i for i, (a, b) in enumerate(zip(d["ev"], want)) if repr(a) != repr(b))
                            msg = ("event differs", k, want[k]["type"])
                    if msg:
                        bad += 1
                        fn = f"/tmp/r4/term-{seed}-{it}.sse"
                        open(fn, "wb").write(mbody)
                        print("BAD", fn, name, [blocks[k].split(b"\n")[0] for k in chosen], loads and "json" or "orjson", events, cname, msg, flush=True)
                        break
    print("runs", runs, "bad", bad)
main()
