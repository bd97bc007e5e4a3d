"""Differential fuzz of the typed models and events: NEW vs OLD from_dict / parse_event.

Usage: model_fuzz.py SEED ROUNDS
For every model class (models.py: every attrs class with from_dict) and every registered event
class: base dicts from the corpus (tests/data/real + bench/generate.py, every object with that
`type`) or synthesised from the annotations; then every declared field (and nested paths) set to
odd JSON/Python values (bool for int, float for int, nested lists, None, str/int/dict subclasses,
Mapping non-dicts, tuples), the type removed or changed, unknown fields added, fields deleted; the
whole dict passed as OrderedDict / MappingProxyType / a custom Mapping / UserDict; a path
argument; a subclass of the class. Compared: result (class name, repr, to_dict, extra, each
field's repr and class, ==, hash outcome, whether the input dict is kept as _raw, whether the
input was mutated) or the error (type, message, path, expected, got identity)."""
import collections, copy, glob, json, os, random, sys, types
from collections.abc import Mapping
sys.path.insert(0, "/work/notes/review3")
from dual import N, B, sub, norm
import attrs

sys.path.insert(0, "/work/wt-before/bench")
import generate as G

MN, MB = sub(N, "_responses.models"), sub(B, "_responses.models")
EN, EB = sub(N, "_responses.events"), sub(B, "_responses.events")


class MyStr(str):
    pass


class MyInt(int):
    pass


class MyFloat(float):
    pass


class MyDict(dict):
    pass


class MyList(list):
    pass


class CustomMapping(Mapping):
    def __init__(self, d):
        self._d = dict(d)

    def __getitem__(self, k):
        return self._d[k]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __repr__(self):
        return f"CustomMapping({self._d!r})"


ODD = [True, False, 0, 1, -1, 2**70, 1.0, 1.5, -0.0, float("nan"), float("inf"), "", "s", "\ud800",
       None, [], {}, [[1]], [None], ["x"], [1, "x"], {"a": {}}, {"type": "message"}, {"type": None},
       (), ("x",), MyStr("s"), MyInt(3), MyFloat(2.5), MyDict(), MyList(["x"]), b"x",
       "output_text", "message", "function_call", "url_citation"]


def dcopy(x):
    c = x.__class__
    if c is dict:
        return {k: dcopy(v) for k, v in x.items()}
    if c is list:
        return [dcopy(v) for v in x]
    if c is tuple:
        return tuple(dcopy(v) for v in x)
    if c is MyList:
        return MyList(dcopy(v) for v in x)
    if c is MyDict:
        return MyDict({k: dcopy(v) for k, v in x.items()})
    if c is collections.OrderedDict:
        return collections.OrderedDict((k, dcopy(v)) for k, v in x.items())
    if c is types.MappingProxyType:
        return types.MappingProxyType({k: dcopy(v) for k, v in x.items()})
    if c is CustomMapping:
        return CustomMapping({k: dcopy(v) for k, v in x.items()})
    if c is collections.UserDict:
        return collections.UserDict({k: dcopy(v) for k, v in x.items()})
    return x


def wrap_mapping(d, how):
    if how == "ordered":
        return collections.OrderedDict(d)
    if how == "proxy":
        return types.MappingProxyType(dict(d))
    if how == "custom":
        return CustomMapping(d)
    if how == "user":
        return collections.UserDict(d)
    if how == "mydict":
        return MyDict(d)
    return d


def classes(models):
    out = {}
    for name in dir(models):
        c = getattr(models, name)
        if isinstance(c, type) and attrs.has(c) and hasattr(c, "from_dict") and not name.startswith("_"):
            out[name] = c
    return out


CN, CB = classes(MN), classes(MB)
assert sorted(CN) == sorted(CB), set(CN) ^ set(CB)


