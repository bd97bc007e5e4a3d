"""Differential fuzz of the delta templates (tmpl): random Responses bodies whose deltas keep a
per-part layout and are edited at random (layout, escapes, types, sequence numbers, locators,
trailing data, ...). Writes a pickle of per-run digests; compare two with cmp_stream.py.

Usage: fuzz_tmpl.py OUT SEED N [DECODERS]   (DECODERS: comma list of stdlib,orjson; default both)
Env: LATE=1 also reads every event after the stream is dropped; STRICT=1 adds strict=True runs.
"""
import gc, json, os, pickle, random, sys
import sansio_responses as sr

def norm(x):
    return repr(x)

def ev_digest(e):
    d = [type(e).__name__]
    try: d.append(norm(e.to_dict()))
    except Exception as exc: d.append(("to_dict-err", type(exc).__name__, str(exc)[:200]))
    for attr in ("snapshot", "parsed", "logprobs", "delta", "sequence_number", "item_id", "output_index",
                 "content_index", "summary_index"):
        if hasattr(type(e), attr) or hasattr(e, attr):
            try: d.append((attr, norm(getattr(e, attr))))
            except Exception as exc: d.append((attr, "err", type(exc).__name__, str(exc)[:200]))
    return tuple(d)

def run(parts, events, loads, strict=False, read_late=False):
    kw = {"json_loads": json.loads} if loads == "stdlib" else {}
    if os.environ.get("MAXDEPTH"):
        kw["max_nesting_depth"] = int(os.environ["MAXDEPTH"])
    s = sr.ResponsesStream(events=events, strict=strict, **kw)
    out, evs = [], []
    err = None
    where = "feed"
    try:
        for p in parts:
            r = s.feed(p)
            evs += r
            if not read_late:
                out += [ev_digest(e) for e in r]
        where = "close"
        r = s.close(); evs += r
        if not read_late:
            out += [ev_digest(e) for e in r]
    except Exception as exc:
        err = (where, type(exc).__name__, str(exc)[:500], getattr(exc, "offset", None),
               getattr(exc, "sequence_number", None), len(getattr(exc, "events", []) or []))
        extra = getattr(exc, "events", None) or []
        if not read_late:
            out += [ev_digest(e) for e in extra]
        evs += extra
    try: snap = norm(s.snapshot().to_dict())
    except Exception as exc: snap = ("snap-err", type(exc).__name__, str(exc)[:200])
    res = [err, snap, getattr(s, "outcome", None), norm(dict(s.diagnostic_counts)), norm(list(s.diagnostics))]
    if read_late:
        del s; gc.collect()
        out = [ev_digest(e) for e in evs]
    if not os.environ.get("FULL"):  # compact: one hash of the events (re-run with FULL=1 to see them)
        import hashlib
        out = [hashlib.sha256(repr(out).encode("utf-8", "surrogatepass")).hexdigest()[:16], len(out)]
    return out, res

# ---------------------------------------------------------------------------------------------
TEXTS = ["a", "hello", " world", "é", "日本", "😀", "a\"b", "back\\slash", "line\nbreak", "tab\t", "/", "</",
         "\u2028", "\x7f", "\x00", "\x1f", "", " ", "{", "}", "\"", ",\"sequence_number\":5", "\",\"delta\":\"x"]

JTEXTS = ['{"a":', ' "x', 'y"', ', "b": [1, 2', ']}', '{', '}', '"é', '\\u00e9"', ' null', 'tr', 'ue', '1e', '5', '[', ']', ',', ':', '"\\"', '😀']

def dumps(v, rng=None, ascii_=None):
    if ascii_ is None:
        ascii_ = rng.random() < 0.2 if rng else False
    return json.dumps(v, ensure_ascii=ascii_)

ESC_EDITS = ["slash", "u_escape", "pair", "lone_hi", "lone_lo", "raw_ctl", "esc_nul", "big_u", "badesc"]

