"""final_ab after shapes.py's whole-stream prelude (every shape through every peer, as the table does)."""
import sys
sys.path.insert(0, "/work/wt-lead")
from bench import run as bench_run, shapes as bshapes, final_ab
bench_run.clock = bench_run.CLOCKS["cpu"]
print(bench_run.environment())
cases = [bench_run.Case(s, n) for s, n in bshapes.SHAPES]
bench_run.run_cases(cases, "ours+snapshot,ours+final,ours+orjson,ours+final+orjson,httpx-sse,floor".split(","), runs=5, memory=False, sdk_max_events=200_000, log=lambda m: None)
final_ab.main(sys.argv[1:])