def collect_corpus():
    """type -> list of example dicts (events, items, parts, annotations, responses, usage...)"""
    by_type = collections.defaultdict(list)
    by_key = collections.defaultdict(list)   # parent key -> dicts (usage, error, ...)

    def walk(o, key=None):
        if isinstance(o, dict):
            t = o.get("type")
            if isinstance(t, str) and len(by_type[t]) < 6:
                by_type[t].append(o)
            if key is not None and len(by_key[key]) < 6:
                by_key[key].append(o)
            for k, v in o.items():
                walk(v, k)
        elif isinstance(o, list):
            for v in o:
                walk(v, key)

    bodies = [open(f, "rb").read() for f in sorted(glob.glob("/work/wt-before/tests/data/real/responses-*.sse"))]
    for name in sorted(G.SCENARIOS):
        if G.SCENARIOS[name][0] == "responses":
            bodies.append(G.generate(name, 20, seed=1).data)
    for body in bodies:
        for line in body.split(b"\n"):
            if line.startswith(b"data: "):
                try:
                    walk(json.loads(line[6:]))
                except ValueError:
                    pass
    return by_type, by_key


def fields_of(cls):
    return [f for f in attrs.fields(cls) if not f.name.startswith("_") and f.init]


def synth_value(ann, rng):
    ann = ann if isinstance(ann, str) else repr(ann)
    if ann.startswith("Literal["):
        return ann[len("Literal[") + 1:-2]
    base = ann.replace(" | None", "")
    return {
        "str": "x", "int": 3, "float": 1.5, "bool": True, "dict[str, Any]": {"k": 1},
        "list[str]": ["a", "b"], "Any": rng.choice([None, 1, "x", [1], {"a": 1}]),
        "list[OutputItem]": [{"type": "message", "id": "m", "content": [{"type": "output_text", "text": "hi", "annotations": []}]}],
        "list[ContentPart]": [{"type": "output_text", "text": "hi", "annotations": [{"type": "url_citation", "url": "u"}]}],
        "list[Annotation]": [{"type": "file_citation", "file_id": "f", "index": 1}],
        "ResponseError": {"code": "c", "message": "m"},
        "IncompleteDetails": {"reason": "max_output_tokens"},
        "ResponseUsage": {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0},
                          "output_tokens": 2, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 3},
        "InputTokensDetails": {"cached_tokens": 0}, "OutputTokensDetails": {"reasoning_tokens": 1},
        "str | int": "code", "list[Any]": [1], "Response": {"id": "r", "object": "response", "output": []},
        "OutputItem": {"type": "message", "id": "m", "content": []},
        "ContentPart": {"type": "output_text", "text": "t", "annotations": []},
        "Annotation": {"type": "url_citation", "url": "u"},
    }.get(base, "x")


def synth(cls, rng, tag=None):
    d = {}
    for f in fields_of(cls):
        if rng.random() < 0.85:
            d[f.name] = synth_value(f.type, rng)
    if tag is not None:
        d["type"] = tag
    return d


# -------------------------------------------------------------------------------------------
def deep_norm(v):
    return norm(repr(v))


