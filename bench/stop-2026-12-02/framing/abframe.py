import sys, time, statistics, importlib, shutil, tempfile
from pathlib import Path
sys.path.insert(0, '/work/wt-framing')
from bench import generate as gen
size = int(sys.argv[1]); n = int(sys.argv[2]); keep = sys.argv[3] == 'keep'; A = sys.argv[4]; B = sys.argv[5]
scen = sys.argv[6] if len(sys.argv) > 6 else 'text'
tmp = tempfile.mkdtemp()
sys.path.insert(0, tmp)
mods = {}
for name, tree in (('fa', A), ('fb', B)):
    shutil.copytree(Path(tree)/'sansio_responses', Path(tmp)/name, ignore=shutil.ignore_patterns('__pycache__','adapters'))
    mods[name] = importlib.import_module(name)
data = gen.generate(scen, n).data
chunks = [data[i:i+size] for i in range(0, len(data), size)]
def mk(mod):
    def run():
        d = mod.SSEDecoder(); d._keep_bytes = keep
        f = d.feed_raw
        for c in chunks: f(c)
    return run
ra, rb = mk(mods['fa']), mk(mods['fb'])
ra(); rb()
ta, tb, rat = [], [], []
for r in range(15):
    pair = [(ra, ta), (rb, tb)] if r % 2 == 0 else [(rb, tb), (ra, ta)]
    for f, t in pair:
        s = time.process_time(); f(); t.append(time.process_time() - s)
    rat.append(tb[-1] / ta[-1])
print(f"chunk={size} keep={keep} A {statistics.median(ta)/n*1e6:.3f} B {statistics.median(tb)/n*1e6:.3f} us/event  B/A {statistics.median(rat):.3f}")
