// Fuzz targets: one per decoder. Each takes an input, runs the whole decode path and the properties that
// must hold for any input, and returns normally, throws a CodecError (a typed refusal: fine), or throws a
// PropertyViolation / any other error (a finding). Targets run on the built packages (npm run build).
import { CodecError, Datafile } from '@twcodec/datafile';
import { fflateZlib } from '@twcodec/datafile/zlib-fflate';
import { readMap, readMapAsync, validateMap, writeMap } from '@twcodec/map';
import { MESSAGE_INT_FIELDS, readTeehistorian, readTeehistorianStream, scanTeehistorian, scanTeehistorianStream, writeTeehistorian } from '@twcodec/teehistorian';
import { demoEvents, demoMessages, readDemo, resaveDemo, sliceDemo, stripDemo } from '@twcodec/demo';
import { demoTables, encodeTable, loadFormat, parquetTableWriter, streamTeehistorianTables, teehistorianTables } from '@twcodec/export';
import { decodeDdnet06Message, decodeTeeworlds07Message, encodeDdnet06Message, encodeTeeworlds07Message } from '@twcodec/netmsg';
import { applyDelta, createDelta, DDNET_0_6, Snapshot } from '@twcodec/snapshot';
import { MAP_TOOLS_TARGETS } from './map-tools-targets.mjs';
import { CLI_TARGETS } from './cli-targets.mjs';
import { check, equalBytes, refusing } from './properties.mjs';
import { diffMapFiles, diffMaps, fixMap, formatMapDiff, ORIGINAL_MAP, packMap, unpackMap } from '@twcodec/map-tools';
import { inputToDir, mutateTileRuns } from './map-dir-input.mjs';

/** The container: read, inflate every data item, write back (lossless must equal the input), ddnet mode reads back. */
function datafile(bytes) {
  const df = Datafile.read(bytes);
  for (const d of df.data) refusing(() => d.bytes());
  const again = df.write();
  check(equalBytes(again, bytes), 'datafile: a lossless write of an unchanged datafile differs from its input');
  const ddnet = refusing(() => df.write({ mode: 'ddnet' }));
  if (ddnet) check(refusing(() => Datafile.read(ddnet)) !== undefined, 'datafile: the ddnet-mode output does not read back');
}

/** What a map read gives, to compare two ways of reading: the bytes written back, or the refusal. */
async function mapOutcome(read) {
  try {
    return { written: writeMap(await read()) };
  } catch (e) {
    if (e instanceof CodecError) return { refused: `${e.code} at ${e.offset}` };
    throw e;
  }
}

/**
 * Maps: strict and lenient reads, validation, writes; an unchanged map without read errors resaves exactly;
 * readMapAsync with the browser codec (fflate, DecompressionStream for large items) gives what readMap gives.
 */
async function map(bytes) {
  const viaSync = await mapOutcome(() => readMap(bytes, { zlib: fflateZlib }));
  const viaAsync = await mapOutcome(() => readMapAsync(bytes, { zlib: fflateZlib }));
  const same = viaSync.written && viaAsync.written ? equalBytes(viaSync.written, viaAsync.written) : viaSync.refused === viaAsync.refused;
  check(same, `map: readMap ${viaSync.refused ?? 'reads'}, readMapAsync ${viaAsync.refused ?? 'reads'}${viaSync.written && viaAsync.written ? ' (other bytes)' : ''}`);
  const strict = refusing(() => readMap(bytes));
  if (strict) {
    validateMap(strict);
    const out = writeMap(strict);
    const clean = !strict.readIssues.some((i) => i.severity === 'error');
    if (clean) check(equalBytes(out, bytes), 'map: a strict read without errors did not resave byte for byte');
    check(refusing(() => readMap(out, { strict: false })) !== undefined, 'map: writeMap output does not read back');
  }
  const lenient = readMap(bytes, { strict: false });
  validateMap(lenient);
  const out = refusing(() => writeMap(lenient));
  if (out) check(refusing(() => readMap(out, { strict: false })) !== undefined, 'map: lenient writeMap output does not read back');
}

function messagesOf(bytes) {
  const reader = readTeehistorian(bytes, { onTruncated: 'stop', trackPlayers: true });
  return { reader, messages: [...reader] };
}

