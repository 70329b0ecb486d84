"""Snapshots and deltas (snapshot.md)."""
SIZES_06 = {1: 10, 2: 6, 3: 5, 4: 4, 5: 3, 6: 8, 7: 4, 8: 15, 9: 22, 10: 5, 11: 17, 12: 3, 13: 2, 14: 2,
            15: 2, 16: 2, 17: 3, 18: 3, 19: 3, 20: 3}
SIZES_07 = {1: 10, 2: 6, 3: 5, 4: 3, 5: 3, 6: 3, 7: 2, 8: 4, 9: 15, 10: 22, 11: 3, 12: 4, 13: 58, 14: 5,
            15: 32, 16: 2, 17: 2, 18: 2, 19: 2, 20: 3, 21: 3, 22: 7}

def i32(v):
    v &= 0xffffffff
    return v - (1 << 32) if v & 0x80000000 else v

def parse(ints):
    """ints -> list of (key, [data ints])"""
    size, n = ints[0], ints[1]
    offs = ints[2:2 + n]
    data = ints[2 + n:]
    assert size == len(data) * 4, ('snapshot data_size', size, len(data) * 4)
    items = []
    for i in range(n):
        a = offs[i] // 4
        b = offs[i + 1] // 4 if i + 1 < n else len(data)
        items.append((data[a] & 0xffffffff, data[a + 1:b]))
    return items

def checksum(items):
    s = 0
    for k, d in items:
        s += sum(d)
    return i32(s)

def apply_delta(old, ints, sizes):
    nd, nu, nt = ints[0], ints[1], ints[2]
    p = 3
    deleted = set(x & 0xffffffff for x in ints[p:p + nd]); p += nd
    oldmap = dict(old)
    new = [(k, d) for k, d in old if k not in deleted]
    idx = {k: i for i, (k, d) in enumerate(new)}
    for _ in range(nu):
        t, id_ = ints[p], ints[p + 1]; p += 2
        if t in sizes:
            sz = sizes[t]
        else:
            sz = ints[p]; p += 1
        d = ints[p:p + sz]; p += sz
        assert len(d) == sz, 'delta short'
        key = ((t << 16) | id_) & 0xffffffff
        # snapshot.md, Delta: add the diff to the old item of that key (take the data as it is when the old
        # snapshot has none); update a copied item in place, append one that was not copied (also a key the
        # same delta deletes, whose data is still added to the old item's)
        if key in oldmap:
            od = oldmap[key]
            assert len(od) == sz, ('size change', t, len(od), sz)
            d = [i32(a + b) for a, b in zip(od, d)]
        if key in idx:
            new[idx[key]] = (key, list(d))
        else:
            idx[key] = len(new)
            new.append((key, list(d)))
    assert p == len(ints), ('delta trailing', len(ints) - p)
    return new
