"""Lazy logprobs: the snapshot's part logprobs (no terminal event) must equal the concatenation of
the deltas' logprobs as json.loads reads them; with odd spellings of the arrays (spaces, escapes,
\\u escapes in tokens, NaN/1e400 logprobs, empty arrays, duplicate keys). Usage: SEED N"""
import sys, json, random
sys.path.insert(0, "/work/notes/review4"); sys.path.insert(0, "/work/wt-review")
import sansio_responses as sr
from h import digest, chunkings, firstdiff
from bench.generate import generate

def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    bad = 0; runs = 0
    for it in range(n):
        g = generate("text_logprobs", rng.choice([3, 30, 300]), seed=rng.randrange(100))
        blocks = [b for b in g.data.split(b"\n\n") if b.strip()]
        out = []
        want = []
        for b in blocks:
            ev, _, data = b.partition(b"\ndata: ")
            d = json.loads(data)
            if d["type"] in ("response.completed", "response.output_text.done", "response.content_part.done", "response.output_item.done"):
                continue
            text = data
            if d["type"] == "response.output_text.delta":
                r = rng.random()
                if r < 0.15:
                    d["logprobs"] = []
                elif r < 0.25 and d["logprobs"]:
                    d["logprobs"][0]["logprob"] = rng.choice([1e308, -0.0, 5, float("nan")])
                elif r < 0.3 and d["logprobs"]:
                    d["logprobs"][0]["token"] = rng.choice(["\ud800", "é\"\\", "\u2028"])
                text = json.dumps(d, ensure_ascii=rng.random() < 0.3, separators=rng.choice([(",", ":"), (", ", ": ")])).encode("utf-8", "surrogatepass")
                if rng.random() < 0.05:
                    text = text.replace(b'"logprobs":', b'"logprobs":[], "logprobs":', 1)
                want += json.loads(text.decode("utf-8", "replace"))["logprobs"]
            out.append(ev + b"\ndata: " + text + b"\n\n")
        body = b"".join(out)
        for loads in (None, json.loads):
            for events in (True, False):
                for cname, ch in chunkings(body, random.Random(it)):
                    runs += 1
                    d = digest(sr.ResponsesStream, body, ch, events, loads)
                    try:
                        got = d["snap"]["output"][0]["content"][0].get("logprobs")
                    except Exception as e:
                        got = ("no part", repr(d["snap"])[:100], d["err"])
                    if repr(got) != repr(want):
                        bad += 1
                        fn = f"/tmp/r4/lp-{seed}-{it}.sse"; open(fn, "wb").write(body)
                        print("BAD", fn, loads and "json" or "orjson", events, cname, repr(firstdiff(want, got))[:400], flush=True)
                        break
                else:
                    continue
                break
    print("runs", runs, "bad", bad)
main()
