"""Reference model of the accumulation rules (format_accumulation_rules) for messages, function
calls and reasoning summaries, against ResponsesStream.snapshot() on random valid-shaped event
sequences: sparse indices, items and parts replaced, deltas interleaved between parts and items,
.done values that differ from the deltas, texts with escapes. No terminal event (the snapshot is
then the accumulated one). Usage: model_ref.py SEED N"""
import sys, json, random, copy
sys.path.insert(0, "/work/notes/review4")
import sansio_responses as sr
from h import digest, chunkings, firstdiff

TXT = ["a", "bc", "é", "\"", "\\", "\n", "😀", " ", "xyz", "\u2028", "/", ""]

def rtext(rng):
    return "".join(rng.choice(TXT) for _ in range(rng.randint(0, 4)))

def gen(rng):
    seq = [0]
    evs = []
    def emit(o):
        o["sequence_number"] = seq[0]; seq[0] += 1; evs.append(o)
    emit({"type": "response.created", "response": {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}})
    model = {}  # index -> item
    idx_pool = [0, 1, 2, 7, 1000, 10**9]
    kinds = {}
    for _ in range(rng.randint(1, 40)):
        r = rng.random()
        if r < 0.15 or not model:
            i = rng.choice(idx_pool)
            kind = rng.choice(["message", "function_call", "reasoning"])
            iid = f"it_{i}_{kind}"
            if kind == "message":
                item = {"id": iid, "type": "message", "role": "assistant", "status": "in_progress", "content": []}
            elif kind == "function_call":
                item = {"id": iid, "type": "function_call", "call_id": "c", "name": "f", "arguments": "", "status": "in_progress"}
            else:
                item = {"id": iid, "type": "reasoning", "summary": []}
            if i in model and model[i]["id"] != iid:
                continue  # avoid id/index clashes: not what this model checks
            emit({"type": "response.output_item.added", "output_index": i, "item": item})
            model[i] = copy.deepcopy(item)
            continue
        i = rng.choice(list(model))
        item = model[i]
        iid = item["id"]
        if item["type"] == "message":
            parts = item.setdefault("_parts", {})
            if r < 0.3 or not parts:
                c = rng.choice([0, 1, 3, 500])
                part = {"type": "output_text", "text": rtext(rng), "annotations": []}
                emit({"type": "response.content_part.added", "output_index": i, "item_id": iid, "content_index": c, "part": part})
                if c in parts and not part["text"] and parts[c].get("_d"):
                    # 18e8897: a part.added carrying "" keeps the text deltas built (as summaries)
                    parts[c] = {**copy.deepcopy(part), "text": parts[c]["text"], "_d": True}
                else:
                    parts[c] = copy.deepcopy(part)
            elif r < 0.8:
                c = rng.choice(list(parts))
                d = rtext(rng)
                emit({"type": "response.output_text.delta", "output_index": i, "item_id": iid, "content_index": c, "delta": d, "logprobs": []})
                parts[c]["text"] += d
                parts[c]["_d"] = True
            elif r < 0.9:
                c = rng.choice(list(parts))
                t = parts[c]["text"] if rng.random() < 0.5 else rtext(rng)
                emit({"type": "response.output_text.done", "output_index": i, "item_id": iid, "content_index": c, "text": t, "logprobs": []})
                parts[c]["text"] = t
            else:
                c = rng.choice(list(parts))
                part = {"type": "output_text", "text": parts[c]["text"] if rng.random() < 0.5 else rtext(rng), "annotations": []}
                emit({"type": "response.content_part.done", "output_index": i, "item_id": iid, "content_index": c, "part": part})
                parts[c] = copy.deepcopy(part)
        elif item["type"] == "function_call":
            if r < 0.8:
                d = rtext(rng)
                emit({"type": "response.function_call_arguments.delta", "output_index": i, "item_id": iid, "delta": d})
                item["arguments"] += d
            else:
                t = item["arguments"] if rng.random() < 0.5 else rtext(rng)
                emit({"type": "response.function_call_arguments.done", "output_index": i, "item_id": iid, "arguments": t})
                item["arguments"] = t
        else:
            parts = item.setdefault("_parts", {})
            if r < 0.3 or not parts:
                s = rng.choice([0, 1, 4, 99])
                t = rtext(rng)
                if s in parts and not t:
                    t = "k"  # an empty part over deltas keeps them (accumulate._summary_part): known rule
                part = {"type": "summary_text", "text": t}
                emit({"type": "response.reasoning_summary_part.added", "output_index": i, "item_id": iid, "summary_index": s, "part": part})
                parts[s] = copy.deepcopy(part)
            elif r < 0.85:
                s = rng.choice(list(parts))
                d = rtext(rng)
                emit({"type": "response.reasoning_summary_text.delta", "output_index": i, "item_id": iid, "summary_index": s, "delta": d})
                parts[s]["text"] += d
            else:
                s = rng.choice(list(parts))
                t = rtext(rng)
                emit({"type": "response.reasoning_summary_text.done", "output_index": i, "item_id": iid, "summary_index": s, "text": t})
                parts[s]["text"] = t
        if rng.random() < 0.05:
            # the item done, as the model has it (authoritative)
            done = {k: v for k, v in item.items() if k != "_parts"}
            if "_parts" in item:
                key = "content" if item["type"] == "message" else "summary"
                done[key] = [{k2: v2 for k2, v2 in item["_parts"][k].items() if k2 != "_d"} for k in sorted(item["_parts"])]
            done["status"] = "completed"
            emit({"type": "response.output_item.done", "output_index": i, "item": copy.deepcopy(done)})
            model[i] = copy.deepcopy(done)
            if key_of(done):
                model[i]["_parts"] = {n: p for n, p in enumerate(done[key_of(done)])}
                del model[i][key_of(done)]
    out = []
    for i in sorted(model):
        it = {k: v for k, v in model[i].items() if k != "_parts"}
        if "_parts" in model[i]:
            it[key_of_type(it["type"])] = [{k2: v2 for k2, v2 in model[i]["_parts"][k].items() if k2 != "_d"} for k in sorted(model[i]["_parts"])]
        out.append(it)
    return evs, out

def key_of(item):
    return {"message": "content", "reasoning": "summary"}.get(item["type"])

def key_of_type(t):
    return {"message": "content", "reasoning": "summary"}[t]

def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    bad = 0
    for it in range(n):
        evs, want = gen(rng)
        body = b"".join(b"data: " + json.dumps(e, ensure_ascii=rng.random() < 0.3).encode() + b"\n\n" for e in evs)
        for loads in (None, json.loads):
            for events in (True, False):
                for cname, ch in chunkings(body, random.Random(it)):
                    d = digest(sr.ResponsesStream, body, ch, events, loads)
                    got = d["snap"]["output"] if isinstance(d["snap"], dict) else d["snap"]
                    # the reference has no status changes but by .done; compare ignoring nothing
                    if d["err"] and d["err"][0] != "TruncatedStream":
                        msg = ("error", d["err"][:2])
                    elif json.dumps(got, sort_keys=True) != json.dumps(want, sort_keys=True):
                        msg = ("differs", firstdiff(want, got), d["diag"])
                    else:
                        continue
                    bad += 1
                    fn = f"/tmp/r4/model-{seed}-{it}.json"
                    json.dump(evs, open(fn, "w"))
                    print("BAD", fn, loads and "json" or "orjson", events, cname, repr(msg)[:700], flush=True)
                    break
                else:
                    continue
                break
    print("done", n, "bad", bad)
main()
