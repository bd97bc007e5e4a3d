import hashlib, time, statistics, os, timeit
data=os.urandom(92000)
v=memoryview(data)
print("sha warm us", min(timeit.repeat(lambda: hashlib.sha256(v[500:90500]).digest(), number=200, repeat=5))/200*1e6)
print("sha1 warm us", min(timeit.repeat(lambda: hashlib.sha1(v[500:90500]).digest(), number=200, repeat=5))/200*1e6)
print("blake2b warm us", min(timeit.repeat(lambda: hashlib.blake2b(v[500:90500]).digest(), number=200, repeat=5))/200*1e6)
print("sha512 warm us", min(timeit.repeat(lambda: hashlib.sha512(v[500:90500]).digest(), number=200, repeat=5))/200*1e6)
print("copy warm us", min(timeit.repeat(lambda: bytes(v[500:90500]), number=200, repeat=5))/200*1e6)
