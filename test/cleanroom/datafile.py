"""Clean-room datafile reader (docs/formats/datafile.md)."""
import struct, zlib, hashlib

class DatafileError(Exception):
    pass

NS = bytes.fromhex('e05ddaaac4e64cfbb6425d48e80c0029')

def uuid_of(name):
    h = bytearray(hashlib.md5(NS + name.encode()).digest())
    h[6] = (h[6] & 0x0f) | 0x30
    h[8] = (h[8] & 0x3f) | 0x80
    return bytes(h)

class Datafile:
    def __init__(self, buf):
        self.buf = buf
        if len(buf) < 36:
            raise DatafileError('SHORT')
        magic = buf[:4]
        if magic not in (b'DATA', b'ATAD'):
            raise DatafileError('BAD_MAGIC')
        (self.version, self.size, self.swaplen, nt, ni, nd, isz, dsz) = struct.unpack_from('<8i', buf, 4)
        if self.version not in (3, 4):
            raise DatafileError('BAD_VERSION %d' % self.version)
        self.notes = []
        off = 36
        self.types = [struct.unpack_from('<3i', buf, off + 12 * i) for i in range(nt)]
        off += 12 * nt
        self.item_offsets = list(struct.unpack_from('<%di' % ni, buf, off)); off += 4 * ni
        self.data_offsets = list(struct.unpack_from('<%di' % nd, buf, off)); off += 4 * nd
        if self.version == 4:
            self.data_sizes = list(struct.unpack_from('<%di' % nd, buf, off)); off += 4 * nd
        else:
            self.data_sizes = None
        self.item_start = off
        self.data_start = off + isz
        if self.data_start + dsz != len(buf):
            raise DatafileError('FILE_SIZE_MISMATCH')
        exp_size = len(buf) - 16
        if self.size != exp_size:
            if self.version == 4 and self.size == exp_size - 4 * nd:
                self.notes.append('legacy_size')
            else:
                raise DatafileError('BAD_HEADER_SIZE')
        exp_swap = len(buf) - dsz - 16
        if self.swaplen != exp_swap and not (self.version == 4 and self.swaplen == exp_swap - 4 * nd):
            raise DatafileError('BAD_HEADER_SWAPLEN')
        self.isz, self.dsz = isz, dsz
        # items
        self.items = []  # (type, id, ints)
        start = 0
        for (tid, tstart, tnum) in self.types:
            if tstart != start:
                raise DatafileError('ITEM_TYPE_START')
            start += tnum
        for i, o in enumerate(self.item_offsets):
            end = self.item_offsets[i + 1] if i + 1 < ni else isz
            key, size = struct.unpack_from('<Ii', buf, self.item_start + o)
            if size != end - o - 8:
                raise DatafileError('ITEM_SIZE')
            ints = list(struct.unpack_from('<%di' % (size // 4), buf, self.item_start + o + 8))
            self.items.append((key >> 16, key & 0xffff, ints))
        for (tid, tstart, tnum) in self.types:
            for it in self.items[tstart:tstart + tnum]:
                if it[0] != tid:
                    raise DatafileError('ITEM_TYPE_MISMATCH')
        # uuid index
        self.uuid_types = {}
        for t, i, ints in self.items:
            if t == 0xffff:
                u = b''.join(struct.pack('>i', x) for x in ints[:4])
                self.uuid_types[u] = i

    def data(self, idx):
        n = len(self.data_offsets)
        o = self.data_offsets[idx]
        end = self.data_offsets[idx + 1] if idx + 1 < n else self.dsz
        raw = self.buf[self.data_start + o:self.data_start + end]
        if self.version == 3:
            return raw
        want = self.data_sizes[idx]
        out = zlib.decompress(raw)
        if len(out) != want:
            raise DatafileError('DATA_SIZE_MISMATCH %d %d' % (len(out), want))
        return out

    def items_of(self, t):
        if isinstance(t, str):
            t = self.uuid_types.get(uuid_of(t))
            if t is None:
                return []
        return [(i, ints) for (tt, i, ints) in self.items if tt == t]