def str_lit(s, rng, edit=None):
    """A JSON string literal of s, maybe written differently (same value) or invalid."""
    lit = json.dumps(s, ensure_ascii=rng.random() < 0.15)
    if edit == "slash":
        lit = lit[:-1] + "\\/" + '"'
    elif edit == "u_escape":
        lit = lit[:-1] + "\\u0061" + '"'
    elif edit == "pair":
        lit = lit[:-1] + "\\ud83d\\ude00" + '"'
    elif edit == "lone_hi":
        lit = lit[:-1] + "\\ud800" + '"'
    elif edit == "lone_lo":
        lit = lit[:-1] + "\\udc00x" + '"'
    elif edit == "raw_ctl":
        lit = lit[:-1] + "\x01" + '"'  # invalid for strict json.loads
    elif edit == "esc_nul":
        lit = lit[:-1] + "\\u0000" + '"'
    elif edit == "big_u":
        lit = lit[:-1] + "\\u00E9\\U00e9" + '"'  # \U is invalid
    elif edit == "badesc":
        lit = lit[:-1] + "\\x" + '"'
    return lit

class Part:
    def __init__(self, kind, item_id, oi, ci=None, si=None, fields=None):
        self.kind, self.item_id, self.oi, self.ci, self.si = kind, item_id, oi, ci, si
        self.fields = fields  # ordered key list of its delta layout
        self.text = ""

