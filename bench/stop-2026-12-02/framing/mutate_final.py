import subprocess, sys
P = 'sansio_responses/_sse.py'; Q = 'sansio_responses/_sse_lines.py'
orig = {P: open(P).read(), Q: open(Q).read()}
M = {
 'M1 no blank-line check': ('data[at + 1] == 10 and (limit', 'True and (limit'),
 'M2 head skip off by one': ('return data[pos : lf + 7], event, lf + 7 - pos', 'return data[pos : lf + 7], event, lf + 6 - pos'),
 'M3 no limit check': ('(limit < 0 or at - pos <= limit)', 'True'),
 'M4 second line unchecked': ('start.find(_LF, second + 1) < 0 and (', 'start.find(_LF, second + 1) < 0 or ('),
 'M6 fallback ends at first LF': ('            while data[at + 1] != 10:\n                at = find(b"\\n", at + 1)\n', ''),
 'M7 event head without data check': (' or not data.startswith(b"data: ", lf + 1)', ''),
 'M8 prefix hold of any short open line': ('return len(start) < 7 and (b"event: ".startswith(start) or b"data: ".startswith(start))', 'return len(start) < 7'),
 'M9 stale event type': ('                head, event, skip = self._shape = shape', '                head, _e, skip = self._shape = shape'),
 'M10 blank skips two': ('                pos += 1\n                continue', '                pos += 2\n                continue'),
 'M11 block-path type cache unbounded': ('lf - pos - 7 > TYPE_CACHE_BYTES or ', ''),
 'M13 held blocks at a wrong base': ('return self._blocks(data, self.offset - len(data), end, full)', 'return self._blocks(data, self.offset - n, end, full)'),
 'M14 held blocks with CR': ('            if _CR not in data:\n                return self._after_held(held, data, n, full)', '            if True:\n                return self._after_held(held, data, n, full)'),
 'M15 held past the hold bound': ('                if _LF in data or len(held) + n > self._hold_max:', '                if _LF in data:'),
 'M16 held line ends unchecked': ('                if _LF in data or len(held) + n > self._hold_max:', '                if len(held) + n > self._hold_max:'),
 'M12 line-machine type cache unbounded': (' and len(etype) <= TYPE_CACHE_BYTES', ''),
}
only = set(sys.argv[1].split(',')) if sys.argv[1] != 'all' else None
tests = sys.argv[2:]
for name, (a, b) in M.items():
    if only and name.split()[0] not in only: continue
    f = P if orig[P].count(a) == 1 else Q
    assert orig[f].count(a) == 1, name
    open(f, 'w').write(orig[f].replace(a, b))
    r = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-x', '-p', 'no:cacheprovider', *tests], capture_output=True, text=True)
    for g, text in orig.items(): open(g, 'w').write(text)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]
    print(f"{name}: {'CAUGHT' if r.returncode else 'missed'} ({last})", flush=True)
