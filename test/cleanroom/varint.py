"""DDNet CVariableInt (teehistorian.md, Layout)."""

def read_int(buf, pos):
    b = buf[pos]; pos += 1
    sign = (b >> 6) & 1
    v = b & 0x3f
    shift = 6
    while b & 0x80:
        b = buf[pos]; pos += 1
        v |= (b & 0x7f) << shift
        shift += 7
    if sign:
        v = ~v
    return v, pos

def read_str(buf, pos):
    e = buf.index(b'\0', pos)
    return buf[pos:e], e + 1

class Unpacker:
    def __init__(self, buf, pos=0):
        self.buf, self.pos = buf, pos
    def int(self):
        v, self.pos = read_int(self.buf, self.pos); return v
    def str(self):
        s, self.pos = read_str(self.buf, self.pos); return s
    def raw(self, n):
        if self.pos + n > len(self.buf): raise ValueError('short raw')
        r = self.buf[self.pos:self.pos + n]; self.pos += n; return r
    def left(self):
        return len(self.buf) - self.pos