def delta_payload(rng, part, seq, d, mutate):
    """The JSON text of a delta of part, with sequence number seq and delta d; mutate: the edit
    name or None. Returns (payload, event-line type or None for 'message')."""
    vals = {}
    for k in part.fields:
        if k == "type": vals[k] = json.dumps(part.kind)
        elif k == "item_id": vals[k] = json.dumps(part.item_id)
        elif k == "output_index": vals[k] = json.dumps(part.oi)
        elif k == "content_index": vals[k] = json.dumps(part.ci)
        elif k == "summary_index": vals[k] = json.dumps(part.si)
        elif k == "delta": vals[k] = str_lit(d, rng)
        elif k == "obfuscation": vals[k] = str_lit(rng.choice(["abc", "", "xYz0", "é"]), rng)
        elif k == "logprobs": vals[k] = "[]"
        elif k == "sequence_number": vals[k] = str(seq)
    keys = list(part.fields)
    sep_colon, sep_comma, lead, trail = ":", ",", "", ""
    etype = part.kind if rng.random() < 0.85 else None
    extra_tail = ""
    m = mutate
    if m == "swap" and len(keys) > 1:
        i, j = rng.sample(range(len(keys)), 2); keys[i], keys[j] = keys[j], keys[i]
    elif m == "space_colon": sep_colon = rng.choice([": ", " :", "\t:"])
    elif m == "space_comma": sep_comma = rng.choice([", ", " ,", ",\n"])
    elif m == "lead": lead = rng.choice([" ", "\t", "\n"])
    elif m == "trail": trail = rng.choice([" ", "\t", "\r"])
    elif m == "trailing_data": extra_tail = rng.choice(["}", "x", ",", "]", "{}", " 1", "\"", "\\"])
    elif m == "esc_key":
        k = rng.choice(keys)
        vals["__esc__" + k] = vals.pop(k); keys[keys.index(k)] = "__esc__" + k
    elif m == "dup_key":
        k = rng.choice(keys + ["delta", "sequence_number"])
        alt = {"delta": str_lit("DUP", rng), "sequence_number": str(seq), "item_id": json.dumps("other"),
               "output_index": "7", "content_index": "3", "type": json.dumps("response.other"),
               "obfuscation": "1", "logprobs": "[1]", "summary_index": "0"}.get(k, "null")
        pos = rng.randrange(len(keys) + 1)
        if rng.random() < 0.5: vals["__dup__" + k] = alt
        else: vals["__dup__" + k] = vals.get(k, alt)
        keys.insert(pos, "__dup__" + k)
    elif m in ("seq_skip", "seq_back", "seq_same", "seq_float", "seq_exp", "seq_str", "seq_bool",
               "seq_neg", "seq_lead0", "seq_huge", "seq_null", "seq_minus0"):
        vals["sequence_number"] = {
            "seq_skip": str(seq + 1), "seq_back": str(seq - 1), "seq_same": str(seq - 1),
            "seq_float": f"{seq}.0", "seq_exp": f"{seq}e0", "seq_str": f"\"{seq}\"", "seq_bool": "true",
            "seq_neg": f"-{seq}", "seq_lead0": f"0{seq}", "seq_huge": "9" * 40, "seq_null": "null",
            "seq_minus0": "-0"}[m]
        if "sequence_number" not in keys: keys.append("sequence_number")
    elif m in ("oi_float", "oi_bool", "oi_str", "oi_other", "oi_null", "oi_nan", "oi_inf", "oi_huge", "oi_exp"):
        k = rng.choice(["output_index", "content_index", "summary_index"])
        cur = {"output_index": part.oi, "content_index": part.ci, "summary_index": part.si}[k]
        cur = cur if isinstance(cur, int) else 0
        vals[k] = {"oi_float": f"{cur}.0", "oi_bool": "true" if cur == 1 else "false" if cur == 0 else "true",
                   "oi_str": f"\"{cur}\"", "oi_other": str(cur + 1), "oi_null": "null", "oi_nan": "NaN",
                   "oi_inf": "-Infinity", "oi_huge": "1" + "0" * 30, "oi_exp": f"{cur}E0"}[m]
        if k not in keys: keys.insert(rng.randrange(len(keys) + 1), k)
    elif m == "item_other":
        vals["item_id"] = json.dumps(rng.choice(["msg_x", "", None, 5, "msg_1\u00e9"]))
        if "item_id" not in keys: keys.insert(0, "item_id")
    elif m == "item_esc":
        if isinstance(part.item_id, str) and part.item_id:
            vals["item_id"] = '"\\u%04x' % ord(part.item_id[0]) + json.dumps(part.item_id)[2:]
    elif m == "type_other":
        vals["type"] = json.dumps(rng.choice(["response.output_text.delta", "response.reasoning_summary_text.delta",
                                              "response.function_call_arguments.delta", "response.refusal.delta",
                                              "response.output_text.done", "response.unknown.delta"]))
    elif m == "event_name":
        etype = rng.choice(["message", "response.output_text.delta", "response.refusal.delta", "x", "ping"])
    elif m in ESC_EDITS:
        k = "delta" if rng.random() < 0.7 or "obfuscation" not in keys else "obfuscation"
        vals[k] = str_lit(d if k == "delta" else "ob", rng, m)
    elif m == "delta_type":
        vals["delta"] = rng.choice(["1", "1.5", "null", "true", "[]", "{}", "[\"a\"]", "{\"a\":\"b\"}", "NaN", "[[[[]]]]"])
    elif m == "obf_type":
        vals["obfuscation"] = rng.choice(["1", "null", "[]", "{\"x\":1}", "false"])
        if "obfuscation" not in keys: keys.insert(rng.randrange(len(keys) + 1), "obfuscation")
    elif m == "drop_field":
        keys.remove(rng.choice(keys))
    elif m == "extra_field":
        name = rng.choice(["annotations", "x", "logprobs", "obfuscation", "delta2", "summary_index", "content_index", "sequence"])
        if name in keys:
            name = name + "_"
        vals[name] = rng.choice(["[]", "null", "1", "\"s\"", "{}", "NaN", "[{\"a\":1}]"])
        keys.insert(rng.randrange(len(keys) + 1), name)
    elif m == "logprobs":
        if "logprobs" not in keys: keys.append("logprobs")
        vals["logprobs"] = rng.choice(["[{\"token\":\"a\",\"bytes\":[97],\"logprob\":-0.1,\"top_logprobs\":[]}]",
                                       "null", "{}", "[ ]", "[1]", "\"\"", "[[]]"])
    elif m == "truncate":
        pass
    elif m == "nested_delta":
        vals["delta"] = "{\"delta\":" + str_lit(d, rng) + "}"
    def klit(k):
        name = k.replace("__esc__", "").replace("__dup__", "")
        if k.startswith("__esc__"):
            return '"\\u%04x' % ord(name[0]) + name[1:] + '"'
        return json.dumps(name)
    out = lead + "{" + sep_comma.join(klit(k) + sep_colon + vals.get(k, "null") for k in keys) + "}" + extra_tail + trail
    if m == "truncate":
        out = out[: rng.randrange(1, len(out))]
    return out, etype

