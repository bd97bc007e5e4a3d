import sys, time
sys.path.insert(0, sys.argv[1])
from bench import generate as gen, run as bench_run, shapes as bshapes
clock = sys.argv[2]; runs = int(sys.argv[3])
bench_run.clock = bench_run.CLOCKS[clock]
st = gen.generate("function_call", 20000)
for i in range(3):
    o, p, n = bshapes.final_event_cost(st, runs, bshapes._ours(True))
    print(clock, runs, f"ours {o*1e6:.0f} json {p*1e6:.0f} = {o/p:.2f}x")