/** Teehistorian: sync read, stream read with chunking from the input's own bytes, resave. */
async function teehistorian(bytes) {
  let sync;
  let syncError;
  try {
    sync = messagesOf(bytes);
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    syncError = e;
  }
  // Chunk sizes drawn from the input itself, so the same input always splits the same way.
  const sizes = [1, 2, 3, 7, 64, 4096].map((n, i) => 1 + ((bytes[i] ?? n) % n));
  async function* chunks() {
    for (let at = 0, i = 0; at < bytes.length; i++) {
      const n = sizes[i % sizes.length];
      yield bytes.subarray(at, at + n);
      at += n;
    }
  }
  const streamed = [];
  let streamError;
  try {
    for await (const m of readTeehistorianStream(chunks(), { onTruncated: 'stop', trackPlayers: true })) streamed.push(m);
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    streamError = e;
  }
  check((syncError?.code ?? 'ok') === (streamError?.code ?? 'ok'), `teehistorian: sync says ${syncError?.code ?? 'ok'}, stream ${streamError?.code ?? 'ok'}`);
  // The allocation-free scanner must see the same messages (kind, tick, offset, int fields) and end alike.
  let scanned = 0;
  let scanError;
  try {
    const s = scanTeehistorian(bytes, { onTruncated: 'stop' });
    while (s.next()) {
      const m = sync?.messages[scanned++];
      if (!sync) continue; // the sync reader refused the file: only the error codes are compared below
      check(m && (m.kind.startsWith('EX') ? 'EX' : m.kind) === s.kind && m.tick === s.tick && m.offset === s.offset, `teehistorian: scanner message ${scanned - 1} differs`);
      MESSAGE_INT_FIELDS[s.kind].forEach((name, k) => {
        const array = /^(\w+)\[(\d+)\]$/.exec(name);
        const value = array ? m[array[1]][Number(array[2])] : m[name];
        check(value === s.ints[k + 1], `teehistorian: scanner field ${name} of message ${scanned - 1} differs`);
      });
    }
    if (sync) check(JSON.stringify(s.end) === JSON.stringify(sync.reader.end), 'teehistorian: scanner ends elsewhere');
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    scanError = e;
  }
  check((syncError?.code ?? 'ok') === (scanError?.code ?? 'ok'), `teehistorian: sync says ${syncError?.code ?? 'ok'}, scanner ${scanError?.code ?? 'ok'}`);
  // The stream scan, with the same chunking, sees the same kinds, ticks and offsets and ends alike.
  let streamScanned = 0;
  let streamScanError;
  try {
    const s = await scanTeehistorianStream(
      chunks(),
      (s) => {
        const m = sync?.messages[streamScanned++];
        if (sync) check(m && (m.kind.startsWith('EX') ? 'EX' : m.kind) === s.kind && m.tick === s.tick && m.offset === s.offset, `teehistorian: stream scan message ${streamScanned - 1} differs`);
      },
      { onTruncated: 'stop' },
    );
    if (sync) check(JSON.stringify(s.end) === JSON.stringify(sync.reader.end), 'teehistorian: stream scan ends elsewhere');
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    streamScanError = e;
  }
  check((syncError?.code ?? 'ok') === (streamScanError?.code ?? 'ok'), `teehistorian: sync says ${syncError?.code ?? 'ok'}, stream scan ${streamScanError?.code ?? 'ok'}`);
  if (!sync) return;
  check(streamScanned === sync.messages.length, `teehistorian: sync read ${sync.messages.length} messages, stream scan ${streamScanned}`);
  check(scanned === sync.messages.length, `teehistorian: sync read ${sync.messages.length} messages, scanner ${scanned}`);
  check(streamed.length === sync.messages.length, `teehistorian: sync read ${sync.messages.length} messages, stream ${streamed.length}`);
  if (sync.reader.end && !sync.reader.end.truncated) {
    const again = writeTeehistorian({ header: sync.reader.header, headerText: sync.reader.headerText }, sync.messages);
    check(equalBytes(again, bytes), 'teehistorian: a whole file did not resave byte for byte');
  }
}

/** Demos: header, every chunk, every snapshot rebuilt from keyframes and deltas. */
function demo(bytes) {
  const d = readDemo(bytes);
  for (const _ of d.chunks());
  for (const _ of demoMessages(d));
  for (const _ of d.snapshots());
}