MUTS = (["swap", "space_colon", "space_comma", "lead", "trail", "trailing_data", "esc_key", "dup_key",
         "seq_skip", "seq_back", "seq_same", "seq_float", "seq_exp", "seq_str", "seq_bool", "seq_neg",
         "seq_lead0", "seq_huge", "seq_null", "seq_minus0",
         "oi_float", "oi_bool", "oi_str", "oi_other", "oi_null", "oi_nan", "oi_inf", "oi_huge", "oi_exp",
         "item_other", "item_esc", "type_other", "event_name", "delta_type", "obf_type", "drop_field",
         "extra_field", "logprobs", "truncate", "nested_delta"] + ESC_EDITS)

def sse(etype, payload):
    head = f"event: {etype}\n" if etype else ""
    return (head + "data: " + payload + "\n\n").encode("utf-8", "surrogatepass")

def body(rng):
    """A random stream: a created event, then items (messages with 1-3 text parts, reasoning with
    summaries, function calls, refusals), deltas interleaved between parts, edits at random."""
    rate = rng.choice([0.0, 0.02, 0.08, 0.25])
    seq = rng.choice([0, 0, 1, 5, 10**18, 10**30])
    blocks = []
    def add(obj, etype="auto"):
        nonlocal seq
        obj["sequence_number"] = seq
        seq += 1
        blocks.append(sse(obj["type"] if etype == "auto" else etype, json.dumps(obj, separators=(",", ":"), ensure_ascii=False)))
    created = {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}
    if os.environ.get("STRUCT"):  # structured output: the text parts tracked as partial JSON
        created["text"] = {"format": {"type": rng.choice(["json_object", "json_schema"])}}
    add({"type": "response.created", "response": created})
    add({"type": "response.in_progress", "response": {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}})
    parts = []
    items = []
    nitems = rng.randint(1, 4)
    def layout(kind, has_ci, has_si):
        keys = ["type", "item_id", "output_index"]
        if has_ci: keys.append("content_index")
        if has_si: keys.append("summary_index")
        keys.append("delta")
        if kind == "response.output_text.delta" or rng.random() < 0.1: keys.append("logprobs")
        if rng.random() < 0.7: keys.append("obfuscation")
        keys.append("sequence_number")
        style = rng.choice(["api", "api", "alpha", "shuffle", "seqfirst", "seqmid"])
        if style == "alpha": keys.sort()
        elif style == "shuffle": rng.shuffle(keys)
        elif style == "seqfirst": keys.remove("sequence_number"); keys.insert(0, "sequence_number")
        elif style == "seqmid" and "obfuscation" in keys:
            keys.remove("sequence_number"); keys.insert(keys.index("obfuscation"), "sequence_number")
        return keys
    for oi in range(nitems):
        which = rng.choice(["message", "message", "reasoning", "function_call", "refusal"])
        iid = rng.choice([f"msg_{oi}", f"it_{oi}é", f"x{oi}"]) if which != "function_call" else f"fc_{oi}"
        if which == "message" or which == "refusal":
            item = {"id": iid, "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
            add({"type": "response.output_item.added", "output_index": oi, "item": item})
            for ci in range(rng.randint(1, 3) if which == "message" else 1):
                ptype = "output_text" if which == "message" else "refusal"
                part = {"type": ptype, "annotations": [], "text": ""} if ptype == "output_text" else {"type": "refusal", "refusal": ""}
                add({"type": "response.content_part.added", "item_id": iid, "output_index": oi, "content_index": ci, "part": part})
                kind = "response.output_text.delta" if which == "message" else "response.refusal.delta"
                parts.append(Part(kind, iid, oi, ci, None, layout(kind, True, False)))
        elif which == "reasoning":
            item = {"id": iid, "type": "reasoning", "summary": []}
            add({"type": "response.output_item.added", "output_index": oi, "item": item})
            for si in range(rng.randint(1, 2)):
                add({"type": "response.reasoning_summary_part.added", "item_id": iid, "output_index": oi, "summary_index": si,
                     "part": {"type": "summary_text", "text": ""}})
                kind = "response.reasoning_summary_text.delta"
                parts.append(Part(kind, iid, oi, None, si, layout(kind, False, True)))
        else:
            item = {"id": iid, "type": "function_call", "call_id": "c", "name": "f", "arguments": "", "status": "in_progress"}
            add({"type": "response.output_item.added", "output_index": oi, "item": item})
            kind = "response.function_call_arguments.delta"
            parts.append(Part(kind, iid, oi, None, None, layout(kind, False, False)))
        items.append(item)
    # deltas: runs on one part, then switch (sometimes back to an earlier one)
    n = rng.randint(5, 80)
    cur = parts[0]
    for _ in range(n):
        if rng.random() < 0.15:
            cur = rng.choice(parts)
        if rng.random() < 0.03:
            blocks.append(b": keep-alive\n\n")
        if rng.random() < 0.03:
            # a non-delta event between deltas of one part
            add({"type": rng.choice(["response.in_progress", "response.queued"]), "response": {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}})
        d = rng.choice(JTEXTS if os.environ.get("STRUCT") else TEXTS) + rng.choice(JTEXTS if os.environ.get("STRUCT") else TEXTS)
        m = rng.choice(MUTS) if rng.random() < rate else None
        payload, etype = delta_payload(rng, cur, seq, d, m)
        if m not in ("seq_skip", "seq_back", "seq_same", "seq_huge"):
            pass
        seq += 1
        if m == "seq_back" and rng.random() < 0.5:
            seq -= 1  # the next one repeats
        blocks.append(sse(etype, payload))
        try:
            o = json.loads(payload)
            if isinstance(o, dict) and isinstance(o.get("delta"), str):
                cur.text += o["delta"]
        except Exception:
            pass
    if rng.random() < 0.85:
        # done events for the items, then completed
        output = []
        for oi, item in enumerate(items):
            fin = dict(item, status="completed")
            if item["type"] == "message":
                fin["content"] = [({"type": "output_text", "annotations": [], "text": p.text} if p.kind == "response.output_text.delta"
                                   else {"type": "refusal", "refusal": p.text}) for p in parts if p.oi == oi]
            elif item["type"] == "reasoning":
                fin["summary"] = [{"type": "summary_text", "text": p.text} for p in parts if p.oi == oi]
            else:
                fin["arguments"] = "".join(p.text for p in parts if p.oi == oi)
            if rng.random() < 0.9:
                add({"type": "response.output_item.done", "output_index": oi, "item": fin})
            output.append(fin)
        term = rng.choice(["response.completed"] * 6 + ["response.incomplete", "response.failed"])
        add({"type": term, "response": {"id": "resp_1", "object": "response", "status": term.split(".")[1], "output": output}})
    b = b"".join(blocks)
    if rng.random() < 0.05:
        b = b[:-2]
    return b

def chunkings(rng, body):
    yield "whole", [body]
    if len(body) < 6000 and rng.random() < 0.5:
        yield "bytes", [body[i:i + 1] for i in range(len(body))]
    cuts = sorted(rng.randint(0, len(body)) for _ in range(rng.randint(1, 30)))
    parts, last = [], 0
    for c in cuts: parts.append(body[last:c]); last = c
    parts.append(body[last:])
    yield "rand", parts
    # block by block (each feed ends a block: templates carried across feed calls)
    yield "blocks", [x + b"\n\n" for x in body.split(b"\n\n")[:-1]] + ([body.split(b"\n\n")[-1]] if body.split(b"\n\n")[-1] else [])

def main():
    outp, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    decs = (sys.argv[4] if len(sys.argv) > 4 else "stdlib,orjson").split(",")
    rng = random.Random(seed)
    res = []
    for i in range(n):
        b = body(rng)
        crng = random.Random(seed * 1000003 + i)
        for cname, parts in chunkings(crng, b):
            for dec in decs:
                for events in (True, False):
                    res.append(((i, cname, dec, events), run(parts, events, dec)))
                if cname == "whole" and os.environ.get("LATE"):
                    res.append(((i, cname, dec, "late"), run(parts, True, dec, read_late=True)))
                if cname == "whole" and os.environ.get("STRICT"):
                    res.append(((i, cname, dec, "strict"), run(parts, True, dec, strict=True)))
    pickle.dump(res, open(outp, "wb"))
    print(len(res), "runs", file=sys.stderr)

if __name__ == "__main__":
    main()
