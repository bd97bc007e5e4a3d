"""Attack the SHA-256 proofs: a long held text whose later large events repeat it exactly,
with one character changed (same length and not), escaped differently (\\u00e9 vs é, \\/ vs /),
truncated, extended. Checks each event's text and the snapshot against json.loads of the data.
Prints one line per case with a digest; run under both trees and diff."""
import hashlib, json, random, sys
sys.path.insert(0, "/work/notes/review")
from synth2 import body
import sansio_responses as sr

rng = random.Random(5)
base_words = ["héllo", "wörld", "a/b", 'q"uote', "back\\slash", "line\nfeed", "tab\t", "plain", "ünï", "😀", "x" * 7]
def pieces(n):
    return [rng.choice(base_words) + " " for _ in range(n)]

def variants(text):
    L = len(text)
    mid = L // 2
    yield "same", text
    yield "chg_mid_same_len", text[:mid] + ("Z" if text[mid] != "Z" else "Y") + text[mid + 1:]
    yield "chg_last", text[:-1] + ("Z" if text[-1] != "Z" else "Y")
    yield "chg_first", ("Z" if text[0] != "Z" else "Y") + text[1:]
    yield "drop_last", text[:-1]
    yield "add_char", text + "!"
    i = text.find("é")
    if i >= 0: yield "e_acute_to_e", text[:i] + "e" + text[i + 1:]
    yield "swap_2", text[:mid] + text[mid + 1] + text[mid] + text[mid + 2:]

def posts():
    yield "none", None
    yield "uesc_e", lambda d: d.replace("é".encode(), b"\\u00e9")
    yield "uesc_e_once", lambda d: d.replace("é".encode(), b"\\u00e9", 1)
    yield "slash", lambda d: d.replace(b"/", b"\\/")
    yield "slash_last", lambda d: (lambda i: d[:i] + b"\\/" + d[i + 1:] if i >= 0 else d)(d.rfind(b"a/b"[1:2]))
    yield "u_space_once", lambda d: d.replace(b"plain", b"pl\\u0061in", 1)

def check(b, events):
    s = sr.ResponsesStream(events=events)
    evs = s.feed(b) + s.close()
    bad = []
    datas = [blk.split(b"\ndata: ", 1)[1] for blk in b.split(b"\n\n") if b"\ndata: " in blk]
    truth = [json.loads(d) for d in datas]
    if events:
        for e, t in zip(evs, truth):
            if e.to_dict() != t:
                bad.append(("event", e.type, e.sequence_number))
    snap = s.snapshot().to_dict()
    final = truth[-1]["response"]
    if snap["output"] != final["output"]:
        bad.append("snapshot!=completed.output")
    h = hashlib.sha256(repr((snap, [e.to_dict() for e in evs][-4:], dict(s.diagnostic_counts))).encode()).hexdigest()[:12]
    return bad, h, dict(s.diagnostic_counts)

n = 0; nbad = 0
import os
for size in tuple(int(x) for x in os.environ.get("SIZES", "3000,9000,15000").split(",")):
    ps = pieces(size)
    text = "".join(ps)
    for which in range(4):  # which closing event carries the variant
        for vname, vtext in variants(text):
            for pname, post in posts():
                texts = [None] * 4; texts[which] = vtext
                pp = [None] * 4; pp[which] = post
                b = body(ps, texts, pp)
                for events in (True, False):
                    bad, h, diag = check(b, events)
                    n += 1; nbad += bool(bad)
                    print(size, which, vname, pname, events, h, bad, diag)
        # escapes on ALL later events (the proof of the first match is then of other bytes)
        for pname, post in posts():
            for ascii_ in ((False,) * 4, (True,) * 4, (False, True, False, True)):
                b = body(ps, post=(post,) * 4, ascii_=ascii_)
                for events in (True, False):
                    bad, h, diag = check(b, events)
                    n += 1; nbad += bool(bad)
                    print(size, "all", pname, ascii_, events, h, bad, diag)
print("cases", n, "bad", nbad, file=sys.stderr)