/** Net messages (both protocols): a message that decodes encodes back to its bytes; lenient decoding never refuses. */
function netmsg(bytes) {
  for (const [decode, encode, name] of [[decodeDdnet06Message, encodeDdnet06Message, 'ddnet-0.6'], [decodeTeeworlds07Message, encodeTeeworlds07Message, 'teeworlds-0.7']]) {
    // As a demo chunk (padded), as a packet's or teehistorian record's message (not), and by its length.
    for (const padded of [undefined, true, false]) {
      const m = refusing(() => decode(bytes, { padded }));
      if (m) check(equalBytes(encode(m), bytes), `netmsg: a decoded ${name} message (padded: ${padded}) does not encode back to its bytes`);
      if (bytes.length) check(equalBytes(encode(decode(bytes, { lenient: true, padded })), bytes), `netmsg: a lenient ${name} decode (padded: ${padded}) does not encode back`);
    }
  }
}

/**
 * Snapshots and deltas: the input is ints (a snapshot, then a delta). A snapshot that parses must build back
 * to the same ints; a delta that applies must be reproduced by createDelta and apply again to the same result.
 */
function snapshot(bytes) {
  const ints = new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~3)));
  const split = Math.min(ints.length, Math.max(2, 2 + (ints[1] ?? 0) + Math.max(0, (ints[0] ?? 0) >> 2)));
  const old = refusing(() => Snapshot.fromInts(ints.subarray(0, split)));
  if (!old) return;
  check(equalBytes(new Uint8Array(old.toInts().buffer), new Uint8Array(ints.slice(0, split).buffer)), 'snapshot: toInts differs from the parsed ints');
  const next = refusing(() => applyDelta(old, ints.subarray(split), DDNET_0_6));
  if (!next) return;
  const delta = refusing(() => createDelta(old, next, DDNET_0_6));
  if (!delta) return;
  const rebuilt = applyDelta(old, delta, DDNET_0_6);
  check(equalBytes(new Uint8Array(rebuilt.toInts().buffer), new Uint8Array(next.toInts().buffer)), 'snapshot: createDelta + applyDelta does not give the snapshot back');
}

// --- map tools: unpack/pack, fix, diff (issue 25) ---

/**
 * Hostile maps through unpack and pack: unpack gives files or a typed refusal; an unchanged directory packs
 * back to the same bytes (the lossless promise, with original.map); without original.map it packs into a map
 * that reads back with no differences from the input (diffMaps), or refuses with a typed error.
 */
function mapUnpack(bytes) {
  const files = unpackMap(bytes);
  const packed = packMap(files);
  // What `map resave --lenient` writes: the input itself for every map the model holds whole; a map read with
  // errors (tile data of a wrong size, ...) comes back as the model holds it, in pack as in resave.
  const resaved = writeMap(readMap(bytes, { strict: false }));
  check(equalBytes(packed, resaved), `map-unpack: an unchanged unpack then pack did not give what resave gives${equalBytes(resaved, bytes) ? ' (the input)' : ''}`);
  // The tile text as unpack wrote it before runs (every run written out tile by tile) packs to the same map:
  // directories users already have keep packing. Only for small layers: the text grows with the tiles.
  const expanded = new Map(files);
  let tiles = 0;
  for (const [name, data] of files) {
    if (!name.startsWith('layers/') || (tiles += data.length) > 1 << 20) continue;
    const text = new TextDecoder('latin1').decode(data).replace(/([0-9a-f]+)\*(\d+)/g, (_, tile, n) => (Number(n) > 4096 ? `${tile}*${n}` : Array(Number(n)).fill(tile).join(' ')));
    expanded.set(name, new TextEncoder().encode(text));
  }
  const packedExpanded = refusing(() => packMap(expanded));
  check(packedExpanded !== undefined && equalBytes(packedExpanded, packed), 'map-unpack: the tile text with its runs written out does not pack to the same map');
  files.delete(ORIGINAL_MAP);
  const rebuilt = refusing(() => packMap(files));
  if (!rebuilt) return;
  const diff = diffMaps(readMap(bytes, { strict: false }), readMap(rebuilt, { strict: false }));
  check(diff.changes.length === 0 && diff.tiles.length === 0, `map-unpack: rebuilt without original.map, the map differs: ${formatMapDiff(diff).slice(0, 200)}`);
}

/**
 * Hostile directories (edited map.json, tile text, PNG): pack gives a map or a typed refusal; what it packs
 * reads back, and unpacks and packs again to the same bytes (the writer is a fixed point).
 */
function mapPack(bytes) {
  const out = packMap(inputToDir(bytes));
  check(refusing(() => readMap(out, { strict: false })) !== undefined, 'map-pack: the packed map does not read back');
  const again = packMap(unpackMap(out));
  check(equalBytes(again, out), 'map-pack: the packed map does not unpack and pack to the same bytes');
}

