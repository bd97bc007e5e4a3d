"""Real recordings (Responses only: tests/data/real), whole or with their delta payloads edited
(regex edits of the wire text: sequence numbers, spaces, escapes, types, extra/duplicate fields,
logprobs), each at several chunkings, with the stdlib decoder (templates) and orjson.

Usage: real_diff.py OUT MODE SEED [NMUT]   (MODE: real | mut)
"""
import glob, os, pickle, random, re, sys
sys.path.insert(0, "/work/notes/review2")
from fuzz_tmpl import run

EDITS = [
    ("seq+1", lambda p, r: re.sub(r'"sequence_number":(\d+)', lambda m: f'"sequence_number":{int(m[1]) + 1}', p)),
    ("seq-1", lambda p, r: re.sub(r'"sequence_number":(\d+)', lambda m: f'"sequence_number":{int(m[1]) - 1}', p)),
    ("seq.0", lambda p, r: re.sub(r'"sequence_number":(\d+)', r'"sequence_number":\1.0', p)),
    ("seqstr", lambda p, r: re.sub(r'"sequence_number":(\d+)', r'"sequence_number":"\1"', p)),
    ("space:", lambda p, r: p.replace('":', '": ', 1)),
    ("space,", lambda p, r: p.replace(',"', ', "', 1)),
    ("lead", lambda p, r: " " + p),
    ("trail", lambda p, r: p + " "),
    ("junk", lambda p, r: p + r.choice(["}", "x", ",1", "\\"])),
    ("slash", lambda p, r: p.replace('"delta":"', '"delta":"\\/', 1)),
    ("uesc", lambda p, r: p.replace('"delta":"', '"delta":"\\u00e9', 1)),
    ("lone", lambda p, r: p.replace('"delta":"', '"delta":"\\ud83d', 1)),
    ("ctl", lambda p, r: p.replace('"delta":"', '"delta":"\x01', 1)),
    ("esckey", lambda p, r: p.replace('"delta":', '"d\\u0065lta":', 1)),
    ("dupdelta", lambda p, r: p.replace('"delta":', '"delta":"dup","delta":', 1)),
    ("dupseq", lambda p, r: p.replace('{', '{"sequence_number":0,', 1)),
    ("oi.0", lambda p, r: p.replace('"output_index":0', '"output_index":0.0', 1)),
    ("oitrue", lambda p, r: p.replace('"output_index":1', '"output_index":true', 1).replace('"content_index":0', '"content_index":false', 1)),
    ("ci+1", lambda p, r: re.sub(r'"content_index":(\d+)', lambda m: f'"content_index":{int(m[1]) + 1}', p, count=1)),
    ("item", lambda p, r: re.sub(r'"item_id":"([^"]*)"', r'"item_id":"\1x"', p, count=1)),
    ("itemesc", lambda p, r: re.sub(r'"item_id":"(.)', lambda m: '"item_id":"\\u%04x' % ord(m[1]), p, count=1)),
    ("extra", lambda p, r: p[:-1] + ',"x":1}' if p.endswith("}") else p),
    ("nan", lambda p, r: p[:-1] + ',"x":NaN}' if p.endswith("}") else p),
    ("noobf", lambda p, r: re.sub(r',"obfuscation":"[^"]*"', "", p)),
    ("obfnum", lambda p, r: re.sub(r'"obfuscation":"[^"]*"', '"obfuscation":12', p)),
    ("lp", lambda p, r: p.replace('"logprobs":[]', '"logprobs":[{"token":"a","bytes":[97],"logprob":-0.5,"top_logprobs":[]}]', 1)),
    ("lpnull", lambda p, r: p.replace('"logprobs":[]', '"logprobs":null', 1)),
    ("nolp", lambda p, r: p.replace(',"logprobs":[]', '', 1)),
    ("deltanum", lambda p, r: re.sub(r'"delta":"(?:[^"\\]|\\.)*"', '"delta":5', p, count=1)),
    ("deltaobj", lambda p, r: re.sub(r'"delta":"((?:[^"\\]|\\.)*)"', r'"delta":{"t":"\1"}', p, count=1)),
    ("type", lambda p, r: p.replace('.delta"', '.done"', 1)),
    ("trunc", lambda p, r: p[: r.randrange(1, max(2, len(p)))]),
]

def mutate(rng, body, rate):
    blocks = body.split(b"\n\n")
    ops = []
    for i, blk in enumerate(blocks):
        if b'.delta"' not in blk or rng.random() >= rate:
            continue
        lines = blk.split(b"\n")
        for j, line in enumerate(lines):
            if line.startswith(b"data: "):
                name, fn = rng.choice(EDITS)
                p = line[6:].decode("utf-8", "surrogatepass")
                lines[j] = b"data: " + fn(p, rng).encode("utf-8", "surrogatepass")
                ops.append(name)
            elif line.startswith(b"event: ") and rng.random() < 0.05:
                lines[j] = b"event: message"
        blocks[i] = b"\n".join(lines)
    return b"\n\n".join(blocks), ops

def chunkings(rng, body):
    yield "whole", [body]
    if len(body) < 40_000:
        yield "bytes", [body[i:i + 1] for i in range(len(body))]
    cuts = sorted(rng.randint(0, len(body)) for _ in range(rng.randint(1, 40)))
    parts, last = [], 0
    for c in cuts: parts.append(body[last:c]); last = c
    parts.append(body[last:])
    yield "rand", parts
    k = rng.choice([7, 64, 1000, 4096])
    yield f"fixed{k}", [body[i:i + k] for i in range(0, len(body), k)]

def main():
    outp, mode, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    nmut = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    rng = random.Random(seed)
    files = sorted(f for f in glob.glob("/work/wt-before/tests/data/real/*.sse")
                   if not os.path.basename(f).startswith("chat"))
    res = []
    for f in files:
        body = open(f, "rb").read()
        cases = [(os.path.basename(f), body)] if mode == "real" else []
        if mode == "mut":
            for k in range(nmut):
                mb, ops = mutate(rng, body, rng.choice([0.02, 0.1, 0.3]))
                cases.append((os.path.basename(f) + "|" + ",".join(ops[:20]), mb))
        for name, b in cases:
            for cname, parts in chunkings(rng, b):
                if mode == "mut" and cname == "bytes" and len(b) > 8000:
                    continue
                for dec in ("stdlib", "orjson"):
                    for events in (True, False):
                        res.append(((name, cname, dec, events), run(parts, events, dec)))
                    if cname == "whole":
                        res.append(((name, cname, dec, "late"), run(parts, True, dec, read_late=True)))
    pickle.dump(res, open(outp, "wb"))
    print(len(res), "runs", file=sys.stderr)

if __name__ == "__main__":
    main()
