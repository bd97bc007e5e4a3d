"""Deliberate mistakes in the Chat fast path: each applied alone, the tests run, then undone."""
import subprocess, sys
from pathlib import Path
ROOT = Path("/work/wt-chat")
F = "sansio_responses/_chat/fast.py"
A = "sansio_responses/_chat/accumulate.py"
S = "sansio_responses/_chat/stream.py"
MISTAKES = [
    ("tail length not checked", F, "if end + len(tail) == n and text.endswith(tail):", "if text.endswith(tail):"),
    ("strings not swapped", F, "                if tpl.swapped:\n                    value, obf = obf, value", "                if False:\n                    value, obf = obf, value"),
    ("mid not checked", F, "                elif text.startswith(mid, end):", "                elif True:"),
    ("head not checked", F, "            if not text.startswith(head):\n                continue", "            if not text[:5] == head[:5]:\n                continue"),
    ("role dropped from the delta", F, "        delta.role = role\n", "        delta.role = None\n"),
    ("template's tool dict, not the copy", F, "delta.tool_calls = [tool_call_delta(t, None, None, f, None, value, tc)]", "delta.tool_calls = [tool_call_delta(t, None, None, f0, None, value, tc0)]"),
    ("obfuscation not set", F, "        if obf is not None:\n            d[\"obfuscation\"] = obf\n        chunk = new_object(ChunkTwin)", "        chunk = new_object(ChunkTwin)"),
    ("chunk's choice dict shared with the template", F, "        c = c0.copy()\n        c[\"delta\"] = raw_delta\n        choice", "        c = c0\n        c[\"delta\"] = raw_delta\n        choice"),
    ("depth not raised (inline link, templated)", F, "                mark = self._mark = (mark, mark[1] + 1, index, key, length)", "                mark = self._mark = (mark, mark[1], index, key, length)"),
    ("templated mark not kept on the stream", F, "                mark = self._mark = (mark, mark[1] + 1, index, key, length)", "                mark = (mark, mark[1] + 1, index, key, length)"),
    ("_extend's mark not kept", F, "        self._mark = mark\n        return mark", "        return mark"),
    ("fold drops the newest change", A, "    full[(choice, tool)] = length\n    return full", "    return full"),
    ("fold applies links oldest last", A, "    for _, _, c, t, n in reversed(links):", "    for _, _, c, t, n in links:"),
    ("marked ignores the tool index", A, "        if mark[2] == choice and mark[3] == tool:", "        if mark[2] == choice:"),
    ("general path links changes newest first", A, "            for c, t, length in changes:", "            for c, t, length in reversed(changes):"),
    ("view reads the stream's current mark", A, "        return self.stream._view(self.mark, what, index, tool_index)", "        return self.stream._view(self.stream._mark, what, index, tool_index)"),
    ("general path's view gets no mark", S, "            view.mark = self._mark", "            view.mark = {}"),
    ("tool value appended as content when empty", F, "            if value:\n                args = ch.tool_calls[t].args", "            if True:\n                args = ch.tool_calls[t].args"),
]
TESTS = ["tests/test_chat_fast_views.py", "tests/test_shape.py", "tests/test_hot_paths.py", "tests/test_chat_snapshot_only.py", "tests/test_chat.py"]
for name, path, old, new in MISTAKES:
    p = ROOT / path
    src = p.read_text()
    assert src.count(old) == 1, (name, src.count(old))
    p.write_text(src.replace(old, new))
    try:
        r = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *TESTS], cwd=ROOT, capture_output=True, text=True)
        last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]
        failed = [l for l in r.stdout.splitlines() if l.startswith("FAILED")]
        print(f"{'CAUGHT' if r.returncode else 'MISSED'}: {name}: {failed[:1]} {last}", flush=True)
    finally:
        p.write_text(src)
