"""The strict-mode invariant that both streams' property tests check (tests/test_hardening_*.py).

Fed one frame at a time, a lenient stream runs until the first frame that records a diagnostic or
raises. Fed everything at once, the strict stream must raise right there: with the diagnostic's
code in its message (or the same error), the events before that frame, and the state from just
before it (strict mode applies nothing of a failing event or chunk).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sansio_responses as sr


def check_strict_stops_where_lenient_notes(
    make: Callable[..., Any], frames: list[bytes], state: Callable[[Any], Any]
) -> None:
    """Check the invariant for *frames* on streams built by ``make(strict=...)``, whose state
    (what must be as it was before the failing frame) *state* reads."""
    lenient = make(strict=False)
    events: list[Any] = []
    before: Any = None
    code = error = None
    for f in [*frames, None]:
        before = state(lenient)
        try:
            new = lenient.feed(f) if f is not None else lenient.close()
        except sr.ProtocolError as exc:
            if lenient.diagnostics:  # noted by this frame: strict mode keeps none of it
                code = lenient.diagnostics[0].code
            else:
                error = str(exc)
                events += exc.events  # type: ignore[attr-defined]
            break
        if lenient.diagnostics:
            code = lenient.diagnostics[0].code
            break
        events += new
    stream = make(strict=True)
    got: list[Any] = []
    try:
        got += stream.feed(b"".join(frames))
        got += stream.close()
    except sr.ProtocolError as exc:
        if code is not None:
            assert f"[{code}; strict mode]" in str(exc)
        else:
            assert str(exc) == error
        got += exc.events  # type: ignore[attr-defined]
        assert state(stream) == before
    else:
        assert code is None and error is None
    assert [e.to_dict() for e in got] == [e.to_dict() for e in events]
