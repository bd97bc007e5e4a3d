import hashlib, gc, time, statistics, os, zlib
data=os.urandom(92000)
junk=[{i:[i]} for i in range(100000)]
def t(f):
    R=[]
    for i in range(41):
        gc.collect()
        t0=time.perf_counter(); f(); R.append(time.perf_counter()-t0)
    return statistics.median(R)*1e6
v=memoryview(data)
print("tiny sha %.1f" % t(lambda: hashlib.sha256(b"abc").digest()))
print("tiny sha view %.1f" % t(lambda: hashlib.sha256(v[10:74]).digest()))
print("22k sha %.1f" % t(lambda: hashlib.sha256(v[10:22010]).digest()))
print("90k sha %.1f" % t(lambda: hashlib.sha256(v[10:90010]).digest()))
print("90k bytes find %.1f" % t(lambda: data.find(b"\x00\x01\x02\x03")))
print("90k copy %.1f" % t(lambda: bytes(v[10:90010])))
print("tiny zlib %.1f" % t(lambda: zlib.crc32(b"abc")))
print("nothing %.1f" % t(lambda: None))
print("tiny blake2b %.1f" % t(lambda: hashlib.blake2b(b"abc").digest()))
print("90k blake2b %.1f" % t(lambda: hashlib.blake2b(v[10:90010]).digest()))
print("22k blake2b %.1f" % t(lambda: hashlib.blake2b(v[10:22010]).digest()))
import _sha256
print("90k _sha256 %.1f" % t(lambda: _sha256.sha256(v[10:90010]).digest()))
print("tiny sha again %.1f" % t(lambda: hashlib.sha256(b"abc").digest()))
h0=hashlib.sha256()
print("tiny sha copy %.1f" % t(lambda: h0.copy().digest()))
import _hashlib
print("tiny openssl_sha256 %.1f" % t(lambda: _hashlib.openssl_sha256(b"abc").digest()))
print("tiny hashlib.new %.1f" % t(lambda: hashlib.new("sha256", b"abc").digest()))
