"""Net message field decoding driven by msgtable.json (from net-messages.md)."""
import json, os, re
from varint import Unpacker
TABLE = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'msgtable.json')))

def decode(msg, proto, padded):
    u = Unpacker(msg)
    m = u.int(); sys_ = m & 1; mid = m >> 1
    kind = 'sys' if sys_ else 'game'
    if mid == 0:
        key = kind + ':uuid:' + u.raw(16).hex()
    else:
        key = kind + ':' + str(mid)
    spec = TABLE[proto].get(key)
    if spec is None:
        return key, None, 'unknown'
    vals = {}
    for name, k in spec['fields']:
        rest = msg[u.pos:]
        if 'optional' in k and (not rest or (padded and len(rest) < 4 and not any(rest))):
            break
        if re.match(r'(int|tick|bool)\b', k) and 'ints' not in k.split(';')[0]:
            vals[name] = u.int()
        elif k.startswith('string'):
            vals[name] = u.str()
        elif k.startswith('UUID'):
            vals[name] = u.raw(16)
        elif re.match(r'\d+ strings', k):
            vals[name] = [u.str() for _ in range(int(k.split()[0]))]
        elif re.match(r'\d+ ints', k):
            vals[name] = [u.int() for _ in range(int(k.split()[0]))]
        elif re.match(r'\d+ bytes', k):
            vals[name] = u.raw(int(k.split()[0]))
        elif k.startswith('bytes (`'):
            vals[name] = u.raw(vals[re.search(r'`(\w+)`', k).group(1)])
        elif k.startswith('ints (`'):
            f = re.search(r'`(\w+)`', k).group(1)
            n = vals[f] // 4 if '/ 4' in k else vals[f]
            vals[name] = [u.int() for _ in range(n)]
        elif k.startswith('strings (`'):
            vals[name] = [u.str() for _ in range(vals[re.search(r'`(\w+)`', k).group(1)])]
        elif k.startswith('ints (by `'):
            f = re.search(r'`(\w+)`: ([\d, ]+)\)', k)
            counts = [int(x) for x in f.group(2).split(',')]
            vals[name] = [u.int() for _ in range(counts[vals[f.group(1)]])]
        elif 'to the end' in k:
            if k.startswith('bytes'):
                vals[name] = u.raw(u.left())
            elif k.startswith('ints'):
                l = []
                w = re.search(r'senders write ([\d or]+)', k)
                minimum = min(int(x) for x in w.group(1).split(' or ')) if w else 0
                while u.left() and not (padded and len(l) >= minimum and not any(msg[u.pos:])):
                    l.append(u.int())
                vals[name] = l
            else:
                l = []
                while u.left() and not (padded and not any(msg[u.pos:])):
                    l.append(u.str())
                vals[name] = l
        else:
            raise ValueError('unhandled kind ' + k)
    rest = msg[u.pos:]
    status = 'ok' if not rest else ('ok_padded' if padded and not any(rest) and len(rest) < 4 else 'trailing:%d' % len(rest))
    return spec['name'], vals, status
