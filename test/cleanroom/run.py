#!/usr/bin/env python3
"""Run every clean-room decoder on a corpus directory."""
import sys, os, json, traceback
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

def main():
    root = sys.argv[1] if len(sys.argv) > 1 else '/work/shared/corpus'
    only = sys.argv[2].split(',') if len(sys.argv) > 2 else None
    handlers = []
    import mapfile
    handlers.append(('map', '.map', mapfile.decode))
    for mod, ext in (('teehistorian', '.teehistorian'), ('demo', '.demo'), ('pcap', '.pcap')):
        try:
            m = __import__(mod)
            handlers.append((mod, ext, m.decode))
        except ImportError:
            pass
    summary = {}
    fail = 0
    for dp, dn, fn in sorted(os.walk(root)):
        dn.sort()
        for f in sorted(fn):
            for name, ext, fnc in handlers:
                if only and name not in only: continue
                if f.endswith(ext):
                    p = os.path.join(dp, f)
                    s = summary.setdefault(name, {'ok': 0, 'total': 0})
                    s['total'] += 1
                    try:
                        r = fnc(open(p, 'rb').read())
                        s['ok'] += 1
                        for k in ('snap_crc_ok', 'snap_crc_total'):
                            if k in r: s[k] = s.get(k, 0) + r[k]
                        if 'snapshot_digests' in r:
                            s['snapshot_digests'] = s.get('snapshot_digests', 0) + len(r['snapshot_digests'])
                        print(json.dumps({'file': os.path.relpath(p, root), 'format': name, 'ok': True, 'result': r}))
                    except Exception as e:
                        fail += 1
                        print(json.dumps({'file': os.path.relpath(p, root), 'format': name, 'ok': False,
                                          'error': repr(e), 'where': traceback.format_exc().splitlines()[-3:]}))
    print(json.dumps({'summary': summary}))
    sys.exit(1 if fail else 0)

if __name__ == '__main__':
    main()
