// Writes docs/formats/examples.md: for each format, a hex excerpt of a real file (the repo's fixtures) with
// its fields decoded by the packages. Run: npm run docs:examples
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Datafile } from '@twcodec/datafile';
import { ByteReader, decodeI32String, TEEWORLDS_FREQUENCIES, teeworldsHuffman, varIntSize } from '@twcodec/runtime';
import { decodeGroupItem, decodeLayerItem, readMap } from '@twcodec/map';
import { decodeClientMessage, readTeehistorian, TEEHISTORIAN_UUID_NAME } from '@twcodec/teehistorian';
import { demoMessages, readDemo } from '@twcodec/demo';
import { DDNET_0_6_MESSAGES, netMessageDef } from '@twcodec/netmsg';
import { DDNET_0_6, sizeTable, snapshotObjects, TEEWORLDS_0_7 } from '@twcodec/snapshot';
import { decodePacket, readCapture, udpOf } from '@twcodec/net';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixture = (p) => new Uint8Array(readFileSync(join(root, 'fixtures', p)));
const hex = (bytes, start, end) => {
  const lines = [];
  for (let at = start; at < end; at += 16) {
    const row = Array.from(bytes.subarray(at, Math.min(end, at + 16)), (b) => b.toString(16).padStart(2, '0'));
    lines.push(`${at.toString(16).padStart(8, '0')}  ${row.join(' ')}`);
  }
  return ['```', ...lines, '```'].join('\n');
};
const table = (rows) => ['| bytes | field | value |', '| --- | --- | --- |', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const out = ['<!-- Written by scripts/examples.mjs (npm run docs:examples) from the files in fixtures/. -->', '', '# Worked examples', '',
  'Each format on a real file from `fixtures/`: the bytes, then what they mean.', ''];

// Datafile: the header of Teeworlds' ctf1.map.
{
  const bytes = fixture('maps/ctf1.map');
  const v = new DataView(bytes.buffer);
  const names = ['version', 'size', 'swaplen', 'num_item_types', 'num_items', 'num_data', 'item_size', 'data_size'];
  const df = Datafile.read(bytes);
  out.push('## Datafile', '', '`fixtures/maps/ctf1.map` (Teeworlds 0.7), the 36-byte header and the first item type:', '', hex(bytes, 0, 48), '',
    table([['0-3', 'magic', '`DATA`'], ...names.map((n, i) => [`${4 + i * 4}-${7 + i * 4}`, n, String(v.getInt32(4 + i * 4, true))]),
      ['36-47', 'item_types[0]', `type ${v.getInt32(36, true)}, start ${v.getInt32(40, true)}, num ${v.getInt32(44, true)}`]]), '',
    `size + 16 = ${v.getInt32(8, true) + 16} = the file size ${bytes.length}; the file has ${df.items.length} items and ${df.data.length} data items.`, '');
}

// Map: a group item of dm7.
{
  const bytes = fixture('maps/coverage.map');
  const df = Datafile.read(bytes);
  const item = df.items.filter((i) => i.type === 4).at(-1);
  const group = decodeGroupItem(item.data);
  const at = item.offset - 8;
  out.push('## Map', '', `A group item of \`fixtures/maps/coverage.map\` (DDNet) at byte ${at}: the key (type 4 << 16 | id ${item.id}), the size, then ${item.data.length} i32:`, '',
    hex(bytes, at, at + 8 + item.data.length * 4), '',
    table([
      [`${at}-${at + 3}`, 'key', `0x${((item.type << 16) | item.id).toString(16)} (type 4 = group, id ${item.id})`],
      [`${at + 4}-${at + 7}`, 'size', String(item.data.length * 4)],
      ...Object.entries(group).map(([k, val]) => ['', k, JSON.stringify(val)]),
    ]), '', group.name === undefined ? '' : `The name is an I32String: ints ${Array.from(item.data.subarray(item.data.length - 3), (x) => `0x${(x >>> 0).toString(16)}`).join(', ')} read big-endian, minus 128 per byte: "${decodeI32String(item.data, item.data.length - 3, 3)}".`, '');
  const map = readMap(bytes);
  out.push(`The map model: ${map.groups.length} groups, ${map.groups.reduce((s, g) => s + g.layers.length, 0)} layers, ${map.images.length} images, ${map.envelopes.length} envelopes.`, '');
}

// Map layers: a DDNet tele layer (tilemap version 3) and its tiles, a Teeworlds 0.7 game layer (version 4,
// skip-compressed tiles), a version-1 quads layer.
{
  const widths = { color: 4, name: 3 };
  const layerRows = (item) => {
    const rows = [];
    let at = 0;
    for (const [k, val] of Object.entries(decodeLayerItem(item.data))) {
      if (k === 'kind') continue;
      const n = widths[k] ?? 1;
      rows.push([`${at}${n > 1 ? `-${at + n - 1}` : ''}`, k, typeof val === 'object' ? Object.values(val).join(', ') : JSON.stringify(val)]);
      at += n;
    }
    return ['| int | field | value |', '| --- | --- | --- |', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  };
  const itemHex = (bytes, item) => hex(bytes, item.offset - 8, item.offset + item.data.length * 4);
  const layer = (df, test) => df.items.find((i) => i.type === 5 && test(i.data));

  const cov = fixture('maps/coverage.map');
  const covDf = Datafile.read(cov);
  const tele = layer(covDf, (d) => d[1] === 2 && d[6] === 2);
  const teleTiles = covDf.data[tele.data[18]].bytes();
  const firstTele = teleTiles.findIndex((b, i) => i % 2 === 0 && b !== 0);
  out.push('### Map: a tilemap layer and its tiles', '', `The tele layer of \`fixtures/maps/coverage.map\` (layer item id ${tele.id}, ${tele.data.length} ints, at byte ${tele.offset - 8} with its 8-byte item header):`, '',
    itemHex(cov, tele), '', layerRows(tele), '',
    `Its tiles are in data item ${tele.data[18]} (\`data_tele\`, int 18), ${teleTiles.length} bytes inflated = ${tele.data[4]} x ${tele.data[5]} tele tiles of 2 bytes (number, id); \`data\` (int 14, data item ${tele.data[14]}) holds ${covDf.data[tele.data[14]].bytes().length} bytes${covDf.data[tele.data[14]].bytes().every((b) => b === 0) ? ', all zero,' : ''} for Teeworlds. The first tile that is not empty, tile ${firstTele / 2} (x ${(firstTele / 2) % tele.data[4]}, y ${Math.floor(firstTele / 2 / tele.data[4])}):`, '',
    hex(teleTiles, firstTele - (firstTele % 16), firstTele - (firstTele % 16) + 16), '',
    `Bytes ${firstTele}-${firstTele + 1}: number ${teleTiles[firstTele]}, id ${teleTiles[firstTele + 1]} (tele ids: [map-tiles.md](map-tiles.md)).`, '');

  const ctf = fixture('maps/ctf1.map');
  const ctfDf = Datafile.read(ctf);
  const game = layer(ctfDf, (d) => d[1] === 2 && d[3] === 4 && d[6] === 1);
  const packed = ctfDf.data[game.data[14]].bytes();
  const runs = [];
  for (let i = 0, tile = 0; i < 16; i += 4) { runs.push(`bytes ${i}-${i + 3}: id ${packed[i]}, flags ${packed[i + 1]}, skip ${packed[i + 2]} = tiles ${tile} to ${tile + packed[i + 2]}`); tile += packed[i + 2] + 1; }
  let expanded = 0;
  for (let i = 0; i < packed.length; i += 4) expanded += packed[i + 2] + 1;
  out.push('### Map: Teeworlds 0.7 tile compression', '', `The game layer of \`fixtures/maps/ctf1.map\` (tilemap version ${game.data[3]}, ${game.data[4]} x ${game.data[5]}): data item ${game.data[14]} inflates to ${packed.length} bytes, ${packed.length / 4} stored tiles that expand to ${expanded} = ${game.data[4]} x ${game.data[5]} tiles. The first four stored tiles:`, '',
    hex(packed, 0, 16), '', ...runs.map((r) => `- ${r}`), '');

  const dm7 = fixture('maps/dm7-legacy-size.map');
  const quads = layer(Datafile.read(dm7), (d) => d[1] === 3 && d[3] === 1);
  out.push('### Map: a quads layer of version 1', '', `\`fixtures/maps/dm7-legacy-size.map\`, layer item id ${quads.id}: version 1, ${quads.data.length} ints, no name:`, '',
    itemHex(dm7, quads), '', layerRows(quads), '');
}

// Teehistorian: the UUID, the start of the JSON header, the first messages.
{
  const bytes = fixture('teehistorian/ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian');
  const reader = readTeehistorian(bytes);
  const messages = [...reader].slice(0, 6);
  out.push('## Teehistorian', '', `\`fixtures/teehistorian/ctf2_….teehistorian\`: the UUID of \`${TEEHISTORIAN_UUID_NAME}\` and the start of the JSON header:`, '', hex(bytes, 0, 48), '');
  const first = messages[0].offset;
  const end = messages[5].offset + 8;
  out.push(`The first messages, from byte ${first}:`, '', hex(bytes, first, end), '', table(messages.map((m) => {
    const r = new ByteReader(bytes, m.offset);
    const { tick, offset, ...fields } = m;
    return [`${offset}`, `tick ${tick}`, `\`${JSON.stringify(fields, (k, v) => (v instanceof Uint8Array ? `${v.length} bytes` : v))}\` (first int ${r.readVarInt()})`];
  })), '');
}

// Teehistorian records byte by byte: an EX record (UUID, length, payload) and a MESSAGE record, whose payload is
// a client's packed game message (first int id << 1 | system, as in net-messages.md).
{
  const bytes = fixture('teehistorian/ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian');
  const messages = [...readTeehistorian(bytes)];
  const ex = messages.find((m) => m.kind.startsWith('EX:'));
  const msg = messages.find((m) => m.kind === 'MESSAGE');
  const int = (r, name, note) => {
    const at = r.pos;
    const v = r.readVarInt();
    return [`${at}-${r.pos - 1}`, name, `${v}${note ? ` ${note(v)}` : ''}`];
  };
  const uuidHex = (r) => Array.from(r.readBytes(16), (b) => b.toString(16).padStart(2, '0')).join('');
  let r = new ByteReader(bytes, ex.offset);
  const exRows = [int(r, 'message id', (v) => `(EX is ${-v})`)];
  let at = r.pos;
  exRows.push([`${at}-${at + 15}`, 'UUID', `\`${uuidHex(r)}\` (${ex.kind.slice(3)})`]);
  exRows.push(int(r, 'payload length'));
  exRows.push(int(r, 'payload: cid'));
  out.push('### An EX record and a MESSAGE record', '', `The \`${ex.kind}\` record at byte ${ex.offset}:`, '', hex(bytes, ex.offset, r.pos), '', table(exRows), '');
  r = new ByteReader(bytes, msg.offset);
  const rows = [int(r, 'message id', (v) => `(MESSAGE is ${-v})`), int(r, 'cid'), int(r, 'length', (v) => 'bytes of net message follow')];
  const start = r.pos;
  const net = decodeClientMessage(msg);
  rows.push(int(r, 'net: first int', (v) => `= ${v >> 1} << 1 \\| ${v & 1}: game message ${v >> 1} = ${net.kind}`));
  for (const f of netMessageDef(DDNET_0_6_MESSAGES, net.kind).fields) {
    at = r.pos;
    const value = f.type === 'string' ? JSON.stringify(r.readCString()) : String(r.readVarInt());
    rows.push([`${at}-${r.pos - 1}`, `net: ${f.name}`, value]);
  }
  out.push(`The first MESSAGE record, at byte ${msg.offset}: client ${msg.cid} sent ${msg.data.length} bytes (no padding: they end at byte ${start + msg.data.length - 1})`, '', hex(bytes, msg.offset, r.pos), '', table(rows), '');
}

// Demo and snapshot: the header and the first snapshot of a server demo.
{
  const bytes = fixture('demos/ctf2_server_Alpha_server_manual.demo');
  const demo = readDemo(bytes);
  const h = demo.header;
  out.push('## Demo', '', '`fixtures/demos/ctf2_server_Alpha_server_manual.demo`, the first 176 bytes (header):', '', hex(bytes, 0, 176), '',
    table([['0-6', 'marker', '`TWDEMO\\0`'], ['7', 'version', String(h.version)], ['8-71', 'net version', h.netVersion], ['72-135', 'map name', h.mapName],
      ['136-139', 'map size', String(h.mapSize)], ['140-143', 'map crc', h.mapCrc], ['144-151', 'type', h.type], ['152-155', 'length', `${h.length} s`], ['156-175', 'timestamp', h.timestamp]]), '');
  const chunks = [...demo.chunks()];
  const firstChunk = chunks[0];
  const tick = chunks.find((c) => c.kind === 'tick');
  const snap = chunks.find((c) => c.kind === 'snapshot');
  const describe = (c) => c.kind === 'tick'
    ? `tick marker${c.keyframe ? ', keyframe' : ''}, tick ${c.tick}`
    : `data chunk type ${(bytes[c.offset] & 0x60) >> 5} (${c.kind}), ${c.storedSize} bytes of Huffman-coded varints`;
  out.push(`Then timeline markers, the map's SHA-256 and the map; chunks start at byte ${demo.chunksOffset}:`, '', hex(bytes, demo.chunksOffset, demo.chunksOffset + 16), '',
    ...[firstChunk, tick, snap].map((c) => `- byte ${c.offset}: 0x${bytes[c.offset].toString(16)} = ${describe(c)}`), '');
  const [first] = demo.snapshots();
  const ints = first.snapshot.toInts();
  out.push('## Snapshot', '', `That snapshot decoded: ${ints.length} i32, data_size ${ints[0]}, ${ints[1]} items, checksum ${first.snapshot.checksum()}. The first items:`, '',
    table(first.snapshot.items.slice(0, 6).map((it, i) => [`item ${i}`, `type ${it.type}, id ${it.id}`, Array.from(it.data).join(', ')])), '',
    ...(() => {
      const uuid = first.snapshot.uuidTypes().get(0x7fff);
      const known = DDNET_0_6.uuidItems.find((u) => u.uuid === uuid);
      return [`Type 0 items declare UUID types: item 0 says type 0x7fff (32767) stands for the UUID whose bytes are its 4 ints read big-endian, ${uuid}${known ? ` = \`${known.uuidName}\` (${known.name})` : ''}; item 4 is such an item.`, ''];
    })());
  // The same snapshot through the generated layouts (docs/formats/snapshot.md has every table).
  const objects = snapshotObjects(first.snapshot, DDNET_0_6);
  const fieldRows = (view) =>
    view.layout.fields.map((f) => {
      const key = f.name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
      const ints = Array.from(view.item.data.subarray(f.offset, f.offset + f.ints)).join(', ');
      const value = view[key];
      const shown = typeof value === 'string' ? `"${value}"` : ArrayBuffer.isView(value) ? `[${Array.from(value).join(', ')}]` : String(value);
      return [`${f.offset}${f.ints > 1 ? `-${f.offset + f.ints - 1}` : ''}`, `${f.name} (${f.kind}${f.scale ? ` /${f.scale}` : ''})`, ints, shown];
    });
  const fieldTable = (view) => ['| i32 | field (type) | ints | value |', '| --- | --- | --- | --- |', ...fieldRows(view).map((r) => `| ${r.join(' | ')} |`)].join('\n');
  const [info] = objects.items('client_info');
  const [character] = objects.items('character');
  const [ddnetCharacter] = objects.items('ddnet_character');
  out.push('## Snapshot objects', '', `Items read by name with \`snapshotObjects(snapshot, DDNET_0_6).items('client_info')\`: the client info of client ${info.item.id}, its name, clan and skin packed 4 bytes per int (each byte plus 128):`, '',
    fieldTable(info), '', `The character of client ${character.item.id} (the character core's 15 ints, then the character's own):`, '', fieldTable(character), '',
    `Its DDNet character (\`character@netobj.ddnet.tw\`): ${ddnetCharacter.item.data.length} ints, as DDNet 16.4 sends it; \`tuneZoneOverride\` (added in 19.0) is absent and reads DDNet's default, ${ddnetCharacter.tuneZoneOverride}:`, '',
    fieldTable(ddnetCharacter), '');
}

// Snapshot delta: a demo delta chunk taken apart, from the Huffman-coded bytes to the ints and what they do.
{
  const name = 'demos/tw07_client_Charlie_chat.demo';
  const bytes = fixture(name);
  const demo = readDemo(bytes);
  // The smallest delta that deletes items: a few pickups gone, one character updated.
  const chunk = [...demo.chunks()].filter((c) => c.kind === 'delta' && c.ints[0] > 0).sort((a, b) => a.ints.length - b.ints.length)[0];
  const snapshots = [...demo.snapshots()];
  const at = snapshots.findIndex((s) => s.offset === chunk.offset);
  const [before, after] = [snapshots[at - 1].snapshot, snapshots[at].snapshot];
  // The header byte: type in bits 5-6, size in bits 0-4 (30: one more byte holds it, 31: two more).
  const low = bytes[chunk.offset] & 0x1f;
  const headerSize = low < 30 ? 1 : low === 30 ? 2 : 3;
  const stored = bytes.subarray(chunk.offset + headerSize, chunk.offset + headerSize + chunk.storedSize);
  const packed = teeworldsHuffman().decompress(stored, 65536);
  const ints = chunk.ints;
  // Byte ranges of each int in the unpacked (varint) bytes.
  const ranges = [];
  for (let i = 0, pos = 0; i < ints.length; pos += varIntSize(ints[i]), i++) ranges.push([pos, pos + varIntSize(ints[i]) - 1]);
  const span = (from, to) => `${ranges[from][0]}-${ranges[to][1]}`;
  const bytesOf = (i) => Array.from(packed.subarray(ranges[i][0], ranges[i][1] + 1), (b) => b.toString(16).padStart(2, '0')).join(' ');
  const numDeleted = ints[0];
  const rows = [[span(0, 0), 'num_deleted_items', String(ints[0])], [span(1, 1), 'num_updated_items', String(ints[1])], [span(2, 2), 'num_temp_items', String(ints[2])]];
  for (let i = 0; i < numDeleted; i++) {
    const key = ints[3 + i];
    rows.push([span(3 + i, 3 + i), `deleted key ${i}`, `${key} = type ${key >>> 16} (${TEEWORLDS_0_7.items.find((t) => t.typeId === key >>> 16)?.name}), id ${key & 0xffff}`]);
  }
  let p = 3 + numDeleted;
  const type = ints[p];
  const id = ints[p + 1];
  const layout = TEEWORLDS_0_7.items.find((t) => t.typeId === type);
  const size = sizeTable(TEEWORLDS_0_7)[type];
  rows.push([span(p, p), 'update 0: type', `${type} (${layout.name}); its size, ${size} ints, is pre-agreed, so none follows`], [span(p + 1, p + 1), 'update 0: id', String(id)]);
  p += 2;
  const old = before.items.find((it) => it.type === type && it.id === id).data;
  const now = after.items.find((it) => it.type === type && it.id === id).data;
  const changed = [];
  layout.fields.forEach((f) => {
    const k = p + f.offset;
    if (ints[k] !== 0) changed.push([span(k, k), `${f.name}: old + diff = new`, `${old[f.offset]} + ${ints[k]} = ${now[f.offset]} (bytes ${bytesOf(k)})`]);
  });
  rows.push(...changed);
  const sizeSays = low < 30 ? `size ${low}` : `size ${low}: the size, ${chunk.storedSize}, is in the next ${headerSize - 1} byte${headerSize > 2 ? 's' : ''}`;
  out.push('## Snapshot delta', '', `\`fixtures/${name}\` (Teeworlds 0.7.5 client), the delta chunk at byte ${chunk.offset}: the header`,
    `(0x${bytes[chunk.offset].toString(16)}: a data chunk of type ${(bytes[chunk.offset] & 0x60) >> 5}, delta, ${sizeSays}), then ${chunk.storedSize} bytes Huffman-coded ([network.md](network.md#huffman-compression)):`, '',
    hex(bytes, chunk.offset, chunk.offset + headerSize + chunk.storedSize), '',
    `Huffman-decoded they are ${packed.length} bytes of variable-width ints ([teehistorian.md](teehistorian.md#layout): 6 bits in the first byte with the sign in bit 6, 7 in each further byte, bit 7 set while more follow):`, '',
    hex(packed, 0, packed.length), '',
    `They unpack to ${ints.length} ints ([snapshot.md](snapshot.md#delta)): ${numDeleted} pickups are no longer in the snapshot (taken, or out of the receiver's view, which servers leave out), and the character of client ${id} changed in ${changed.length} of its ${size} ints (every other int of the update is 0; a set sign bit makes the int the bitwise NOT of the rest, so \`ff 01\` is -128):`, '',
    table(rows), '',
    `Applied to the snapshot before it (tick ${snapshots[at - 1].tick}, ${before.items.length} items) it gives the snapshot of tick ${snapshots[at].tick}: ${after.items.length} items, checksum ${after.checksum()}.`, '');
}

// Demo chunk framing: one chunk of each kind of first byte, from a DDNet demo (version 6) and a Teeworlds 0.7.5
// demo (version 4), and one small chunk's payload unpacked step by step.
{
  const { teeworldsHuffman } = await import('@twcodec/demo');
  const { unpackVarInts } = await import('@twcodec/runtime');
  const bits = (b) => b.toString(2).padStart(8, '0');
  const framing = (name) => {
    const bytes = fixture(name);
    const demo = readDemo(bytes);
    const chunks = [...demo.chunks()];
    return { bytes, demo, chunks, next: (c) => chunks[chunks.indexOf(c) + 1] };
  };
  const row = (f, c) => {
    const b = f.bytes[c.offset];
    const end = f.next(c)?.offset ?? f.bytes.length;
    if (c.kind === 'tick') {
      const full = f.demo.header.version >= 5 ? (b & 0x20) === 0 : (b & 0x3f) === 0;
      const how = full ? `${f.demo.header.version >= 5 ? 'bit 5 clear' : 'low 6 bits 0'}: the 4-byte big-endian tick follows, ${c.tick}` : f.demo.header.version >= 5 ? `bit 5 set: step ${b & 0x1f} in bits 0-4, tick ${c.tick}` : `low 6 bits ${b & 0x3f}: step ${b & 0x3f}, tick ${c.tick}`;
      return [`${c.offset}`, `\`${hexOf(f.bytes, c.offset, full ? c.offset + 5 : c.offset + 1)}\``, `\`${bits(b)}\``, `tick marker${c.keyframe ? ', keyframe (bit 6)' : ''}; ${how}`];
    }
    const low = b & 0x1f;
    const head = low === 30 ? 2 : low === 31 ? 3 : 1;
    const size = low === 30 ? `size 30: the next byte is the size, ${c.storedSize}` : low === 31 ? `size 31: the next 2 bytes are the size, little-endian, ${c.storedSize}` : `size ${low} in bits 0-4`;
    return [`${c.offset}`, `\`${hexOf(f.bytes, c.offset, c.offset + head)}\` + ${end - c.offset - head} bytes`, `\`${bits(b)}\``, `data chunk, type ${(b & 0x60) >> 5} (${c.kind}) in bits 5-6; ${size}`];
  };
  const hexOf = (bytes, start, end) => Array.from(bytes.subarray(start, end), (x) => x.toString(16).padStart(2, '0')).join(' ');
  const head = ['| byte | bytes | first byte | meaning |', '| --- | --- | --- | --- |'];
  const ddnet = framing('demos/ctf2_server_Alpha_server_manual.demo');
  const firstTick = ddnet.chunks.find((c) => c.kind === 'tick');
  const step = ddnet.chunks.find((c) => c.kind === 'tick' && (ddnet.bytes[c.offset] & 0x20));
  const pick = [
    ddnet.chunks.find((c) => c.kind === 'message' && (ddnet.bytes[c.offset] & 0x1f) < 30),
    firstTick,
    ddnet.next(firstTick),
    step,
    ddnet.next(step),
    ddnet.chunks.find((c) => c.kind !== 'tick' && (ddnet.bytes[c.offset] & 0x1f) === 30),
  ];
  out.push('## Demo chunk framing', '', 'Every chunk starts with one byte ([demo.md, Chunk framing](demo.md#chunk-framing)). From `fixtures/demos/ctf2_server_Alpha_server_manual.demo` (version 6), a chunk of each kind:', '',
    ...head, ...[...pick].sort((a, b) => a.offset - b.offset).map((c) => `| ${row(ddnet, c).join(' | ')} |`), '');
  const tw = framing('demos/tw07_client_Charlie_chat.demo');
  const twFirst = tw.chunks.find((c) => c.kind === 'tick');
  const twStep = tw.chunks.find((c) => c.kind === 'tick' && (tw.bytes[c.offset] & 0x3f) !== 0);
  out.push(`From \`fixtures/demos/tw07_client_Charlie_chat.demo\` (Teeworlds 0.7.5, version ${tw.demo.header.version}): tick markers without bit 5's meaning, the step in the low 6 bits:`, '',
    ...head, ...[twFirst, twStep].map((c) => `| ${row(tw, c).join(' | ')} |`), '');
  // The payload of the first (short) message chunk, step by step.
  const msg = pick[0];
  const stored = ddnet.bytes.subarray(msg.offset + 1, msg.offset + 1 + msg.storedSize);
  const packed = teeworldsHuffman().decompress(stored, 65536);
  const ints = new Int32Array(packed.length);
  const n = unpackVarInts(packed, 0, packed.length, ints, 0);
  const first = new ByteReader(msg.data).readVarInt();
  const kind = [...demoMessages(ddnet.demo)].find((m) => m.offset === msg.offset).message.kind;
  out.push(`The payload of the message chunk at byte ${msg.offset}, unpacked ([demo.md, Payload](demo.md#payload)):`, '',
    `1. The ${stored.length} stored bytes: \`${hexOf(stored, 0, stored.length)}\`.`,
    `2. Huffman-decoded ([network.md](network.md#huffman-compression)): ${packed.length} bytes, \`${hexOf(packed, 0, packed.length)}\`.`,
    `3. Read as variable-width ints: ${n === 1 ? '1 int' : `${n} ints`}, ${Array.from(ints.subarray(0, n)).join(', ')}.`,
    `4. Each int as 4 little-endian bytes: \`${hexOf(msg.data, 0, msg.data.length)}\`, the net message ([net-messages.md](net-messages.md)). Its first byte, 0x${msg.data[0].toString(16)}, is a variable-width int, ${first} = message id ${first >> 1} << 1 \\| system ${first & 1}: \`${kind}\`, a system message, which only server demos hold.`, '');
}

// Net messages: a chat line in a client demo.
{
  const name = 'demos/ctf2_clientB_auto_ctf2_2026-11-22_10-10-21.demo';
  const demo = readDemo(fixture(name));
  const chunks = new Map([...demo.chunks()].filter((c) => c.kind === 'message').map((c) => [c.offset, c]));
  const { tick, offset, message } = [...demoMessages(demo)].find((m) => m.message.kind === 'sv_chat');
  const chunk = chunks.get(offset);
  const data = chunk.data;
  const r = new ByteReader(data);
  const first = r.readVarInt();
  const rows = [[`0-${r.pos - 1}`, 'id << 1 \\| system', `${first}: game message ${first >> 1} = sv_chat`]];
  for (const f of netMessageDef(DDNET_0_6_MESSAGES, 'sv_chat').fields) {
    const at = r.pos;
    const value = f.type === 'string' ? JSON.stringify(r.readCString()) : String(r.readVarInt());
    rows.push([`${at}-${r.pos - 1}`, f.name, value]);
  }
  if (r.pos < data.length) rows.push([`${r.pos}-${data.length - 1}`, 'trailing', 'zero padding to 4 bytes (kept)']);
  out.push('## Net messages', '', `\`fixtures/${name}\` (Bravo's client demo), the first chat line, tick ${tick}: a message chunk at offset ${offset}`,
    `(${chunk.storedSize} bytes Huffman-compressed), unpacked to these ${data.length} bytes:`, '', hex(data, 0, data.length), '', table(rows), '',
    `\`twcodec demo messages\` prints it as \`${JSON.stringify({ tick, kind: message.kind, fields: { team: message.team, clientId: message.clientId, message: message.message } })}\`.`,
    'Message layouts: [net-messages.md](net-messages.md).', '');
}

// Packets: one datagram of each protocol, its header, chunk headers and first message, read bit by bit as
// docs/formats/network.md says and checked against @twcodec/net's decoder; then the Huffman code on a real
// compressed packet, built by the page's steps and checked against the runtime's decompressor.
{
  const datagrams = (p) => [...readCapture(fixture(p))].map(udpOf);
  const must = (ok, what) => { if (!ok) throw new Error(`examples.mjs: ${what} does not decode as network.md says`); };
  const bin = (b) => b.toString(2).padStart(8, '0');
  out.push('## Packets', '', 'A datagram of each protocol, read as [network.md](network.md) says; each value was checked against `decodePacket` of `@twcodec/net`.', '');
  const chunkRows = (bytes, at, split, count) => {
    const rows = [];
    const chunks = [];
    for (let i = 0; i < count; i++) {
      const flags = bytes[at] >> 6;
      const size = ((bytes[at] & 0x3f) << split) | (bytes[at + 1] & ((1 << split) - 1));
      const vital = (flags & 1) !== 0;
      const sequence = vital ? ((bytes[at + 1] & ~((1 << split) - 1) & 0xff) << 2) | bytes[at + 2] : undefined;
      const headerSize = vital ? 3 : 2;
      rows.push([`${at}-${at + headerSize - 1}`, `chunk ${i} header`, `\`${Array.from(bytes.subarray(at, at + headerSize), bin).join(' ')}\`: flags ${flags}${vital ? ' (vital)' : ''}, size ${size}${vital ? `, sequence ${sequence}` : ''}`]);
      chunks.push({ flags, size, sequence, start: at + headerSize });
      at += headerSize + size;
    }
    return { rows, chunks, end: at };
  };
  // ddnet-0.6: the client's first packet of chunks (client_ver and info) with DDNet's security token.
  {
    const name = 'net/ddnet-0.6-cut.pcap';
    const payload = datagrams(name)[3].payload;
    const packet = decodePacket(payload, { protocol: '0.6' });
    const flags = payload[0] >> 2;
    const ack = ((payload[0] & 3) << 8) | payload[1];
    const num = payload[2];
    must(flags === packet.header.flags && ack === packet.header.ack && num === packet.header.num_chunks, 'the 0.6 header');
    const { rows, chunks, end } = chunkRows(payload, 3, 4, num);
    chunks.forEach((c, i) => must(c.size === packet.chunks[i].size && c.sequence === packet.chunks[i].sequence, `0.6 chunk ${i}`));
    const token = payload.subarray(end);
    must(token.length === 4 && ((token[0] << 24) | (token[1] << 16) | (token[2] << 8) | token[3]) >>> 0 === packet.securityToken, 'the 0.6 security token');
    const id = payload[chunks[1].start];
    out.push('### ddnet-0.6', '', `\`fixtures/${name}\`, datagram 3 (client → server, right after connect, connect_accept and accept), ${payload.length} bytes, not compressed:`, '',
      hex(payload, 0, payload.length), '',
      table([
        ['0', 'flags \\| ack bits 9-8', `\`${bin(payload[0])}\`: flags ${flags} (none), ack bits 9-8 = ${payload[0] & 3}`],
        ['1', 'ack bits 7-0', `${payload[1]}: ack ${ack}, no vital chunk taken from the server yet`],
        ['2', 'num_chunks', String(num)],
        ...rows.flatMap((r, i) => [r, [`${chunks[i].start}-${chunks[i].start + chunks[i].size - 1}`, `chunk ${i} message`, `\`${packet.chunks[i].message.kind}\``]]),
        [`${end}-${payload.length - 1}`, 'security token', `\`${Array.from(token, (b) => b.toString(16).padStart(2, '0')).join(' ')}\`, the bytes connect_accept gave`],
      ]), '',
      `Chunk 0's message starts with byte ${payload[chunks[0].start]} = (id 0 << 1) \\| 1 (system): \`NETMSG_EX\`, whose next 16 bytes are the UUID naming it (DDNet's \`client_ver\`, see [net-messages.md](net-messages.md#system-messages-with-uuids)). `
      + `Chunk 1's message starts with byte ${id} = (id ${id >> 1} << 1) \\| 1 (system): \`info\`, then its strings: ${packet.chunks[1].message.kind === 'info' ? `version ${JSON.stringify(packet.chunks[1].message.version)}, password ${JSON.stringify(packet.chunks[1].message.password)}` : ''}.`, '');
  }
  // teeworlds-0.7: the client's first packet of chunks (info).
  {
    const name = 'net/teeworlds-0.7-cut.pcap';
    const payload = datagrams(name)[4].payload;
    const packet = decodePacket(payload, { protocol: '0.7' });
    const flags = payload[0] >> 2;
    const ack = ((payload[0] & 3) << 8) | payload[1];
    const num = payload[2];
    const token = ((payload[3] << 24) | (payload[4] << 16) | (payload[5] << 8) | payload[6]) >>> 0;
    must(flags === packet.header.flags && ack === packet.header.ack && num === packet.header.num_chunks && token === packet.header.token, 'the 0.7 header');
    const { rows, chunks, end } = chunkRows(payload, 7, 6, num);
    chunks.forEach((c, i) => must(c.size === packet.chunks[i].size && c.sequence === packet.chunks[i].sequence, `0.7 chunk ${i}`));
    must(end === payload.length, 'the 0.7 chunks');
    const m = packet.chunks[0].message;
    out.push('### teeworlds-0.7', '', `\`fixtures/${name}\`, datagram 4 (client → server, after token, token, connect and accept), ${payload.length} bytes, not compressed:`, '',
      hex(payload, 0, payload.length), '',
      table([
        ['0', 'flags \\| ack bits 9-8', `\`${bin(payload[0])}\`: flags ${flags} (none), ack bits 9-8 = ${payload[0] & 3}`],
        ['1', 'ack bits 7-0', `${payload[1]}: ack ${ack}`],
        ['2', 'num_chunks', String(num)],
        ['3-6', 'token', `0x${token.toString(16).padStart(8, '0')}: the server's token from its token message`],
        ...rows.flatMap((r, i) => [r, [`${chunks[i].start}-${chunks[i].start + chunks[i].size - 1}`, `chunk ${i} message`, `\`${packet.chunks[i].message.kind}\``]]),
      ]), '',
      `The message starts with byte ${payload[chunks[0].start]} = (id ${payload[chunks[0].start] >> 1} << 1) \\| 1 (system): \`info\`, version ${JSON.stringify(m.version)}, password ${JSON.stringify(m.password)}${m.clientVersion !== undefined ? `, client version ${m.clientVersion}` : ''}.`, '');
  }
  // Huffman: the code built by network.md's steps, then a compressed packet of the client decoded bit by bit.
  {
    const open = TEEWORLDS_FREQUENCIES.map((freq, id) => ({ id, freq: id === 256 ? 1 : freq, node: { symbol: id } }));
    while (open.length > 1) {
      open.sort((x, y) => y.freq - x.freq); // Array.prototype.sort is stable
      const a = open.pop();
      const b = open[open.length - 1];
      open[open.length - 1] = { id: -1, freq: a.freq + b.freq, node: { zero: a.node, one: b.node } };
    }
    const root = open[0].node;
    const name = 'net/ddnet-0.6-cut.pcap';
    const index = datagrams(name).findIndex((d, i) => i > 13 && (d.payload[0] >> 2) & 32 && d.payload.length < 24);
    const payload = datagrams(name)[index].payload;
    const data = payload.subarray(3);
    const steps = [];
    const bytes = [];
    let bit = 0;
    for (;;) {
      let node = root;
      let code = '';
      const from = bit;
      while (node.symbol === undefined) {
        const b = (data[bit >> 3] >> (bit & 7)) & 1;
        code += b;
        node = b ? node.one : node.zero;
        bit++;
      }
      steps.push([`${from}-${bit - 1}`, `\`${code}\``, node.symbol === 256 ? 'EOF' : `0x${node.symbol.toString(16).padStart(2, '0')}`]);
      if (node.symbol === 256) break;
      bytes.push(node.symbol);
    }
    const rest = data.length * 8 - bit; // 1-7 bits of the last byte, or a whole zero byte after EOF on a byte boundary
    must(rest > 0 && rest <= 8 && data[data.length - 1] >> (8 - rest) === 0, 'the bits after EOF');
    const expected = teeworldsHuffman().decompress(data, 2048);
    must(bytes.length === expected.length && bytes.every((b, i) => b === expected[i]), 'the Huffman example');
    const shown = 8;
    out.push('## Huffman', '', `\`fixtures/${name}\`, datagram ${index} (client → server, compression flag set): the ${data.length} bytes after the 3-byte header, compressed:`, '',
      hex(data, 0, data.length), '',
      `With the code built by the steps of [network.md](network.md#huffman-compression), bits are read from bit 0 (the least significant) of byte 0 up; each code is the branches from the root, the first bit read first. The first ${shown} codes and the last:`, '',
      '| bits | code | symbol |', '| --- | --- | --- |', ...[...steps.slice(0, shown), ['…', '…', '…'], ...steps.slice(-2)].map((r) => `| ${r.join(' | ')} |`), '',
      `EOF ends at bit ${bit - 1}, in byte ${(bit - 1) >> 3}; the ${data.length * 8 - bit} bits left are zero and ignored. The ${bytes.length} bytes decoded (the packet's chunks and DDNet's security token):`, '',
      hex(Uint8Array.from(bytes), 0, bytes.length), '',
      `Decoded as [network.md](network.md#ddnet-06) says: ${decodePacket(payload, { protocol: '0.6' }).chunks.map((c) => `\`${c.message.kind}\``).join(', ')}.`, '');
  }
}

writeFileSync(join(root, 'docs', 'formats', 'examples.md'), out.join('\n'));
console.log('wrote docs/formats/examples.md');