/** map fix: its output reads back, and fixing it again changes nothing more. */
function mapFix(bytes) {
  const first = fixMap(bytes);
  const second = fixMap(first.bytes);
  check(second.fixed.length === 0, `map-fix: fixing the fixed map fixed more: ${second.fixed.map((i) => i.code).join(', ')}`);
  check(equalBytes(second.bytes, first.bytes), 'map-fix: fixing the fixed map changed its bytes');
}

/** map diff: a map against itself and against its resave has no differences; the text form always formats. */
function mapDiff(bytes) {
  const a = readMap(bytes, { strict: false });
  const self = diffMaps(a, readMap(bytes, { strict: false }));
  check(self.changes.length === 0 && self.tiles.length === 0, 'map-diff: a map differs from itself');
  const resaved = refusing(() => writeMap(readMap(bytes, { strict: false })));
  if (!resaved) return;
  const diff = diffMaps(a, readMap(resaved, { strict: false }));
  check(diff.changes.length === 0 && diff.tiles.length === 0, `map-diff: a map differs from its resave: ${formatMapDiff(diff).slice(0, 200)}`);
  // `map diff` leaves out data whose stored bytes equal its counterpart's (issue 28): it says what diffMaps says.
  check(deepEqual(diffMapFiles(bytes, bytes), self), 'map-diff: diffMapFiles of a map and itself is not diffMaps');
  check(deepEqual(diffMapFiles(bytes, resaved), diff), 'map-diff: diffMapFiles of a map and its resave is not diffMaps');
}

// Map files: half the mutations edit items and inflated data behind a valid container (see mutate.mjs).
for (const target of [mapUnpack, mapFix, mapDiff]) target.structured = true;
// Directory forms: half the mutated inputs get a run token of their tile text changed (map-dir-input.mjs).
mapPack.mutate = mutateTileRuns;
// --- The demo writers and the exports (issue 25): the commands `demo resave`, `demo slice`, `demo strip`,
// `demo export` and `teehistorian export` as the CLI runs them. Each input must give a result or a CodecError
// within the budget; what a writer writes must read back to what it was given (a fixed point), and a resave
// must be the input itself or refused.

/** A demo's recorded events as comparable text (tick, kind, the snapshot's checksum and size or the message bytes). */
function demoEventsText(bytes) {
  return [...demoEvents(readDemo(bytes))].map((e) => (e.kind === 'snapshot' ? `${e.tick} s ${e.snapshot.checksum()} ${e.snapshot.items.length}` : `${e.tick} m ${e.data.join(',')}`));
}

function sameList(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** What the writer writes is read back and written again to the same bytes. */
function writerFixedPoint(written, what) {
  const again = refusing(() => resaveDemo(written));
  check(again !== undefined, `${what}: the writer's output is refused when read and written again`);
  check(equalBytes(again, written), `${what}: the writer's output does not resave byte for byte`);
}

/** `demo resave`: the input itself, or a refusal; recorded again (exact: false), a fixed point of reader and writer. */
function demoResave(bytes) {
  const exact = refusing(() => resaveDemo(bytes));
  if (exact) check(equalBytes(exact, bytes), 'demo-resave: accepted, but not byte for byte');
  const again = refusing(() => resaveDemo(bytes, { exact: false }));
  if (again) writerFixedPoint(again, 'demo-resave');
}

/** `demo slice` over a range drawn from the input: the events of the range, read back from a demo that resaves exactly. */
function demoSlice(bytes) {
  const events = refusing(() => demoEventsText(bytes));
  if (!events) return;
  const ticks = [...new Set(events.map((e) => Number(e.split(' ')[0])))];
  const pick = (i) => (ticks.length ? ticks[(bytes[bytes.length - 1 - i] ?? 0) % ticks.length] : 0);
  const [from, to] = [pick(0), pick(1)].sort((a, b) => a - b);
  const slice = refusing(() => sliceDemo(bytes, { from, to }));
  if (!slice) return;
  const expected = events.filter((e) => {
    const t = Number(e.split(' ')[0]);
    return t >= from && t <= to;
  });
  check(sameList(demoEventsText(slice), expected), `demo-slice: the slice ${from}..${to} does not read back as the source's events of that range`);
  writerFixedPoint(slice, 'demo-slice');
}

/** `demo strip --chat --map`: the events without chat, no map, and a demo that resaves exactly. */
function demoStrip(bytes) {
  const events = refusing(() => demoEventsText(bytes));
  if (!events) return;
  // Chat (sv_chat, DDNet's 0.6 id 3: the varint 3 << 1 in one byte), as the CLI's --chat drops it.
  const isChat = (data) => data[0] === 6;
  const stripped = refusing(() => stripDemo(bytes, { dropMessage: isChat, dropMap: true }));
  if (!stripped) return;
  check(readDemo(stripped).map === undefined, 'demo-strip: the map is still there');
  const expected = events.filter((e) => !/^-?\d+ m 6(,|$)/.test(e));
  check(sameList(demoEventsText(stripped), expected), 'demo-strip: the stripped demo does not read back as the source without chat');
  writerFixedPoint(stripped, 'demo-strip');
}

let parquet;
/** hyparquet-writer and hyparquet, when installed (optional dependencies of @twcodec/export). */
async function parquetTools() {
  parquet ??= Promise.all([import('hyparquet'), loadFormat('parquet')]).then(([reader]) => reader, () => null);
  return parquet;
}

/** Every table is consistent (each column has a value per row) and written as Parquet reads back with its rows and columns. */
async function exportedTables(tables, what) {
  const reader = await parquetTools();
  for (const table of tables) {
    for (const column of table.columns) check(column.values.length === table.rows, `${what}: column ${table.name}.${column.name} has ${column.values.length} values for ${table.rows} rows`);
    if (!reader) continue;
    const file = await encodeTable(table, 'parquet');
    const meta = reader.parquetMetadata(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength));
    check(Number(meta.num_rows) === table.rows, `${what}: ${table.name}.parquet reads back with ${meta.num_rows} rows, not ${table.rows}`);
    check(meta.schema.length - 1 === table.columns.length, `${what}: ${table.name}.parquet reads back with ${meta.schema.length - 1} columns, not ${table.columns.length}`);
  }
}

