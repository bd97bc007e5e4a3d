"""Deliberate mistakes in the template code: each must make tests/test_templates.py fail."""
import subprocess, sys
T = "sansio_responses/_responses/templates.py"
I = "sansio_responses/_responses/inline.py"
MISTAKES = [
    ("scanstring not strict", T, "_scanstring(p, len(head), True)", "_scanstring(p, len(head), False)"),
    ("second string not strict", T, "_scanstring(p, i + len(middle), True)", "_scanstring(p, i + len(middle), False)"),
    ("no length check of the tail", T, "if len(p) - i != len(tail) or not p.endswith(tail):", "if not p.endswith(tail):"),
    ("no end check of the tail", T, "if len(p) - i != len(tail) or not p.endswith(tail):", "if len(p) - i != len(tail):"),
    ("middle not checked", T, "elif p.startswith(middle, i):", "elif True:"),
    ("head not checked", T, "if not p.startswith(head):", "if not p.startswith(head[:-3]):"),
    ("sequence number not set", T, "data[_SEQ] = seq\n", "pass\n"),
    ("logprobs list shared", T, 'logprobs = data["logprobs"] = []', 'logprobs = data["logprobs"]'),
    ("strings swapped", T, "self.second = strings[0] != \"delta\"", "self.second = strings[0] == \"delta\""),
    ("non-empty logprobs learnt", T, "if value.__class__ is not list or value:", "if value.__class__ is not list:"),
    ("bool indices learnt", T, '"output_index": (int, type(None)),', '"output_index": (int, bool, type(None)),'),
    ("text deltas without a locator field learnt", T, 'if obj["type"] == "response.output_text.delta" and any(', 'if False and any('),
    ("fixed values as ASCII-escaped keys", T, "text += json.dumps(key) + \":\"", "text += json.dumps(key)[:-1] + ' \":'"),
    ("the held template not checked against the cache", I, "            return template\n        if type(obj) is not dict:", "        if template is not None:\n            return template\n        if type(obj) is not dict:"),
    ("the learnt template not checked against the cache", I, "if template is None or template.key != key:", "if template is None:"),
    ("event name not checked on a hit", I, 'if got is not None and (event_type == "message" or event_type == template.kind):', "if got is not None:"),
    ("templates while the outcome is set", I, "got = None if match is None or not running else match(payload, nxt)", "got = None if match is None else match(payload, nxt)"),
    ("templates with orjson", I, "if self._scan is None or not self._TEMPLATES:", "if not self._TEMPLATES or isinstance(self, bytes):"),
    ("index fields from the wrong slot", I, "content_index = template.content_index\n", "content_index = template.output_index\n"),
]
results = []
for name, path, old, new in MISTAKES:
    src = open(path).read()
    assert src.count(old) == 1, (name, src.count(old))
    open(path, "w").write(src.replace(old, new))
    try:
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:randomly", "tests/test_templates.py"], capture_output=True, text=True)
    finally:
        open(path, "w").write(src)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]
    print(("CAUGHT " if r.returncode else "MISSED ") + name + " :: " + last, flush=True)
