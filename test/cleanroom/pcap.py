"""Clean-room capture decoder (network.md, net-messages.md, snapshot.md).

network.md, Reading a datagram: the connless bit (0x20 of byte 0, the same in both protocols) first; its two
low bits then tell 0.7's connless header (01) from 0.6's (ff: 11, DDNet's 'xe': 00). One port, two protocols:
a connection datagram is 0.7 when b[0] & 4 is set, and every datagram of a flow (address pair) whose
connection is 0.7 is 0.7. Which side is the server: the receiver of the flow's first control packet
(0.6 connect, 0.7 token request). Security token (0.6): when connect and connect_accept carried TKEN, the
data (after decompression) is the chunks or control message and then exactly the 4 token bytes."""
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
        sp, dp, ulen = struct.unpack_from('>HHH', ip, ihl)
        src = (bytes(ip[12:16]), sp); dst = (bytes(ip[16:20]), dp)
        yield src, dst, bytes(ip[ihl + 8:ihl + ulen])

# network.md, packet flags (value bits of the 6-bit flags field)
FLAGS = {'0.6': {'control': 4, 'connless': 8, 'resend': 16, 'compression': 32},
         '0.7': {'control': 1, 'resend': 2, 'connless': 8, 'compression': 4}}
# network.md, control messages: ids, and which start a connection
CONTROL = {'0.6': {0: 'keep_alive', 1: 'connect', 2: 'connect_accept', 3: 'accept', 4: 'close'},
           '0.7': {0: 'keep_alive', 1: 'connect', 2: 'accept', 4: 'close', 5: 'token'}}
STARTS = {'0.6': {1, 2, 3}, '0.7': {1, 2}}

class Flow:
    def __init__(self, server):
        self.seven = False
        self.server = server
        self.token = None        # 0.6 security token once connect_accept carried TKEN
        self.tken_connect = False
        self.ack = {}            # direction -> last vital sequence taken
        self.snaps = {}          # tick -> items (the server's snapshots for this client)
        self.parts = {}

    def reset(self):
        self.ack = {}; self.snaps = {}; self.parts = {}

def count(st, key, k):
    st[key][k] = st[key].get(k, 0) + 1

