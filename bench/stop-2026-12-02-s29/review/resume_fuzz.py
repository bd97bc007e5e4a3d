"""Resume: a body cut anywhere (mid-event too), continued by reconnect() / resume_from= with a
replay that starts at or before the last applied event (a sloppy server), at any chunking. The
snapshot, outcome and the events (whole run minus duplicates) must be those of the uncut body.
Usage: resume_fuzz.py SEED N"""
import sys, json, random
sys.path.insert(0, "/work/wt-review")
import sansio_responses as sr
from bench.generate import generate

def blocks_of(body):
    return [b + b"\n\n" for b in body.split(b"\n\n") if b.strip()]

def feed_all(s, data, rng):
    out = []
    i = 0
    while i < len(data):
        n = rng.choice([1, 7, 100, 4096, len(data)])
        out += s.feed(data[i:i + n]); i += n
    return out

def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    bad = 0
    for it in range(n):
        sc = rng.choice(["text", "function_call", "reasoning", "text_items", "text_logprobs", "image"])
        g = generate(sc, rng.choice([3, 20, 200]), seed=rng.randrange(100))
        body = g.data
        ref = sr.ResponsesStream(); ref_ev = ref.feed(body) + ref.close()
        want = [e.to_dict() for e in ref_ev]
        want_snap = ref.snapshot().to_dict()
        for loads in (None, json.loads):
            kw = {} if loads is None else {"json_loads": loads}
            cut = rng.randrange(1, len(body))
            s = sr.ResponsesStream(**kw)
            got = feed_all(s, body[:cut], rng)
            try:
                got += s.close()
            except sr.TruncatedStream as e:
                got += e.events
            last = s.last_sequence_number
            bl = blocks_of(body)
            # the replay starts up to 3 events before the first one not applied
            seqs = []
            for b in bl:
                d = json.loads(b.split(b"data: ", 1)[1])
                seqs.append(d["sequence_number"])
            first = next((k for k, q in enumerate(seqs) if last is None or q > last), len(bl))
            start = max(0, first - rng.randint(0, 3))
            replay = b"".join(bl[start:])
            how = rng.choice(["reconnect", "resume_from"])
            if how == "reconnect":
                s.reconnect(); t = s
            else:
                t = sr.ResponsesStream(resume_from=s, **kw)
            try:
                got += feed_all(t, replay, rng) + t.close()
            except sr.ProtocolError as e:
                print("BAD raised", sc, cut, how, type(e).__name__, str(e)[:150]); bad += 1; continue
            snap = t.snapshot().to_dict()
            gd = [e.to_dict() for e in got]
            if json.dumps(snap, sort_keys=True) != json.dumps(want_snap, sort_keys=True) or t.outcome != ref.outcome:
                bad += 1; print("BAD snapshot", sc, cut, how, start, first, t.outcome, t.diagnostic_counts)
            elif gd != want:
                bad += 1
                k = next((i for i, (a, b) in enumerate(zip(gd, want)) if a != b), min(len(gd), len(want)))
                print("BAD events", sc, cut, how, len(gd), len(want), "first diff at", k, gd[k]["type"] if k < len(gd) else None, want[k]["type"] if k < len(want) else None)
    print("done", n, "bad", bad)
main()
