import sys, time, statistics, importlib, shutil, tempfile
from pathlib import Path
A, B = sys.argv[1], sys.argv[2]
tmp = tempfile.mkdtemp(); sys.path.insert(0, tmp)
mods = {}
for name, tree in (('fa', A), ('fb', B)):
    shutil.copytree(Path(tree)/'sansio_responses', Path(tmp)/name, ignore=shutil.ignore_patterns('__pycache__','adapters'))
    mods[name] = importlib.import_module(name)
k = 2000
ev = b"event: response.output_text.delta\ndata: " + b'{"x":"' + b"y" * 200 + b'"}\n\n'
text = ev * (k // 10)
cases = {
    "bytewise text": [bytes([b]) for b in text],
    "3-byte text": [text[i:i+3] for i in range(0, len(text), 3)],
    "bytewise ev/data lines, no blank": [bytes([c]) for c in b"event: a\ndata: b\n" * k],
    "lone CR": [b"data: x\r\r"] * k,
    "empty events": [b"\n\n\n\n" * 10] * (k // 10),
    "huge line 1B": [b"data: "] + [b"x"] * (k * 20),
    "2 KiB held + 1B": [b"data: 0\n\nevent: " + b"t" * 2000] + [b"y"] * (k * 5),
}
def run(mod, chunks):
    d = mod.SSEDecoder(); f = d.feed_raw
    for c in chunks: f(c)
for name, chunks in cases.items():
    nbytes = sum(map(len, chunks))
    ta, tb, rat = [], [], []
    for r in range(int(sys.argv[3]) if len(sys.argv) > 3 else 9):
        for m, t in ((('fa', ta), ('fb', tb)) if r % 2 == 0 else (('fb', tb), ('fa', ta))):
            s = time.process_time(); run(mods[m], chunks); t.append(time.process_time() - s)
        rat.append(tb[-1] / ta[-1])
    print(f"{name:34} A {statistics.median(ta)/nbytes*1e9:6.1f} B {statistics.median(tb)/nbytes*1e9:6.1f} ns/byte  B/A {statistics.median(rat):.3f}")
