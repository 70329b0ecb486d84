"""Clean-room capture decoder (network.md, net-messages.md, snapshot.md)."""
import struct
import huffman, snapshot, netmsg
from varint import Unpacker

def udp_payloads(buf):
    magic = struct.unpack_from('<I', buf, 0)[0]
    assert magic == 0xa1b2c3d4, 'pcap magic'
    lt = struct.unpack_from('<I', buf, 20)[0]
    off = {1: 14, 113: 16, 276: 20, 0: 4, 101: 0}[lt]
    p = 24
    while p < len(buf):
        ts, tu, incl, orig = struct.unpack_from('<IIII', buf, p); p += 16
        pk = buf[p:p + incl]; p += incl
        ip = pk[off:]
        if ip[0] >> 4 != 4 or ip[9] != 17:
            continue
        ihl = (ip[0] & 15) * 4
        tot = struct.unpack_from('>H', ip, 2)[0]
        sp, dp, ulen = struct.unpack_from('>HHH', ip, ihl)
        src = (bytes(ip[12:16]), sp); dst = (bytes(ip[16:20]), dp)
        yield src, dst, bytes(ip[ihl + 8:ihl + ulen])

class Conn:
    def __init__(self, seven):
        self.seven = seven
        self.sizes = snapshot.SIZES_07 if seven else snapshot.SIZES_06
        self.snaps = {}   # tick -> items
        self.parts = {}

def decode(buf):
    flows = {}
    st = {'packets': 0, 'connless': 0, 'control': 0, 'chunks': 0, 'compressed': 0, 'snap_crc_ok': 0,
          'snap_crc_total': 0, 'snap_empty': 0, 'missing_base': 0, 'protocols': {}, 'msgs': {},
          'control_ids': {}, 'connless_magic': {}, 'leftover_bytes': {}, 'bad_msgs': {}}
    for src, dst, d in udp_payloads(buf):
        st['packets'] += 1
        if not d:
            continue
        if d[:6] == b'\xff' * 6 or d[:2] == b'xe':
            st['connless'] += 1
            m = d[6:14]; k = m[4:8].decode('latin1')
            st['connless_magic'][k] = st['connless_magic'].get(k, 0) + 1
            continue
        if d[0] & 0x23 == 0x21 and len(d) >= 9 and d[9:13] == b'\xff' * 4:
            st['connless'] += 1
            k = d[13:17].decode('latin1')
            st['connless_magic']['07:' + k] = st['connless_magic'].get('07:' + k, 0) + 1
            continue
        fkey = frozenset((src, dst))
        if fkey not in flows:
            flows[fkey] = bool(d[0] & 0x04)   # 0.7 control flag / 0.6 'unused' flag
        seven = flows[fkey]
        pname = '0.7' if seven else '0.6'
        st['protocols'][pname] = st['protocols'].get(pname, 0) + 1
        dkey = (src, dst)
        conn = flows.setdefault(dkey, Conn(seven))
        flags = d[0] >> 2
        nchunks = d[2]
        hl = 7 if seven else 3
        data = d[hl:]
        comp = flags & (4 if seven else 32)
        ctrl = flags & (1 if seven else 4)
        if comp:
            data = huffman.decompress(data); st['compressed'] += 1
        if ctrl:
            st['control'] += 1
            cid = data[0]
            st['control_ids'][cid] = st['control_ids'].get(cid, 0) + 1
            if cid in (1, 2, 3) and not seven or cid in (1, 2) and seven:
                conn.snaps.clear(); conn.parts.clear()
            continue
        p = 0
        for _ in range(nchunks):
            b0, b1 = data[p], data[p + 1]
            cf = b0 >> 6
            if seven:
                size = ((b0 & 0x3f) << 6) | (b1 & 0x3f)
            else:
                size = ((b0 & 0x3f) << 4) | (b1 & 0x0f)
            p += 3 if cf & 1 else 2
            msg = data[p:p + size]; p += size
            assert len(msg) == size, 'chunk short'
            st['chunks'] += 1
            handle_msg(conn, msg, st)
        left = len(data) - p
        st['leftover_bytes'][left] = st['leftover_bytes'].get(left, 0) + 1
    st['flows'] = sum(1 for k in flows if isinstance(k, tuple))
    return st

def handle_msg(conn, msg, st):
    u = Unpacker(msg)
    m = u.int(); sys_ = m & 1; mid = m >> 1
    name, vals, status = netmsg.decode(msg, '0.7' if conn.seven else '0.6', False)
    k = ('07' if conn.seven else '06') + (':sys:' if sys_ else ':game:') + name
    st['msgs'][k] = st['msgs'].get(k, 0) + 1
    if status != 'ok':
        st['bad_msgs'][k + ':' + status] = st['bad_msgs'].get(k + ':' + status, 0) + 1
    if not sys_:
        return
    SNAP, EMPTY, SINGLE = (6, 7, 8) if conn.seven else (5, 6, 7)
    if mid not in (SNAP, EMPTY, SINGLE):
        return
    tick = u.int(); dt = u.int()
    base_tick = tick - dt
    if mid == EMPTY:
        st['snap_empty'] += 1
        base = [] if base_tick == -1 else conn.snaps.get(base_tick)
        if base is None:
            st['missing_base'] += 1; return
        conn.snaps[tick] = base
        return
    if mid == SNAP:
        nparts = u.int(); part = u.int()
    else:
        nparts, part = 1, 0
    crc = u.int(); psize = u.int(); pdata = u.raw(psize)
    parts = conn.parts.setdefault(tick, {})
    parts[part] = pdata
    if len(parts) < nparts:
        return
    del conn.parts[tick]
    for t in [t for t in conn.parts if t < tick]:
        del conn.parts[t]
    blob = b''.join(parts[i] for i in range(nparts))
    v = Unpacker(blob); ints = []
    while v.left():
        ints.append(v.int())
    base = [] if base_tick == -1 else conn.snaps.get(base_tick)
    if base is None:
        st['missing_base'] += 1; return
    new = snapshot.apply_delta(base, ints, conn.sizes)
    st['snap_crc_total'] += 1
    if snapshot.checksum(new) == snapshot.i32(crc):
        st['snap_crc_ok'] += 1
    conn.snaps[tick] = new
    for t in [t for t in conn.snaps if t < tick - 200]:
        del conn.snaps[t]
