"""Net message field decoding driven by msgtable.json (made from net-messages.md by gen_msgtable.py).

net-messages.md, Framing: the first int is id << 1 | system; id 0 is followed by a UUID naming the message;
then the fields in table order. "UUID messages of ddnet-0.6": a 0.7 connection to a DDNet server carries
ddnet-0.6's UUID messages, so a UUID the 0.7 table lacks is looked up in the 0.6 table.
"Messages in demos are padded": a demo message ends in 0 to 3 zero bytes that are not part of it; fewer
than 4 zero bytes where an optional field would start are padding; fields that run to the end drop their
padding by the page's rule (counts / nonempty)."""
import json, os, re
from varint import Unpacker
TABLE = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'msgtable.json')))

def lookup(proto, key):
    spec = TABLE[proto].get(key)
    if spec is None and proto == '0.7' and ':uuid:' in key:
        spec = TABLE['0.6'].get(key)
    return spec

def drop_padding(items, rng, zero):
    """net-messages.md: padding shows as up to 3 last items that are each the single byte 0. nonempty: drop
    all of them; counts: drop the most of them (3, else 2, else 1) that leaves a listed count; else none."""
    zeros = 0
    while zeros < 3 and zeros < len(items) and items[len(items) - 1 - zeros] == zero:
        zeros += 1
    if 'nonempty' in rng:
        return zeros
    m = re.search(r'counts ([\d, ]+)', rng)
    if m:
        counts = [int(x) for x in m.group(1).split(',')]
        for k in (3, 2, 1):
            if k <= zeros and len(items) - k in counts:
                return k
    return 0

def decode(msg, proto, padded):
    u = Unpacker(msg)
    m = u.int(); sys_ = m & 1; mid = m >> 1
    kind = 'sys' if sys_ else 'game'
    if mid == 0:
        key = kind + ':uuid:' + u.raw(16).hex()
    else:
        key = kind + ':' + str(mid)
    spec = lookup(proto, key)
    if spec is None:
        return key, None, 'unknown'
    vals = {}
    for name, typ, rng in spec['fields']:
        rest = msg[u.pos:]
        if 'optional' in rng and (not rest or (padded and len(rest) < 4 and not any(rest))):
            break
        count_field = re.search(r'`(\w+)`', typ)
        if typ in ('int', 'tick (int)') or typ.startswith('bool (int') or typ.startswith('int ('):
            vals[name] = u.int()
        elif typ == 'string':
            vals[name] = u.str()
        elif typ.startswith('UUID'):
            vals[name] = u.raw(16)
        elif re.fullmatch(r'\d+ (ints|strings|bytes)', typ):
            n, what = typ.split()
            n = int(n)
            vals[name] = u.raw(n) if what == 'bytes' else [u.int() if what == 'ints' else u.str() for _ in range(n)]
        elif typ.startswith('bytes (`'):
            vals[name] = u.raw(vals[count_field.group(1)])
        elif typ.startswith('ints (`'):
            n = vals[count_field.group(1)]
            d = re.search(r'/ (\d+) of them', typ)
            if d:
                n //= int(d.group(1))
            vals[name] = [u.int() for _ in range(n)]
        elif typ.startswith('strings (`'):
            vals[name] = [u.str() for _ in range(vals[count_field.group(1)])]
        elif typ.startswith('ints (count by `'):
            f = re.search(r'`(\w+)`: ([\d, ]+)\)', typ)
            counts = [int(x) for x in f.group(2).split(',')]
            vals[name] = [u.int() for _ in range(counts[vals[f.group(1)]])]
        elif typ == 'bytes to the end':
            vals[name] = u.raw(u.left())
        elif typ in ('ints to the end', 'strings to the end'):
            items = []
            while u.left():
                items.append(u.int() if typ.startswith('ints') else u.str())
            if padded:
                k = drop_padding(items, rng, 0 if typ.startswith('ints') else b'')
                if k:
                    items = items[:-k]; u.pos -= k   # each dropped item was the single byte 0
            vals[name] = items
        else:
            raise ValueError('unhandled field type ' + typ)
    rest = msg[u.pos:]
    status = 'ok' if not rest else ('ok_padded' if padded and not any(rest) and len(rest) < 4 else 'trailing:%d' % len(rest))
    return spec['name'], vals, status