def decode(buf):
    flows = {}
    st = {'packets': 0, 'connless': 0, 'control': 0, 'chunks': 0, 'compressed': 0, 'snap_crc_ok': 0,
          'snap_crc_total': 0, 'snap_empty': 0, 'missing_base': 0, 'protocols': {}, 'msgs': {},
          'control_msgs': {}, 'connless_magic': {}, 'bad_msgs': {}, 'token_ok': 0, 'token_bad': 0,
          'leftover_bytes': {}, 'vital_taken': 0, 'vital_duplicate': 0, 'vital_out_of_order': 0,
          'snap_from_client': 0, 'input_to_client': 0}
    for src, dst, d in udp_payloads(buf):
        st['packets'] += 1
        if not d:
            continue
        if d[0] & 0x20:
            st['connless'] += 1
            if d[0] & 3 == 1:       # 0.7: 9-byte header (flags and version, token, response token)
                payload = d[9:]; k = '07:'
            else:                   # 0.6: ff ff ff ff ff ff, or 'xe' and 4 bytes of extra token
                assert d[:6] == b'\xff' * 6 or d[:2] == b'xe', 'connless header'
                payload = d[6:]; k = '06:'
            assert payload[:4] == b'\xff' * 4, 'connless payload'
            count(st, 'connless_magic', k + payload[4:8].decode('latin1'))
            continue
        fkey = frozenset((src, dst))
        flow = flows.get(fkey)
        if flow is None:
            flow = flows[fkey] = Flow(dst)
        if d[0] & 4:
            flow.seven = True
        proto = '0.7' if flow.seven else '0.6'
        count(st, 'protocols', proto)
        fl = FLAGS[proto]
        flags = d[0] >> 2
        nchunks = d[2]
        data = d[7:] if flow.seven else d[3:]
        if flags & fl['compression']:
            data = huffman.decompress(data); st['compressed'] += 1
        to_server = dst == flow.server
        if flags & fl['control']:
            st['control'] += 1
            cid = data[0]
            name = CONTROL[proto].get(cid, 'unknown%d' % cid)
            count(st, 'control_msgs', proto + ':' + name)
            if cid in STARTS[proto]:
                flow.reset()
            if proto == '0.6' and name == 'connect':
                flow.tken_connect = data[1:5] == b'TKEN'
            if proto == '0.6' and name == 'connect_accept' and flow.tken_connect and data[1:5] == b'TKEN':
                flow.token = data[-4:]
            continue
        if proto == '0.6' and flow.token is not None:
            if data[-4:] == flow.token:
                st['token_ok'] += 1
            else:
                st['token_bad'] += 1
            data = data[:-4]
        p = 0
        direction = (src, dst)
        for _ in range(nchunks):
            b0, b1 = data[p], data[p + 1]
            vital = (b0 >> 6) & 1
            if flow.seven:
                size = ((b0 & 0x3f) << 6) | (b1 & 0x3f)
                seq = ((b1 & 0xc0) << 2) | data[p + 2] if vital else None
            else:
                size = ((b0 & 0x3f) << 4) | (b1 & 0x0f)
                seq = ((b1 & 0xf0) << 2) | data[p + 2] if vital else None
            p += 3 if vital else 2
            msg = data[p:p + size]; p += size
            assert len(msg) == size, 'chunk short'
            st['chunks'] += 1
            if vital:
                # network.md, Sequence numbers and acks
                ack = flow.ack.get(direction, 0)
                if seq == (ack + 1) % 1024:
                    flow.ack[direction] = seq; st['vital_taken'] += 1
                elif (ack - seq) % 1024 < 512:
                    st['vital_duplicate'] += 1; continue
                else:
                    st['vital_out_of_order'] += 1; continue
            handle_msg(flow, proto, msg, st, to_server)
        count(st, 'leftover_bytes', len(data) - p)
    st['flows'] = len(flows)
    return st

def handle_msg(flow, proto, msg, st, to_server):
    name, vals, status = netmsg.decode(msg, proto, False)
    sys_ = Unpacker(msg).int() & 1
    count(st, 'msgs', proto + (':sys:' if sys_ else ':game:') + name)
    if status != 'ok':
        count(st, 'bad_msgs', name + ':' + status)
    if not sys_ or vals is None:
        return
    if name == 'input' and not to_server:
        st['input_to_client'] += 1
    if name not in ('snap', 'snap_empty', 'snap_single'):
        return
    if to_server:
        st['snap_from_client'] += 1
        return
    tick, dt = vals['tick'], vals['delta_tick']
    # net-messages.md, snap: delta_tick = tick + 1 when the delta is against the empty snapshot
    base = [] if dt == tick + 1 else flow.snaps.get(tick - dt)
    if name == 'snap_empty':
        st['snap_empty'] += 1
        if base is None:
            st['missing_base'] += 1; return
        flow.snaps[tick] = base
        return
    if name == 'snap':
        parts = flow.parts.setdefault(tick, {})
        parts[vals['part']] = vals['data']
        if len(parts) < vals['num_parts']:
            return
        del flow.parts[tick]
        blob = b''.join(parts[i] for i in range(vals['num_parts']))
    else:
        blob = vals['data']
    for t in [t for t in flow.parts if t < tick]:
        del flow.parts[t]
    v = Unpacker(blob); ints = []
    while v.left():
        ints.append(v.int())
    if base is None:
        st['missing_base'] += 1; return
    sizes = snapshot.SIZES_07 if flow.seven else snapshot.SIZES_06
    new = snapshot.apply_delta(base, ints, sizes)
    st['snap_crc_total'] += 1
    if snapshot.checksum(new) == snapshot.i32(vals['crc']):
        st['snap_crc_ok'] += 1
    flow.snaps[tick] = new
    for t in [t for t in flow.snaps if t < tick - 200]:
        del flow.snaps[t]
