"""Clean-room map decoder (docs/formats/map.md)."""
import struct
from datafile import Datafile, DatafileError

def i32str(ints):
    """map.md, Notation: each int's 4 bytes big-endian, each byte stored plus 128; the last byte of the last
    int is the terminator and is skipped whatever it holds; the string ends at the first byte that decodes
    to 0; ints that are all 0 are the empty string."""
    if not any(ints):
        return ''
    b = b''.join(struct.pack('>i', x) for x in ints)[:-1]
    b = bytes((c - 128) & 0xff for c in b)
    return b.split(b'\0')[0].decode('utf-8')

def expand07(raw, n):
    out = bytearray()
    for k in range(0, len(raw), 4):
        t = raw[k:k + 4]
        rep = t[2] + 1
        out += bytes((t[0], t[1], 0, t[3])) * rep
    return bytes(out)

TILESZ = {'tiles': 4, 'game': 4, 'front': 4, 'tele': 2, 'speedup': 6, 'switch': 4, 'tune': 2}
KIND_FLAGS = [(1, 'game', 14), (2, 'tele', 18), (4, 'speedup', 19), (8, 'front', 20), (16, 'switch', 21), (32, 'tune', 22)]

def decode(buf):
    df = Datafile(buf)
    notes = list(df.notes)
    inflated = 0
    for i in range(len(df.data_offsets)):
        if df.data_sizes is not None and df.data_sizes[i] == 0:
            notes.append('data_size_zero:%d' % i); continue
        df.data(i); inflated += 1
    ver = df.items_of(0)
    assert len(ver) == 1 and ver[0][1][0] == 1, 'version item'
    res = {'datafile_version': df.version, 'items': len(df.items), 'data': len(df.data_offsets), 'inflated': inflated}
    images = df.items_of(2)
    for _, im in images:
        if not im[3]:
            d = df.data(im[5])
            bpp = 4
            if im[0] >= 2 and len(im) > 6 and im[6] == 0:
                bpp = 3
            assert len(d) == im[1] * im[2] * bpp, 'image size'
    envs = df.items_of(3)
    pts = df.items_of(6)
    bez07 = any(e[0] >= 3 for _, e in envs)
    rec = 22 if bez07 else 6
    npts = len(pts[0][1]) // rec if pts else 0
    if pts:
        assert len(pts[0][1]) % rec == 0, 'envpoint records'
    for _, e in envs:
        assert e[2] + e[3] <= npts, 'env range'
    bz = df.items_of('mapitemtype-envpoints-bezier@ddnet.tw')
    groups = df.items_of(4)
    layers = df.items_of(5)
    kinds = {}
    names = []
    for _, g in groups:
        if g[0] >= 3:
            names.append(i32str(g[12:15]))
    ntiles = nquads = nsources = 0
    for _, g in groups:
        assert g[5] + g[6] <= len(layers), 'group range'
    for _, L in layers:
        lt = L[1]
        if lt == 2:
            v, w, h, fl = L[3], L[4], L[5], L[6]
            kind, idx = 'tiles', 14
            for bit, k, ix in KIND_FLAGS:
                if fl & bit:
                    kind, idx = k, ix
                    break
            if v < 3 and idx >= 18:
                idx -= 3   # map.md, version-2 tilemaps: no name, the DDNet indices are ints 15 to 19
            if idx >= len(L):
                raise ValueError('layer too short for its own data index')  # reads as -1
            if v >= 3:
                names.append(i32str(L[15:18]))
            d = df.data(L[idx])
            if v >= 4 and kind in ('tiles', 'game'):
                d = expand07(d, w * h)
            assert len(d) == w * h * TILESZ[kind], ('tile data size', kind, len(d), w, h)
            if kind in ('tiles', 'game', 'front'):
                assert all(d[k + 3] == 0 for k in range(0, len(d), 4)), 'reserved'
            ntiles += w * h
        elif lt == 3:
            n = L[4]
            if n:
                d = df.data(L[5])
                assert len(d) == n * 152, 'quads size'
            if L[3] >= 2:          # map.md: version 1 ends after image (7 ints), version 2 adds the name
                names.append(i32str(L[7:10]))
            else:
                assert len(L) == 7, 'quads v1 length'
            nquads += n
            kind = 'quads'
        elif lt in (9, 10):
            n = L[4]
            rs = 36 if lt == 9 else 52
            if n:
                d = df.data(L[5]); assert len(d) == n * rs, 'sound sources size'
            nsources += n
            kind = 'sounds' if lt == 10 else 'sounds_deprecated'
        else:
            kind = 'unknown%d' % lt
        kinds[kind] = kinds.get(kind, 0) + 1
    for _, s in df.items_of(7):
        d = df.data(s[3]); assert len(d) == s[4], 'sound data size'
    res.update(groups=len(groups), layers=len(layers), layer_kinds=kinds, tiles=ntiles, quads=nquads,
               sound_sources=nsources, images=len(images), envelopes=len(envs), env_points=npts,
               bezier_records=(len(bz[0][1]) // 16 if bz else 0), notes=notes,
               names=len(names), named=sum(1 for n in names if n))
    return res
