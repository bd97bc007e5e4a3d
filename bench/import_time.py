"""Import time of ``sansio_responses``: the minimum over N fresh interpreters (indicative).

Usage, from the repository root: ``.venv/bin/python bench/import_time.py [RUNS]`` (default 15).

Each line runs ``python -c "<setup>; t = perf_counter(); <statement>; print(perf_counter() - t)"``
in a new process, so nothing is cached in ``sys.modules``; the minimum is the figure least
disturbed by other load on the machine. Rows: the bare import, then the first use of the names a
Responses program, a Chat program and a program that builds requests read (each includes the
import). ``python -X importtime -c "import sansio_responses"`` shows the per-module detail.
"""

from __future__ import annotations

import subprocess
import sys

CASES = (
    ("import sansio_responses", "import sansio_responses as sr"),
    (
        "+ sr.ResponsesStream()",
        "import sansio_responses as sr; sr.ResponsesStream()",
    ),
    (
        "+ sr.ChatCompletionsStream()",
        "import sansio_responses as sr; sr.ChatCompletionsStream()",
    ),
    (
        "+ both streams and sr.responses_request",
        "import sansio_responses as sr; sr.ResponsesStream(); sr.ChatCompletionsStream(); "
        "sr.responses_request",
    ),
    ("(context) import attrs", "import attrs"),
)


def measure(statement: str, runs: int) -> float:
    """Minimum seconds *statement* takes in a fresh interpreter, over *runs* interpreters."""
    code = f"from time import perf_counter as _pc\n_t = _pc()\n{statement}\nprint(_pc() - _t)"
    best = float("inf")
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        ).stdout
        best = min(best, float(out.split()[-1]))
    return best


def main(argv: list[str]) -> int:
    """Print one markdown row per case: milliseconds, minimum of RUNS interpreters."""
    runs = int(argv[0]) if argv else 15
    print(f"| what (fresh interpreter, min of {runs}) | ms |")
    print("|---|---:|")
    for label, statement in CASES:
        print(f"| `{label}` | {measure(statement, runs) * 1e3:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