def describe(obj, inp_before, inp):
    rec = [type(obj).__name__, norm(repr(obj))]
    for what in ("to_dict", "extra"):
        try:
            v = getattr(obj, what)
            rec.append(deep_norm(v() if callable(v) else v))
        except Exception as e:
            rec.append((what + "-err", type(e).__name__, norm(str(e))))
    for f in attrs.fields(type(obj)):
        if f.name.startswith("_") and f.name not in ("_raw", "_data"):
            continue
        try:
            v = getattr(obj, f.name)
            rec.append((f.name, type(v).__name__, deep_norm(v)))
            if isinstance(v, list):
                rec.append([type(x).__name__ for x in v])
        except Exception as e:
            rec.append((f.name, "err", type(e).__name__, norm(str(e))))
    for prop in ("output_text", "data", "id", "stream_id", "snapshot", "parsed"):
        if isinstance(getattr(type(obj), prop, None), property):
            try:
                rec.append((prop, deep_norm(getattr(obj, prop))))
            except Exception as e:
                rec.append((prop, "err", type(e).__name__, norm(str(e))))
    raw = getattr(obj, "_raw", getattr(obj, "_data", None))
    rec.append(("raw-is-input", raw is inp, type(raw).__name__))
    rec.append(("input-mutated", deep_norm(inp) != inp_before))
    try:
        rec.append(("eq", obj == obj, obj == copy.copy(obj), obj != 5))
    except Exception as e:
        rec.append(("eq-err", type(e).__name__, norm(str(e))))
    try:
        hash(obj); rec.append("hashable")
    except Exception as e:
        rec.append(("hash-err", type(e).__name__, norm(str(e))))
    try:
        object.__setattr__  # frozen check
        setattr(obj, fields_of(type(obj))[0].name if fields_of(type(obj)) else "type", 1)
        rec.append("mutable!")
    except Exception as e:
        rec.append(("frozen", type(e).__name__))
    return rec


def call(fn, inp):
    before = deep_norm(inp)
    try:
        obj = fn(inp)
    except RecursionError:
        return ("recursion",)
    except Exception as e:
        got = getattr(e, "got", None)
        return ("err", type(e).__name__, norm(str(e)), getattr(e, "path", None), getattr(e, "expected", None),
                deep_norm(got), type(got).__name__, deep_norm(inp) != before)
    return ("ok", describe(obj, before, inp))


def variants(rng, base, cls):
    """(label, dict) variants of base: every field odd, deleted, the type changed..."""
    fs = [f.name for f in fields_of(cls)]
    keys = list(dict.fromkeys(fs + list(base)))
    yield "base", dcopy(base)
    for k in keys:
        for v in rng.sample(ODD, 6):
            d = dcopy(base); d[k] = dcopy(v); yield f"set {k}={v!r}", d
        if k in base:
            d = dcopy(base); del d[k]; yield f"del {k}", d
    d = dcopy(base); d["zz_new"] = {"x": [1]}; yield "unknown", d
    # two bad fields: the first in field order must be the one reported
    if len(fs) >= 2:
        a, b = rng.sample(fs, 2)
        d = dcopy(base); d[a] = rng.choice([True, [], {}, 1.5]); d[b] = rng.choice([True, [], {}, 1.5, "s"])
        yield f"two {a},{b}", d
    # nested paths
    def paths(o, pre=()):
        if isinstance(o, dict):
            for k, v in o.items():
                yield pre + (k,); yield from paths(v, pre + (k,))
        elif isinstance(o, list):
            for i, v in enumerate(o):
                yield pre + (i,); yield from paths(v, pre + (i,))
    ps = [p for p in paths(base) if len(p) > 1]
    for p in rng.sample(ps, min(len(ps), 25)):
        d = dcopy(base)
        t = d
        for k in p[:-1]:
            t = t[k]
        r = rng.random()
        if r < 0.15 and isinstance(t, dict):
            del t[p[-1]]
        elif r < 0.3 and isinstance(t[p[-1]], dict):
            t[p[-1]] = wrap_mapping(t[p[-1]], rng.choice(["ordered", "proxy", "custom", "user", "mydict"]))
        elif r < 0.35 and isinstance(t[p[-1]], list):
            t[p[-1]] = tuple(t[p[-1]]) if rng.random() < .5 else MyList(t[p[-1]])
        else:
            t[p[-1]] = dcopy(rng.choice(ODD))
        yield f"nested {p}", d


