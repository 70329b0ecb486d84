// Byte layouts of the stream formats (demos and teehistorian files), from the readers' chunk and message offsets.
// Long files have many thousands of entries: they are grouped in runs so that the tree stays small.
import { readDemo } from '@twcodec/demo';
import { parseHeader, readTeehistorian } from '@twcodec/teehistorian';
import type { LayoutNode } from './layout.js';

const GROUP = 500;

function grouped(label: string, nodes: LayoutNode[], description: string): LayoutNode {
  const start = nodes[0]?.start ?? 0;
  const end = nodes[nodes.length - 1]?.end ?? start;
  if (nodes.length <= GROUP) return { label, start, end, description, children: nodes };
  const children: LayoutNode[] = [];
  for (let i = 0; i < nodes.length; i += GROUP) {
    const run = nodes.slice(i, i + GROUP);
    children.push({ label: `${run[0]!.label} … ${run[run.length - 1]!.label}`, start: run[0]!.start, end: run[run.length - 1]!.end, children: run });
  }
  return { label, start, end, description, children };
}

/** A demo: header, timeline markers, map, then the chunks by tick (format: docs/formats/demo.md). */
export function demoLayout(bytes: Uint8Array): LayoutNode {
  const demo = readDemo(bytes);
  const h = demo.header;
  const header: LayoutNode = {
    label: 'header',
    start: 0,
    end: 180,
    description: 'Fixed 180-byte header; integers are big-endian.',
    children: [
      { label: 'marker', start: 0, end: 7, type: 'char[7]', value: '"TWDEMO\\0"', description: 'Identifies a demo.' },
      { label: 'version', start: 7, end: 8, type: 'u8', value: String(h.version), description: 'Demo format version: 6 in current DDNet, 3 to 5 in older recorders.' },
      { label: 'net_version', start: 8, end: 72, type: 'char[64]', value: JSON.stringify(h.netVersion), description: 'Network protocol of the recording.' },
      { label: 'map_name', start: 72, end: 136, type: 'char[64]', value: JSON.stringify(h.mapName), description: 'Name of the map played.' },
      { label: 'map_size', start: 136, end: 140, type: 'u32be', value: String(h.mapSize), description: 'Bytes of the embedded map (0: not embedded).' },
      { label: 'map_crc', start: 140, end: 144, type: 'u32be', value: h.mapCrc, description: 'CRC32 of the map file.' },
      { label: 'type', start: 144, end: 152, type: 'char[8]', value: JSON.stringify(h.type), description: '"client" or "server" recording.' },
      { label: 'length', start: 152, end: 156, type: 'u32be', value: `${h.length} s`, description: 'Length in seconds, filled in when recording stops.' },
      { label: 'timestamp', start: 156, end: 176, type: 'char[20]', value: JSON.stringify(h.timestamp), description: 'When recording started.' },
      { label: 'reserved', start: 176, end: 180, type: 'bytes', description: 'Unused.' },
    ],
  };
  const root: LayoutNode = { label: 'demo', start: 0, end: bytes.length, children: [header] };
  let at = 180;
  if (h.version > 3) {
    root.children!.push({ label: 'timeline_markers', start: at, end: at + 260, type: 'i32be[65]', value: h.timelineMarkers.join(', ') || 'none', description: 'Number of markers, then 64 marker ticks.' });
    at += 260;
  }
  if (h.mapSha256) {
    root.children!.push({ label: 'map_sha256', start: at, end: at + 48, type: 'uuid + 32 bytes', value: h.mapSha256, description: 'DDNet extension: a UUID saying a SHA-256 of the map follows, then the hash.' });
    at += 48;
  }
  if (demo.map) root.children!.push({ label: 'map', start: at, end: at + demo.map.length, type: 'datafile', value: `${demo.map.length} bytes`, description: 'The embedded map file (open it on its own to see its items).' });
  const ticks: LayoutNode[] = [];
  let current: LayoutNode | undefined;
  let previous: { node: LayoutNode } | undefined;
  for (const c of demo.chunks()) {
    if (previous) previous.node.end = c.offset;
    let node: LayoutNode;
    if (c.kind === 'tick') {
      node = { label: c.keyframe ? 'tick marker (keyframe)' : 'tick marker', start: c.offset, end: c.offset, type: 'chunk', value: String(c.tick), description: 'Starts a tick: a compressed tick delta in the flag byte, or a 4-byte absolute tick.' };
      current = { label: `tick ${c.tick}`, start: c.offset, end: c.offset, children: [node] };
      ticks.push(current);
    } else {
      const what = { snapshot: 'Full snapshot (keyframe): Huffman-compressed, variable-width ints.', delta: 'Snapshot delta against the previous recorded snapshot.', message: 'A network message the client received.' }[c.kind];
      node = { label: c.kind, start: c.offset, end: c.offset, type: 'chunk', value: `${c.storedSize} bytes stored`, description: what };
      if (current) current.children!.push(node);
      else ticks.push(node);
    }
    previous = { node };
  }
  if (previous) previous.node.end = bytes.length;
  for (const t of ticks) if (t.children?.length) t.end = t.children[t.children.length - 1]!.end;
  root.children!.push(grouped('chunks', ticks, 'Chunks by tick: tick markers, snapshots or deltas, messages.'));
  return root;
}

/** A teehistorian file: the header (UUID, JSON) then its messages by tick. */
export function teehistorianLayout(bytes: Uint8Array, docs: Record<string, string>): LayoutNode {
  const reader = readTeehistorian(bytes);
  const headerEnd = parseHeader(bytes, true)!.size;
  const root: LayoutNode = {
    label: 'teehistorian',
    start: 0,
    end: bytes.length,
    children: [
      { label: 'uuid', start: 0, end: 16, type: 'uuid', value: '699db17b-8efb-34ff-b1d8-da6f60c15dd1', description: 'Identifies a teehistorian file.' },
      { label: 'header', start: 16, end: headerEnd, type: 'json', value: `${Object.keys(reader.header).length} keys`, description: 'Server settings and map as NUL-terminated JSON.' },
    ],
  };
  const messages: LayoutNode[] = [];
  for (const m of reader) {
    const last = messages[messages.length - 1];
    if (last) last.end = m.offset;
    const name = m.kind.startsWith('EX:') ? m.kind.slice(3) : m.kind;
    messages.push({ label: `${m.tick}: ${m.kind}`, start: m.offset, end: m.offset, type: m.kind, value: summary(m), description: docs[name] ?? '' });
  }
  const last = messages[messages.length - 1];
  if (last) last.end = reader.end?.offset ?? bytes.length;
  root.children!.push(grouped('messages', messages, 'Messages, each starting with a variable-width int (a client id, or minus a message id).'));
  return root;
}

function summary(m: object): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(m)) {
    if (k === 'kind' || k === 'offset' || k === 'tick') continue;
    parts.push(`${k}=${v instanceof Uint8Array ? `${v.length} bytes` : typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
    if (parts.length >= 6) break;
  }
  return parts.join(' ');
}
