"""Chat lazy logprobs: snapshot choices[].logprobs.content/refusal == concatenation of the chunks'
as json.loads reads them (odd spellings mixed in). Usage: SEED N"""
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
        g = generate("chat_logprobs", rng.choice([3, 30, 300]), seed=rng.randrange(100))
        out = []; want = []
        for b in g.data.split(b"\n\n"):
            if not b.strip() or b.strip() == b"data: [DONE]":
                continue
            d = json.loads(b[6:])
            for c in d.get("choices", []):
                lp = c.get("logprobs")
                r = rng.random()
                if lp and r < 0.1:
                    lp["content"] = []
                elif lp and r < 0.15:
                    c["logprobs"] = None
                elif lp and r < 0.2 and lp.get("content"):
                    lp["content"][0]["token"] = rng.choice(["\ud800", "é\"\\", "\u2028", "a\u0000"])
                elif lp and r < 0.25 and lp.get("content"):
                    lp["content"][0]["logprob"] = rng.choice([-1e308, -0.0, 5, float("nan"), 2**60])
            text = json.dumps(d, ensure_ascii=True if rng.random() < 0.5 else False, separators=rng.choice([(",", ":"), (", ", ": ")])).encode("utf-8", "surrogatepass")
            dd = json.loads(text.decode("utf-8", "replace"))
            for c in dd.get("choices", []):
                if c.get("logprobs") and c["logprobs"].get("content") is not None:
                    want += c["logprobs"]["content"]
            out.append(b"data: " + text + b"\n\n")
        body = b"".join(out) + b"data: [DONE]\n\n"
        for loads in (None, json.loads):
            for events in (True, False):
                for cname, ch in chunkings(body, random.Random(it)):
                    runs += 1
                    d = digest(sr.ChatCompletionsStream, body, ch, events, loads)
                    try:
                        lp = d["snap"]["choices"][0]["logprobs"]
                        got = lp and lp.get("content")
                    except Exception as e:
                        got = ("no choice", repr(d["snap"])[:100], d["err"])
                    if repr(got or []) != repr(want):
                        bad += 1
                        fn = f"/tmp/r4/clp-{seed}-{it}.sse"; open(fn, "wb").write(body)
                        print("BAD", fn, loads and "json" or "orjson", events, cname, d["err"] and d["err"][:2], repr(firstdiff(want, got))[:400], flush=True)
                        break
                else:
                    continue
                break
    print("runs", runs, "bad", bad)
main()