def pairs(cls_name, by_type, by_key, rng):
    cn = CN[cls_name]
    tagf = [f for f in fields_of(cn) if (f.type if isinstance(f.type, str) else "").startswith("Literal[")]
    tag = tagf[0].type[len("Literal[") + 1:-2] if tagf else None
    bases = []
    if tag is not None:
        bases += by_type.get(tag, [])[:3]
    keymap = {"Response": "response", "ResponseUsage": "usage", "ResponseError": "error",
              "IncompleteDetails": "incomplete_details", "InputTokensDetails": "input_tokens_details",
              "OutputTokensDetails": "output_tokens_details"}
    if cls_name in keymap:
        bases += [x for x in by_key.get(keymap[cls_name], []) if isinstance(x, dict)][:3]
    bases.append(synth(cn, rng, tag))
    return bases


def main():
    seed, rounds = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    by_type, by_key = collect_corpus()
    runs = diffs = 0

    def cmp(label, fa, fb, inp_a, inp_b):
        nonlocal runs, diffs
        ra, rb = call(fa, inp_a), call(fb, inp_b)
        runs += 1
        if ra != rb:
            diffs += 1
            if diffs <= 12:
                print("DIFF", label)
                if ra[0] != rb[0] or ra[0] == "err":
                    print("   new", repr(ra)[:600]); print("   old", repr(rb)[:600])
                else:
                    for x, y in zip(ra[1], rb[1]):
                        if x != y:
                            print("   new", repr(x)[:600]); print("   old", repr(y)[:600]); break

    for _ in range(rounds):
        # models
        for name in sorted(CN):
            for base in pairs(name, by_type, by_key, rng):
                for label, d in variants(rng, base, CN[name]):
                    for how in (["plain"] + [rng.choice(["ordered", "proxy", "custom", "user", "mydict"])]):
                        path = rng.choice(["", "", "output[3]", "response"])
                        da, db = dcopy(d), dcopy(d)
                        cmp(f"{name}.from_dict {label} as {how} path={path!r}",
                            lambda x, p=path: CN[name].from_dict(x, p) if p else CN[name].from_dict(x),
                            lambda x, p=path: CB[name].from_dict(x, p) if p else CB[name].from_dict(x),
                            wrap_mapping(da, how), wrap_mapping(db, how))
                    # the dispatchers
                    for fn in ("output_item_from_dict", "content_part_from_dict", "annotation_from_dict"):
                        da, db = dcopy(d), dcopy(d)
                        cmp(f"{fn} of {name} {label}", getattr(MN, fn), getattr(MB, fn), da, db)
            # not-a-mapping inputs
            for v in rng.sample(ODD, 5):
                cmp(f"{name}.from_dict odd root {v!r}", CN[name].from_dict, CB[name].from_dict, dcopy(v), dcopy(v))
            # a subclass of the model
            try:
                subn = attrs.frozen(type("Sub" + name, (CN[name],), {}))
                subb = attrs.frozen(type("Sub" + name, (CB[name],), {}))
                base = pairs(name, by_type, by_key, rng)[0]
                cmp(f"subclass of {name}", subn.from_dict, subb.from_dict, dcopy(base), dcopy(base))
            except Exception as e:
                print("subclass setup failed", name, type(e).__name__, e)
        # events
        for etype in sorted(EN.EVENT_TYPES):
            cn = EN.EVENT_TYPES[etype]
            bases = by_type.get(etype, [])[:3] + [dict(synth(cn, rng, etype), sequence_number=rng.choice([1, 0, None]))]
            for base in bases:
                for label, d in variants(rng, base, cn):
                    for k in ("sequence_number", "type"):
                        pass
                    da, db = dcopy(d), dcopy(d)
                    cmp(f"parse_event {etype} {label}", EN.parse_event, EB.parse_event, da, db)
                for v in rng.sample(ODD, 4):
                    for k in ("sequence_number", "type", "stream_id"):
                        d = dcopy(base); d[k] = dcopy(v)
                        cmp(f"parse_event {etype} {k}={v!r}", EN.parse_event, EB.parse_event, dcopy(d), dcopy(d))
    print(f"model_fuzz seed={seed} rounds={rounds} runs={runs} differ={diffs}")


if __name__ == "__main__":
    main()
