"""Clean-room teehistorian decoder (docs/formats/teehistorian.md)."""
import json
import netmsg
from datafile import uuid_of
from varint import Unpacker

TH_UUID = bytes.fromhex('699db17b8efb34ffb1d8da6f60c15dd1')
EX = {}
for name, fields in [
    ('teehistorian-antibot@ddnet.org', 'rest'), ('teehistorian-auth-init@ddnet.tw', 'iis'),
    ('teehistorian-auth-login@ddnet.tw', 'iis'), ('teehistorian-auth-logout@ddnet.tw', 'i'),
    ('teehistorian-ddnetver@ddnet.tw', 'iuis'), ('teehistorian-ddnetver-old@ddnet.tw', 'ii'),
    ('teehistorian-joinver6@ddnet.tw', 'i'), ('teehistorian-joinver7@ddnet.tw', 'i'),
    ('teehistorian-load-failure@ddnet.tw', 'i'), ('teehistorian-load-success@ddnet.tw', 'ius'),
    ('teehistorian-player-finish@ddnet.org', 'ii'), ('teehistorian-player-name@ddnet.org', 'is'),
    ('teehistorian-player-ready@ddnet.tw', 'i'), ('teehistorian-player-swap@ddnet.tw', 'ii'),
    ('teehistorian-player-team@ddnet.tw', 'ii'), ('teehistorian-rejoinver6@ddnet.org', 'i'),
    ('teehistorian-save-failure@ddnet.tw', 'i'), ('teehistorian-save-success@ddnet.tw', 'ius'),
    ('teehistorian-team-finish@ddnet.org', 'ii'), ('teehistorian-team-practice@ddnet.tw', 'ii'),
    ('teehistorian-test@ddnet.tw', '')]:
    EX[uuid_of(name)] = (name.split('@')[0][len('teehistorian-'):], fields)

def decode(buf):
    assert buf[:16] == TH_UUID, 'magic'
    e = buf.index(b'\0', 16)
    header = json.loads(buf[16:e].decode())
    u = Unpacker(buf, e + 1)
    counts = {}
    ex_counts = {}
    tick = 0; last_cid = None; skip_started = False
    finished = False
    proto_of = {}           # cid -> '0.6' / '0.7' from joinver6 / joinver7 (teehistorian.md, MESSAGE)
    msg_status = {}
    while u.left():
        m = u.int()
        if m >= 0 or m in (-3, -4):
            cid = m if m >= 0 else u.int()
            if m >= 0: u.int(); u.int(); k = 'PLAYER_DIFF'
            elif m == -3: u.int(); u.int(); k = 'PLAYER_NEW'
            else: k = 'PLAYER_OLD'
            if skip_started:
                skip_started = False
            elif last_cid is not None and cid <= last_cid:
                tick += 1
            last_cid = cid
        elif m == -1:
            k = 'FINISH'; finished = True
        elif m == -2:
            dt = u.int(); tick += dt + 1; skip_started = True; last_cid = None; k = 'TICK_SKIP'
        elif m in (-5, -6):
            u.int(); [u.int() for _ in range(10)]; k = 'INPUT_DIFF' if m == -5 else 'INPUT_NEW'
        elif m == -7:
            cid = u.int(); n = u.int(); data = u.raw(n); k = 'MESSAGE'
            assert data[0] & 1 == 0, 'only game messages are recorded'
            name, vals, status = netmsg.decode(data, proto_of.get(cid, '0.6'), False)
            key = name + ':' + status
            msg_status[key] = msg_status.get(key, 0) + 1
        elif m == -8:
            u.int(); k = 'JOIN'
        elif m == -9:
            u.int(); u.str(); k = 'DROP'
        elif m == -10:
            u.int(); u.int(); u.str(); n = u.int(); [u.str() for _ in range(n)]; k = 'CONSOLE_COMMAND'
        elif m == -11:
            uid = u.raw(16); n = u.int(); data = u.raw(n); k = 'EX'
            name, fields = EX.get(uid, ('unknown:' + uid.hex(), None))
            if name in ('joinver6', 'joinver7'):
                proto_of[Unpacker(data).int()] = '0.6' if name == 'joinver6' else '0.7'
            if fields is not None and fields != 'rest':
                p = Unpacker(data)
                for f in fields:
                    if f == 'i': p.int()
                    elif f == 's': p.str()
                    elif f == 'u': p.raw(16)
                assert p.left() == 0, ('ex payload', name, p.left())
            ex_counts[name] = ex_counts.get(name, 0) + 1
        else:
            raise ValueError('unknown message %d at %d' % (m, u.pos))
        counts[k] = counts.get(k, 0) + 1
        if finished:
            break
    assert finished, 'no FINISH'
    return {'version': header.get('version'), 'version_minor': header.get('version_minor'),
            'map': header.get('map_name'), 'ticks': tick + 1, 'trailing': u.left(),
            'messages': counts, 'ex': ex_counts, 'client_messages': msg_status}