/** `demo export`: the tables of a demo (read up to a cut, as the CLI does). */
async function demoExport(bytes) {
  const tables = refusing(() => demoTables(bytes));
  if (tables) await exportedTables(tables, 'demo-export');
}

/** `teehistorian export`: the tables of a teehistorian file. */
async function teehistorianExport(bytes) {
  const tables = refusing(() => teehistorianTables(bytes));
  if (tables) await exportedTables(tables, 'teehistorian-export');
  // The CLI reads the file as a stream into row groups (streamTeehistorianTables, issue 41): the same rows, or a
  // refusal too, whatever the chunks (cut at a size drawn from the input) and however small the batches.
  const cut = 1 + ((bytes[0] ?? 0) % 97);
  const chunks = [];
  for (let i = 0; i < bytes.length; i += cut) chunks.push(bytes.slice(i, i + cut));
  const streamed = new Map();
  let refused = false;
  try {
    await streamTeehistorianTables(
      (async function* () {
        yield* chunks;
      })(),
      (t) => {
        const columns = streamed.get(t.name) ?? t.columns.map(() => []);
        t.columns.forEach((c, k) => columns[k].push(...Array.from(c.values)));
        streamed.set(t.name, columns);
      },
      { rowGroupRows: 7 },
    );
  } catch (e) {
    if (!(e instanceof CodecError)) throw e;
    refused = true;
  }
  check(refused === !tables, `teehistorian-export: the stream ${refused ? 'refuses' : 'accepts'} what the whole file ${tables ? 'accepts' : 'refuses'}`);
  for (const table of tables ?? []) {
    const columns = streamed.get(table.name);
    table.columns.forEach((c, k) => check(sameList(columns?.[k] ?? [], Array.from(c.values)), `teehistorian-export: ${table.name}.${c.name} streamed differs from the whole file's`));
  }
  // What the CLI writes: each table's batches through parquetTableWriter, byte for byte the file toParquet writes.
  if (!tables || !(await parquetTools())) return;
  const written = new Map();
  for (const table of tables) {
    const chunks = [];
    written.set(table.name, { chunks, writer: await parquetTableWriter((b) => chunks.push(b)) });
  }
  await streamTeehistorianTables(
    (async function* () {
      yield* chunks;
    })(),
    (t, last) => {
      const { writer } = written.get(t.name);
      writer.write(t);
      if (last) writer.finish(t.metadata);
    },
  );
  for (const table of tables) {
    const expected = await encodeTable(table, 'parquet');
    const got = written.get(table.name).chunks.flatMap((c) => Array.from(c));
    check(sameList(got, Array.from(expected)), `teehistorian-export: ${table.name}.parquet written batch by batch differs from toParquet's`);
  }
}

