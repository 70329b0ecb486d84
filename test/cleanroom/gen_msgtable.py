"""Build msgtable.json from the net-messages.md doc page (run once; output committed)."""
import re, json, sys
src = sys.argv[1] if len(sys.argv) > 1 else '/work/cleanroom-docs/net-messages.md'
proto = None; kind = None; cur = None; out = {'0.6': {}, '0.7': {}}
for line in open(src):
    if line.startswith('## ddnet-0.6'): proto = '0.6'
    elif line.startswith('## teeworlds-0.7'): proto = '0.7'
    elif line.startswith('### '):
        h = line[4:].strip()
        kind = 'sys' if h.startswith('System') else 'game' if h.startswith('Game') else None
        if 'UUID messages of' in h: kind = None
        cur = None
    elif line.startswith('#### ') and proto and kind:
        cur = {'name': line[5:].strip(), 'fields': []}
    elif cur is not None and ('first int' in line):
        m = re.search(r'Id (\d+), first int', line)
        u = re.search(r'UUID name `([^`]+)` \(`([0-9a-f-]+)`\)', line)
        key = kind + ':' + (m.group(1) if m else 'uuid:' + u.group(2).replace('-', ''))
        out[proto][key] = cur
    elif cur is not None and line.startswith('| `'):
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        cur['fields'].append([cells[0].strip('`'), cells[1]])
json.dump(out, open('msgtable.json', 'w'), indent=0)
print({p: len(v) for p, v in out.items()})
