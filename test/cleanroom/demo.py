"""Clean-room demo decoder (docs/formats/demo.md)."""
import struct, zlib, hashlib
import huffman, snapshot, mapfile, netmsg
from varint import Unpacker

SHA_UUID = bytes.fromhex('6be6da4acebd380c9b5b1289c842d780')

def unpack_ints(data):
    u = Unpacker(data); out = []
    while u.left():
        out.append(u.int())
    return out

def server_snap(name, vals, cand, crcst, sizes):
    """Server demos record the snap messages sent to every client (without saying which client):
    apply each delta to every stored snapshot of its base tick and keep the one whose checksum matches."""
    tick, dt = vals['tick'], vals['delta_tick']
    # net-messages.md: delta_tick = tick + 1 when the delta is against the empty snapshot; demo.md, Checksums:
    # apply the delta to every rebuilt snapshot of tick - delta_tick (a snap_empty carries them to its tick)
    bases = [[]] if dt == tick + 1 else cand.get(tick - dt, [])
    if name == 'snap_empty':
        cand.setdefault(tick, []).extend(bases)
        return
    ints = unpack_ints(vals['data'])
    crcst['total'] += 1
    if not bases:
        crcst['no_base'] += 1
        return
    matched = False
    for b in bases:
        try:
            new = snapshot.apply_delta(b, ints, sizes)
        except (AssertionError, KeyError, IndexError):
            continue
        if snapshot.checksum(new) == snapshot.i32(vals['crc']):
            crcst['ok'] += 1
            matched = True
            lst = cand.setdefault(tick, [])
            if new not in lst:
                lst.append(new)
            break
    if not matched:
        crcst['no_match'] += 1
    for t in [t for t in cand if t < tick - 5000]:
        del cand[t]

def digest(items):
    """A digest of a snapshot that does not depend on its item order (to compare with another reader): sha256
    of the items sorted by key, each as key (u32), number of ints (u32), the ints (i32), little-endian."""
    h = hashlib.sha256()
    for k, d in sorted(items, key=lambda it: it[0]):
        h.update(struct.pack('<II%di' % len(d), k, len(d), *d))
    return h.hexdigest()[:16]

def decode(buf):
    assert buf[:7] == b'TWDEMO\0', 'marker'
    ver = buf[7]
    netver = buf[8:72].split(b'\0')[0].decode()
    mapname = buf[72:136].split(b'\0')[0].decode()
    msize, mcrc = struct.unpack_from('>II', buf, 136)
    dtype = buf[144:152].split(b'\0')[0].decode()
    length = struct.unpack_from('>I', buf, 152)[0]
    p = 176
    if ver >= 4:
        nmark = struct.unpack_from('>I', buf, p)[0]; p += 4 + 64 * 4
    sha = None
    if ver >= 6 and buf[p:p + 16] == SHA_UUID:
        sha = buf[p + 16:p + 48]; p += 48
    mapdata = buf[p:p + msize]; p += msize
    crc_ok = (zlib.crc32(mapdata) & 0xffffffff) == mcrc
    mres = mapfile.decode(mapdata) if msize else None
    seven = netver.startswith('0.7')
    sizes = snapshot.SIZES_07 if seven else snapshot.SIZES_06
    tick = None; snaps = deltas = msgs = keyframes = 0; last = None
    msg_ids = {}; msg_status = {}; bad_msgs = {}
    parts = {}; cand = {}; crcst = {'ok': 0, 'total': 0, 'no_base': 0, 'no_match': 0}
    empty_deltas = 0
    digests = []          # [tick, digest] of the snapshot at every tick marker once there is a snapshot
    in_tick = False
    while p < len(buf):
        c = buf[p]; p += 1
        if c & 0x80:
            # demo.md: the data chunks after a tick marker belong to its tick; no snapshot or delta chunk
            # means the snapshot did not change
            if in_tick and last is not None:
                digests.append([tick, digest(last)])
            in_tick = True
            kf = bool(c & 0x40)
            keyframes += kf
            if ver >= 5:
                if c & 0x20:
                    tick += c & 0x1f
                else:
                    tick = struct.unpack_from('>i', buf, p)[0]; p += 4
            else:
                if c & 0x3f:
                    tick += c & 0x3f
                else:
                    tick = struct.unpack_from('>i', buf, p)[0]; p += 4
            continue
        typ = (c >> 5) & 3
        size = c & 0x1f
        if size == 30:
            size = buf[p]; p += 1
        elif size == 31:
            size = struct.unpack_from('<H', buf, p)[0]; p += 2
        data = buf[p:p + size]; p += size
        raw = huffman.decompress(data)
        ints = unpack_ints(raw)
        if typ == 1:
            last = snapshot.parse(ints); snaps += 1
        elif typ == 3:
            if not ints:
                empty_deltas += 1
            last = snapshot.apply_delta(last, ints, sizes); deltas += 1
            # re-serialize check is implicit: parse of result not needed
        elif typ == 2:
            b = b''.join(struct.pack('<i', x) for x in ints)
            u = Unpacker(b)
            m = u.int()
            sys_ = m & 1; mid = m >> 1
            name, vals, status = netmsg.decode(b, '0.7' if seven else '0.6', True)
            k = ('sys:' if sys_ else 'game:') + (name or '?')
            msg_ids[k] = msg_ids.get(k, 0) + 1
            msg_status[status.split(':')[0]] = msg_status.get(status.split(':')[0], 0) + 1
            if sys_ and name == 'snap':
                pk = (vals['tick'], vals['delta_tick'], vals['crc'], vals['num_parts'])
                parts.setdefault(pk, {})[vals['part']] = vals['data']
                if len(parts[pk]) == vals['num_parts']:
                    pp = parts.pop(pk)
                    v2 = dict(vals, data=b''.join(pp[i] for i in range(vals['num_parts'])))
                    server_snap('snap_single', v2, cand, crcst, sizes)
            if sys_ and name in ('snap_single', 'snap_empty'):
                server_snap(name, vals, cand, crcst, sizes)
            if not status.startswith('ok'):
                bad_msgs[k + ':' + status] = bad_msgs.get(k + ':' + status, 0) + 1
            msgs += 1
        else:
            raise ValueError('chunk type 0')
    assert p == len(buf)
    if in_tick and last is not None:
        digests.append([tick, digest(last)])
    return {'version': ver, 'netversion': netver, 'map': mapname, 'type': dtype, 'length': length,
            'map_crc_ok': crc_ok, 'sha256_ext': sha is not None,
            'map_layers': mres and mres['layers'], 'snapshots': snaps, 'deltas': deltas,
            'empty_deltas': empty_deltas, 'keyframes': keyframes, 'messages': msgs, 'snap_crc_ok': crcst['ok'], 'snap_crc_total': crcst['total'], 'snap_msgs_no_base': crcst['no_base'], 'snap_msgs_no_match': crcst['no_match'], 'msg_ids': msg_ids, 'msg_status': msg_status, 'bad_msgs': bad_msgs,
            'last_tick': tick, 'snapshot_digests': digests}
