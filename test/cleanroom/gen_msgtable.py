"""Build msgtable.json from docs/formats/net-messages.md (run after the page changes; the output is committed).

Each message: its name and its fields as [name, type, range] taken from the page's tables, keyed by
'sys:' or 'game:' (the heading it is under) and its id, or 'uuid:' and its UUID's hex."""
import re, json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', '..', 'docs', 'formats', 'net-messages.md')
proto = None; kind = None; cur = None; out = {'0.6': {}, '0.7': {}}
for line in open(src, encoding='utf-8'):
    if line.startswith('## '):
        h = line[3:].strip()
        proto = '0.6' if h == 'ddnet-0.6' else '0.7' if h == 'teeworlds-0.7' else None
        kind = None; cur = None
    elif line.startswith('### '):
        h = line[4:].strip()
        kind = 'sys' if h.startswith('System messages') else 'game' if h.startswith('Game messages') else None
        cur = None
    elif line.startswith('#### ') and proto and kind:
        cur = {'name': line[5:].strip(), 'fields': []}
    elif cur is not None and 'first int' in line and '(' in line and not line.startswith('|'):
        m = re.search(r'\(id (\d+); first int', line)
        u = re.search(r'UUID name `([^`]+)` \(`([0-9a-f-]+)`\)', line)
        key = kind + ':' + (m.group(1) if m else 'uuid:' + u.group(2).replace('-', ''))
        assert key not in out[proto], key
        out[proto][key] = cur
    elif cur is not None and line.startswith('| `'):
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        cur['fields'].append([cells[0].strip('`'), cells[1], cells[2]])
json.dump(out, open(os.path.join(here, 'msgtable.json'), 'w'), indent=0)
print({p: len(v) for p, v in out.items()})
