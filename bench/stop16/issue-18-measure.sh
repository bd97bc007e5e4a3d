#!/usr/bin/env bash
# Issue 18 closing-note measures. Run from the exchange worktree (or any checkout with the venv active):
#   bash /work/notes/issue-18-measure.sh /path/to/checkout
# Lines of glue (issue-18-count-glue.py: code lines, not blank/comment/docstring/module import), then
# mypy --strict and pyright (strict) error counts, each client checked alone as a user's project:
# "after" against the checkout's installed package, "before" against a git archive of e92409d.
set -uo pipefail
repo=${1:-$(pwd)}
notes=$(dirname "$0")
work=$(mktemp -d)
echo "== lines of glue"
python3 "$notes/issue-18-count-glue.py" "$repo/tests/_urllib3_client.py" "$notes/issue-18-urllib3-before.py" "$notes/issue-18-httpclient-client.py"
mkdir -p "$work/after" "$work/before" "$work/e92409d"
cp "$repo/tests/_urllib3_client.py" "$work/after/urllib3_client.py"
cp "$repo/tests/typing/mypy.ini" "$repo/tests/typing/pyrightconfig.json" "$work/after/"
git -C "$repo" archive e92409d | tar -x -C "$work/e92409d"
cp "$notes/issue-18-urllib3-before.py" "$work/before/urllib3_client_before.py"
cp "$repo/tests/typing/mypy.ini" "$work/before/"
printf '{"typeCheckingMode": "strict", "pythonVersion": "3.10", "extraPaths": ["%s"]}\n' "$work/e92409d" > "$work/before/pyrightconfig.json"
echo "== after (public sr.Exchange), mypy --strict / pyright strict"
(cd "$work/after" && mypy urllib3_client.py | tail -1; pyright --pythonpath "$(command -v python)" urllib3_client.py | tail -1)
echo "== before (e92409d public names), mypy --strict (errors in the client file only) / pyright strict"
(cd "$work/before" && MYPYPATH="$work/e92409d" mypy urllib3_client_before.py | grep '^urllib3_client_before' ; echo "mypy errors in the client: $(cd "$work/before" && MYPYPATH="$work/e92409d" mypy urllib3_client_before.py | grep -c '^urllib3_client_before.*error')"; pyright --pythonpath "$(command -v python)" urllib3_client_before.py | tail -1)
echo "== before, run against e92409d and the test server with faults"
(cd "$work" && PYTHONPATH="$work/e92409d" python "$notes/issue-18-urllib3-before-run.py")
rm -rf "$work"
