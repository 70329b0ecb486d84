// Writes docs/formats/examples.md: for each format, a hex excerpt of a real file (the repo's fixtures) with
// its fields decoded by the packages. Run: npm run docs:examples
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Datafile } from '@twcodec/datafile';
import { ByteReader, decodeI32String } from '@twcodec/runtime';
import { decodeGroupItem, decodeLayerItem, readMap } from '@twcodec/map';
import { readTeehistorian, TEEHISTORIAN_UUID_NAME } from '@twcodec/teehistorian';
import { demoMessages, readDemo } from '@twcodec/demo';
import { DDNET_0_6_MESSAGES, netMessageDef } from '@twcodec/netmsg';
import { DDNET_0_6, snapshotObjects } from '@twcodec/snapshot';

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

writeFileSync(join(root, 'docs', 'formats', 'examples.md'), out.join('\n'));
console.log('wrote docs/formats/examples.md');