export const TARGETS = {
  datafile,
  map,
  teehistorian,
  demo,
  snapshot,
  netmsg,
  // The map tools on hostile PNG, Opus and map inputs (fuzz/map-tools-targets.mjs).
  ...MAP_TOOLS_TARGETS,
  // Unpack and pack, fix and diff (above).
  'map-unpack': mapUnpack,
  'map-pack': mapPack,
  'map-fix': mapFix,
  'map-diff': mapDiff,
  'demo-resave': demoResave,
  'demo-slice': demoSlice,
  'demo-strip': demoStrip,
  'demo-export': demoExport,
  'teehistorian-export': teehistorianExport,
};

// --- net (issue 27): capture files and UDP packets ----------------------------------------------------------
import { ConnectionTracker, decodeCapture, decodePacket, encodePacket, isCapture, MAX_PACKET_SIZE, PACKET_PROTOCOLS } from '@twcodec/net';
import { deepEqual } from '@twcodec/runtime';
import { NET_CLIENT_TARGETS } from './net-client-target.mjs';

/**
 * A decoded packet's own properties: encodePacket gives bytes that decode to the same packet (not always the
 * input: bits after Huffman's EOF symbol are dropped); its header writes back to its bytes; its chunks fit.
 */
function checkPacket(packet, bytes, protocol, options) {
  const again = decodePacket(encodePacket(packet), options);
  check(deepEqual(again, packet), `net: a ${protocol} ${packet.kind} packet does not decode to itself after encodePacket`);
  if (packet.kind === 'connless') return;
  const table = PACKET_PROTOCOLS[protocol];
  const header = new Uint8Array(table.headerSize);
  table.encodeHeader(table.decodeHeader(bytes), header);
  check(equalBytes(header, bytes.subarray(0, table.headerSize)), `net: a ${protocol} packet header does not write back to its bytes`);
  const sizes = (packet.chunks ?? []).reduce((n, c) => n + c.size, 0);
  check(sizes <= MAX_PACKET_SIZE, `net: ${sizes} bytes of chunks in one packet`);
}

/**
 * Captures and packets: an input that starts like a pcap/pcapng file is decoded datagram by datagram (a
 * datagram that does not decode carries a CodecError, the rest go on) and followed by the connection tracker
 * (a delivery per chunk, every snapshot rebuilt or refused with a reason); anything else is one UDP payload,
 * decoded as 0.6/DDNet (with and without a security token) and as 0.7.
 */
function net(bytes) {
  if (isCapture(bytes)) {
    let n = 0;
    const tracker = new ConnectionTracker();
    for (const d of decodeCapture(bytes)) {
      n++;
      const tracked = tracker.feed(d);
      check(tracked.delivery.length === (d.packet?.chunks?.length ?? 0), 'net: the tracker gave a chunk no delivery');
      for (const s of tracked.snapshots) check(s.snapshot ? typeof s.crcOk === 'boolean' : typeof s.error === 'string', 'net: a snapshot neither rebuilt nor refused');
      check(d.error ? d.error instanceof CodecError && !d.packet : !!d.packet, 'net: a datagram with neither a packet nor a typed error');
      check(n <= bytes.length / 16, 'net: more datagrams than record headers fit in the file');
      for (const e of tracked.errors ?? []) check(e instanceof CodecError, 'net: the tracker refused a datagram without a CodecError');
    }
    // What the tracker holds stays within its caps whatever the capture says (docs: tracker.ts).
    const held = tracker.holding();
    check(held.directions <= 512 && held.storedBytes <= 32 * 1024 * 1024 && held.partBytes <= held.directions * 64 * 900, `net: the tracker holds ${JSON.stringify(held)}`);
    return;
  }
  for (const [protocol, securityToken] of [['0.6', undefined], ['0.6', true], ['0.6', false], ['0.7', undefined]]) {
    const packet = refusing(() => decodePacket(bytes, { protocol, securityToken }));
    if (packet) checkPacket(packet, bytes, packet.protocol, { protocol, securityToken });
  }
}

TARGETS.net = net;
// `net record`, `net say`, `net info`: the live client on a fake clock (fuzz/net-client-target.mjs).
Object.assign(TARGETS, NET_CLIENT_TARGETS);

// The readers' commands and the resaves as the command line runs them (fuzz/cli-targets.mjs).
Object.assign(TARGETS, CLI_TARGETS);
