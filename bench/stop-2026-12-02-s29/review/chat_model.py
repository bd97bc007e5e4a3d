"""Reference model of CHAT_ACCUMULATION_RULES (subset) against ChatCompletionsStream.snapshot()
on random chunk sequences that repeat one shape many times (the template path), with escapes in
the strings, several choices / tool calls in any order, null fields, obfuscation, usage.
Usage: chat_model.py SEED N"""
import sys, json, random
sys.path.insert(0, "/work/notes/review4")
import sansio_responses as sr
from h import digest, chunkings, firstdiff

TXT = ["a", "bc", "é", "\"", "\\", "\n", "😀", " ", "xyz", "\u2028", "/", "", "\\u0041", "\t", "{\"k\": 1}"]

def rtext(rng):
    return "".join(rng.choice(TXT) for _ in range(rng.randint(0, 3)))

def gen(rng):
    chunks = []
    model = {"choices": {}}
    nchoices = rng.choice([1, 1, 1, 2, 3])
    cidx = rng.sample([0, 1, 2, 5, 127], nchoices)
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 5, "model": "m-1"}
    if rng.random() < 0.5:
        head["system_fingerprint"] = "fp"
    for k in range(rng.randint(1, 60)):
        ch = dict(head)
        choices = []
        for c in rng.sample(cidx, rng.randint(1, nchoices)) if rng.random() < 0.3 else [rng.choice(cidx)]:
            m = model["choices"].setdefault(c, {"content": None, "refusal": None, "tool_calls": {}, "finish_reason": None, "role": None})
            delta = {}
            r = rng.random()
            if m["role"] is None and rng.random() < 0.5:
                delta["role"] = "assistant"; m["role"] = "assistant"
            if r < 0.55:
                t = rtext(rng)
                delta["content"] = t
                m["content"] = (m["content"] or "") + t
            elif r < 0.6:
                delta["content"] = None
            elif r < 0.65:
                t = rtext(rng)
                delta["refusal"] = t
                m["refusal"] = (m["refusal"] or "") + t
            elif r < 0.95:
                calls = []
                for ti in rng.sample([0, 1, 3], rng.choice([1, 1, 2])):
                    tc = m["tool_calls"].get(ti)
                    call = {"index": ti}
                    if tc is None:
                        tc = m["tool_calls"][ti] = {"id": f"call_{ti}", "type": "function", "name": f"fn{ti}", "arguments": ""}
                        call.update({"id": tc["id"], "type": "function", "function": {"name": tc["name"], "arguments": ""}})
                    a = rtext(rng)
                    call.setdefault("function", {})["arguments"] = a
                    tc["arguments"] += a
                    calls.append(call)
                delta["tool_calls"] = calls
            fr = None
            if rng.random() < 0.05:
                fr = rng.choice(["stop", "tool_calls", "length"])
                m["finish_reason"] = fr
            choice = {"index": c, "delta": delta, "logprobs": None, "finish_reason": fr}
            choices.append(choice)
        ch["choices"] = choices
        if rng.random() < 0.7:
            ch["obfuscation"] = "".join(rng.choice("abcXYZ") for _ in range(rng.randint(0, 6)))
        chunks.append(ch)
    if rng.random() < 0.5:
        u = {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}
        chunks.append({**head, "choices": [], "usage": u})
        model["usage"] = u
    return chunks, model

def check_snap(snap, model):
    if not isinstance(snap, dict):
        return ("no snapshot", repr(snap)[:100])
    if snap.get("id") != "chatcmpl-1" or snap.get("model") != "m-1":
        return ("head", snap.get("id"), snap.get("model"))
    if snap.get("usage") != model.get("usage"):
        return ("usage", snap.get("usage"), model.get("usage"))
    got = {c["index"]: c for c in snap["choices"]}
    if sorted(got) != sorted(model["choices"]):
        return ("choice set", sorted(got), sorted(model["choices"]))
    for i, m in model["choices"].items():
        msg = got[i]["message"]
        if msg.get("content") != m["content"]:
            return ("content", i, firstdiff(m["content"], msg.get("content")))
        if msg.get("refusal") != m["refusal"]:
            return ("refusal", i, msg.get("refusal"), m["refusal"])
        if got[i].get("finish_reason") != m["finish_reason"]:
            return ("finish_reason", i)
        calls = msg.get("tool_calls") or []
        want = [m["tool_calls"][k] for k in sorted(m["tool_calls"])]
        if len(calls) != len(want):
            return ("tool count", i, len(calls), len(want))
        for a, b in zip(calls, want):
            if (a.get("id"), a["function"].get("name"), a["function"].get("arguments")) != (b["id"], b["name"], b["arguments"]):
                return ("tool", i, a, b)
    return None

def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    bad = 0
    for it in range(n):
        chunks, model = gen(rng)
        sep = rng.choice([(",", ":"), (", ", ": ")])
        asc = rng.random() < 0.3
        body = b"".join(b"data: " + json.dumps(c, separators=sep, ensure_ascii=asc).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
        for loads in (None, json.loads):
            for events in (True, False):
                for cname, ch in chunkings(body, random.Random(it)):
                    d = digest(sr.ChatCompletionsStream, body, ch, events, loads)
                    msg = ("error", d["err"][:2]) if d["err"] else check_snap(d["snap"], model)
                    if msg:
                        bad += 1
                        fn = f"/tmp/r4/chatmodel-{seed}-{it}.sse"
                        open(fn, "wb").write(body)
                        print("BAD", fn, loads and "json" or "orjson", events, cname, repr(msg)[:600], flush=True)
                        break
                else:
                    continue
                break
    print("done", n, "bad", bad)
main()
