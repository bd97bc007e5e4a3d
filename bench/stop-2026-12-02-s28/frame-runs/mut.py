"""Deliberate mistakes in the fast paths of sansio_responses/_sse.py: each is applied alone, the
given tests run, the file restored. Usage: mut.py TREE [test files...]"""
import subprocess, sys
from pathlib import Path
tree = Path(sys.argv[1]); tests = sys.argv[2:] or ["tests/test_sse_large.py"]
path = tree / "sansio_responses/_sse.py"
orig = path.read_text()
MUTS = {
 "M1 held+LF chunk taken without its CR check": ("                if _CR not in data:\n                    # The end of a held", "                if True:\n                    # The end of a held"),
 "M2 LF shortcut forgets the offset": ("                    self.offset += n\n                    if (\n", "                    if (\n"),
 "M3 blank-line search bounded at lf, not lf + 1": ('end = data.rfind(b"\\n\\n", 0, lf + 1)', 'end = data.rfind(b"\\n\\n", 0, lf)'),
 "M4 head-only split takes the last LF too": ("lines = data[:lf].split(b\"\\n\")\n            else:", "lines = data[:lf + 1].split(b\"\\n\")\n            else:"),
 "M5 ending open line: the line not set when nothing is open": ("            elif first == lf:\n                lines[0] = data[:lf]\n", ""),
 "M6 ending open line: comment offset off by one": ("line_pos = base + lf + 1", "line_pos = base + lf"),
 "M7 ending open line: limit check short by one": ("self._block_size + len(self._line) + lf > self._limit", "self._block_size + len(self._line) + lf - 1 > self._limit"),
 "M8 ending open line: one byte fewer copied": ("self._line += memoryview(data)[:lf]", "self._line += memoryview(data)[: lf - 1 if lf > 1 else lf]"),
 "M9 tail: the open line starts one byte late": ("self._line = bytearray(memoryview(data)[pos:])", "self._line = bytearray(memoryview(data)[pos + 1 :])"),
 "M10 tail: its complete lines include the last LF": ("lines = data[pos:lf].split(b\"\\n\")", "lines = data[pos : lf + 1].split(b\"\\n\")"),
 "M11 tail: limit short by one": ("elif self._block_size + n - pos > self._limit:", "elif self._block_size + n - pos - 1 > self._limit:"),
 "M12 tail: the line start not moved past its lines": ("            pos = lf + 1\n            self._line_start = start = base + pos", "            pos = lf + 1\n            self._line_start = start = base + lf"),
 "M13 whole block: keep before full (the old order)": ("                if full:  # (feed() decodes whatever _keep_bytes says, as _lines does)\n                    append(ServerSentEvent(event, payload.decode(\"utf-8\", \"replace\"), id_buf, None))\n                elif keep:\n                    append((event, payload, base + pos))", "                if keep:\n                    append((event, payload, base + pos))\n                elif full:\n                    append(ServerSentEvent(event, payload.decode(\"utf-8\", \"replace\"), id_buf, None))"),
 "M14 a chunk with a CR and no LF takes the open-line shortcut": ("            if _CR in data:\n                return self._feed(data, False)\n", ""),
 "M15 one block: no CR test": ('if data.find(b"\\n", skip) != at or _CR in data or at > self._limit:', 'if data.find(b"\\n", skip) != at or at > self._limit:'),
 "M16 one block: the payload's end not checked to be the chunk's": ('if data.find(b"\\n", skip) != at or _CR in data or at > self._limit:', 'if _CR in data or at > self._limit:'),
 "M17 one block: limit off by one": ('if data.find(b"\\n", skip) != at or _CR in data or at > self._limit:', 'if data.find(b"\\n", skip) != at or _CR in data or at > self._limit + 1:'),
 "M18 one block: the last event ID not set": ("        self.last_event_id = self._id_buf  # (the blank line, WHATWG §9.2.6)\n", ""),
 "M19 one block: the line start not moved": ("        self._line_start = self.offset\n", ""),
 "M20 one block: the head not kept": ("        self._shape = shape\n        self._line_start", "        self._line_start"),
 "M21 one block: bytes from _bytes_over on, not past it": ("if self._keep_bytes or at - skip > self._bytes_over:", "if self._keep_bytes or at - skip >= self._bytes_over:"),
 "M22 one block: the offset of the block's end": ("            return [(shape[1], payload, self.offset - n)]", "            return [(shape[1], payload, self.offset)]"),
 "M23 one block taken inside a block begun earlier": ("                        and self._block_start < 0\n                        and (got", "                        and (got"),
 "M24 one block taken with an open line": ("                        and not self._line\n                        and not self._in_comment\n                        and self._block_start < 0\n                        and (got", "                        and not self._in_comment\n                        and self._block_start < 0\n                        and (got"),
 "M25 one block taken inside a comment": ("                        and not self._in_comment\n                        and self._block_start < 0\n                        and (got", "                        and self._block_start < 0\n                        and (got"),
 "M26 one block: the cached head not checked": ("        if not data.startswith(shape[0]):\n            got = self._shape_at(data, 0)", "        if False:\n            got = self._shape_at(data, 0)"),
}
only = [a for a in sys.argv[2:] if a.startswith("M")]
tests = [t for t in tests if not t.startswith("M")] or ["tests/test_sse_large.py"]
try:
    for name, (old, new) in MUTS.items():
        if only and name.split()[0] not in only:
            continue
        assert orig.count(old) == 1, name
        path.write_text(orig.replace(old, new))
        r = subprocess.run([str(tree / ".venv/bin/python"), "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests],
                           cwd=tree, capture_output=True, text=True)
        last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]
        print(f"{'CAUGHT' if r.returncode else 'missed'}  {name}: {last}")
        sys.stdout.flush()
finally:
    path.write_text(orig)
