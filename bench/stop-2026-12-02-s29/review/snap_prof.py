import sys, cProfile, pstats
sys.path.insert(0, "/work/wt-review")
import sansio_responses as sr
from bench.generate import generate
body = generate("text_items", 2000, seed=1).data
s = sr.ResponsesStream()
def run():
    for i in range(0, len(body), 400):
        for e in s.feed(body[i:i+400]):
            s.snapshot()
cProfile.run("run()", "/tmp/r4prof")
pstats.Stats("/tmp/r4prof").sort_stats("cumulative").print_stats(18)
