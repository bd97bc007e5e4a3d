import re
p='sansio_responses/_base.py'
s=open(p).read()
start=s.index("    for value in shared:\n        found = False\n        profile = -1")
end=s.index("    ordered = sorted(cuts.values(), key=lambda cut: (cut[0], -cut[1]))")
new='''    size = len(data)
    cursor = 0  # where the last match ended: held strings come mostly in document order
    matched: list[tuple[str, bytes, Callable[[str, bool], Any], int, Proof | None]] = []
    for value in shared:
        profile = -1  # not known yet
        known: Any = profiles.get(id(value)) if as_bytes and profiles is not None else None
        proof: Proof | None = None
        for encode in (_utf8_json, _ascii_json):
            if encode is _ascii_json and _forms(value)[-1] is not _ascii_json:
                break  # the other form is not this string's
            if known is not None and encode is _utf8_json:
                # (known[0] is value: kept with it)
                profile, needle, proof = known[1], known[2], known[3]
            else:
                proof = None
                try:
                    needle = quote + encode(value[:_HEAD], as_bytes)
                except UnicodeEncodeError:
                    continue
            # The first match after the last one, else the first before it (the bound lets
            # a match start up to there): the data are read about once for all held strings.
            for lo, hi in ((cursor, size), (0, cursor + len(needle) - 1)):
                if hi - lo < len(value) + 2:
                    continue  # no room for its quotes and one byte a character
                at = find(needle, lo, hi)
                while at >= 0:
                    before = at - 1
                    while before >= 0 and data[before] == backslash:
                        before -= 1
                    if (at - 1 - before) % 2 == 0 and at not in cuts:
                        if proof is not None:
                            end = _proved(data, at + 1, proof)
                        else:
                            if encode is _utf8_json and as_bytes and profile < 0:
                                profile = _profile_of(value, needle, profiles)
                            end = _match(data, at + 1, value, encode, as_bytes, profile)
                            if (
                                prove
                                and as_bytes  # (a str: the data of an unterminated final event)
                                and end >= 0
                                and encode is _utf8_json
                                and profiles is not None
                                and not value.isascii()  # (a copy: faster than hashing)
                            ):
                                proof = _prove(data, at + 1, end)
                                profiles[id(value)] = (value, profile, needle, proof)
                        if end >= 0 and data[end : end + 1] == quote:
                            cuts[at] = (at, end + 1, value, 0)
                            cursor = end + 1
                            matched.append((value, needle, encode, profile, proof))
                            break
                    at = find(needle, at + 1, hi)
                else:
                    continue
                break  # matched
            else:
                continue  # not in this form: the other one
            break  # matched: the \\u-escaped form is searched only for a string not found
    if matched:
        # Later occurrences (the same text twice in one event) can only lie between the
        # matches, where nothing else was found: searched there only, and only in the pieces
        # long enough to hold them (none, in the API's events, where each text is once).
        ordered = sorted(cuts.values())
        gaps: list[tuple[int, int]] = []
        last = 0
        for begin, stop, _, _ in ordered:
            if begin > last:
                gaps.append((last, begin))
            last = max(last, stop)
        gaps.append((last, size))
        for value, needle, encode, profile, proof in matched:
            for lo, hi in gaps:
                if hi - lo < len(value) + 2:
                    continue
                at = find(needle, lo, hi)
                while at >= 0:
                    before = at - 1
                    while before >= 0 and data[before] == backslash:
                        before -= 1
                    end = -1
                    if (at - 1 - before) % 2 == 0 and at not in cuts:
                        if proof is not None:
                            end = _proved(data, at + 1, proof)
                        else:
                            end = _match(data, at + 1, value, encode, as_bytes, profile)
                    if end >= 0 and data[end : end + 1] == quote:
                        cuts[at] = (at, end + 1, value, 0)
                        at = find(needle, end + 1, hi)
                    else:
                        at = find(needle, at + 1, hi)
'''
s=s[:start]+new+s[end:]
open(p,'w').write(s)
