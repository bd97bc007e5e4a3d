"""Deliberate mistakes in the generated constructors: each applied, tests/test_fromdict.py run, reverted."""
import subprocess, sys
TREE = "/work/wt-model"
F = "sansio_responses/_responses/fromdict.py"
E = "sansio_responses/_responses/events.py"
M = "sansio_responses/_responses/models.py"
MUTS = [
    ("str: no isinstance fallback (a str subclass refused)", F,
     '"{v}.__class__ is not str and not isinstance({v}, str)"', '"{v}.__class__ is not str"'),
    ("int: isinstance (a bool accepted)", F, '"{v}.__class__ is not int", "integer"', '"not isinstance({v}, int)", "integer"'),
    ("num: float missing", F, '"{v}.__class__ is not int and {v}.__class__ is not float"', '"{v}.__class__ is not int"'),
    ("bool: int accepted", F, '"{v}.__class__ is not bool"', '"{v}.__class__ is not bool and {v}.__class__ is not int"'),
    ("dict: wrong expected text", F, '"dict": ("{v}.__class__ is not dict", "object")', '"dict": ("{v}.__class__ is not dict", "dict")'),
    ("required str/tag: null accepted", F, "                out(f\"{pad}if {v} is None:\")\n                out(f\"{pad}    raise SchemaError({where}, 'string', {v})\")\n", ""),
    ("tag: expected text 'string' instead of repr(tag)", F, "{repr(kind[1])!r}, {v})", "'string', {v})"),
    ("tag: the wire value kept, not the tag constant", F, '                out(f"{pad}{v} = {tag}")\n', ""),
    ("nested: error path without the parent", F, 'self.model(kind[1], v, f"o{depth + 1}", where, depth + 1', 'self.model(kind[1], v, f"o{depth + 1}", path, depth + 1'),
    ("nested: a non-dict mapping refused", F, 'out(f"{pad}        {v} = {inner}.from_dict({v}, {where})")', 'out(f"{pad}        raise SchemaError({where}, \'object\', {v})")'),
    ("nested: not inlined below depth 1 (calls)", F, "_INLINE_DEPTH = 3", "_INLINE_DEPTH = 1"),
    ("list: indices from 1", F, "for i, x in enumerate({v}):", "for i, x in enumerate({v}, 1):"),
    ("list: unknown type not defaulted", F, ".get(k, {unknown}).from_dict(x, p))", ".get(k).from_dict(x, p))"),
    ("list: a non-list accepted", F, 'out(f"{pad}    if {v}.__class__ is not list:")', 'out(f"{pad}    if {v}.__class__ is str:")'),
    ("fields in reverse order", F, "        for name, kind in self.kinds(cls):", "        for name, kind in reversed(self.kinds(cls)):"),
    ("_raw not kept", F, '        out(f"{pad}{obj}._raw = {d}")\n', '        out(f"{pad}{obj}._raw = dict({d})")\n'),
    ("the twin class left", F, '        out(f"{pad}{obj}.__class__ = {self.ref(cls)}")\n', ""),
    ("a Mapping not copied into a dict", F, '"        d = dict(d)",', '"        pass",'),
    ("a subclass built as the base class", F, '"    if cls is not _cls:",\n        "        return _generic(cls, d, path)",', ''),
    ("call kind: path of the enclosing object dropped", F, '{self.ref(kind[1])}({v}, {path}, {key})', '{self.ref(kind[1])}({v}, "", {key})'),
    ("event: sequence number not checked", E, '        if response is None or (seq is not None and seq.__class__ is not int):', '        if response is None:'),
    ("event: response path empty", E, 'self.response = Response.from_dict(response, "response")', 'self.response = Response.from_dict(response, "")'),
    ("first-use stub: a subclass built by the generated constructor", M, "        if owner is not cls:  # a subclass the generator does not know\n            return _from_dict_loop(owner, d, path)\n", ""),
]
only = sys.argv[1:]
for i, (label, path, old, new) in enumerate(MUTS, 1):
    if only and str(i) not in only:
        continue
    full = f"{TREE}/{path}"
    src = open(full).read()
    assert src.count(old) == 1, (label, src.count(old))
    open(full, "w").write(src.replace(old, new))
    try:
        r = subprocess.run([f"{TREE}/.venv/bin/python", "-m", "pytest", "-q", "-x", "-p", "no:randomly", "tests/test_fromdict.py"],
                           cwd=TREE, capture_output=True, text=True)
        tail = [l for l in r.stdout.splitlines() if l.startswith("FAILED") or "passed" in l or "error" in l.lower()][-1:]
        print(f"{i:2d} {'CAUGHT' if r.returncode else 'missed'}  {label}  | {tail[0][:110] if tail else ''}", flush=True)
    finally:
        open(full, "w").write(src)
