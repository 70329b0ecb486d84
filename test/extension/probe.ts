// Runs inside the scratch copy of test/extension/extensions.test.ts (transpiled beside its packages, run by
// Node, so that `@twcodec/*` are the copy's packages built from the extended schemas): builds small inputs
// holding each extension, writes them to inputs/ for the CLI checks, reads and writes them through the
// libraries and the explorer's views, and prints what it found as JSON, one entry per check ({ value } or
// { error }). The test asserts on the entries; nothing here compares against a list.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Datafile } from '@twcodec/datafile';
import { uuidFromName, uuidToInts } from '@twcodec/runtime';
import { type DemoWriteHeader, DemoWriter, demoMessages, readDemo } from '@twcodec/demo';
import * as M from '@twcodec/map';
import { decodeCapture, decodePacket, encodePacket, type DecodedPacket } from '@twcodec/net';
import { DDNET_0_6_MESSAGES, decodeNetMessage, encodeNetMessage, netMessageDef, netMessageValueNames, TEEWORLDS_0_7_MESSAGES } from '@twcodec/netmsg';
import { DDNET_0_6, encodeObject, fieldValueText, layoutNamed, Snapshot, type SnapshotItem, type SnapshotProtocol, snapshotObjects, TEEWORLDS_0_7 } from '@twcodec/snapshot';
import { readTeehistorian, writeTeehistorian } from '@twcodec/teehistorian';
import { framesOf, ipv4Packet, pcapFile, udpDatagram } from '../net-capture-builder.js';

// The names the extensions added (test/extension/edits.ts ADDED, passed in as JSON).
const [root, addedJson] = process.argv.slice(2) as [string, string];
const ADDED = JSON.parse(addedJson);
const inputs = join(root, 'inputs');
mkdirSync(inputs, { recursive: true });
const results: Record<string, { value: unknown } | { error: string }> = {};
const check = (name: string, run: () => unknown) => {
  try {
    results[name] = { value: run() };
  } catch (e) {
    results[name] = { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
};
const bytesOf = (path: string) => new Uint8Array(readFileSync(path));
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);
const text = (v: unknown) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? String(x) : x instanceof Uint8Array ? Array.from(x) : x));

/** A snapshot item of object `name` from its fields (decodeObject's camelCase keys). */
function item(protocol: SnapshotProtocol, name: string, id: number, fields: Record<string, number>): SnapshotItem {
  const type = protocol.items.find((t) => t.name === name);
  if (!type) throw new Error(`no snapshot item ${name} in ${protocol.name}`);
  return { type: type.typeId, id, data: encodeObject(layoutNamed(protocol, name)!, fields) };
}
const zeros = (protocol: SnapshotProtocol, name: string) => Object.fromEntries(layoutNamed(protocol, name)!.fields.map((f) => [f.name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), 0]));

/** A demo of ticks 100-102 with the same snapshot, `message` recorded at tick 101; written to inputs/`name`. */
function writeDemo(name: string, header: DemoWriteHeader, items: SnapshotItem[], message: Uint8Array): Uint8Array {
  const w = new DemoWriter(header, undefined);
  for (let tick = 100; tick < 103; tick++) {
    w.snapshot(tick, new Snapshot(items));
    if (tick === 101) w.message(message);
  }
  const bytes = w.finish();
  writeFileSync(join(inputs, name), bytes);
  return bytes;
}

// ---- 1 and 5: a map with the new UUID item and a game tile of the new id ----
const base = bytesOf(join(root, 'inputs-src', 'ctf1.map'));
writeFileSync(join(inputs, 'base.map'), base);
const mapUuid = uuidFromName(ADDED.mapItem.uuidName);
let mapBytes: Uint8Array = base;
check('map.write', () => {
  const map = M.readMap(base);
  const game = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && l.tilemapKind === 'game') as M.TilemapLayer;
  game.tiles!.setId(0, ADDED.tile.id);
  (map.items as Record<string, unknown[]>)[ADDED.mapItem.name] = [{ version: 2, group: 0, weights: [5, 6, 7], label: 'west' }];
  mapBytes = M.writeMap(map);
  writeFileSync(join(inputs, 'ext.map'), mapBytes);
  return Datafile.read(mapBytes).itemsOfType(mapUuid).map((i) => Array.from(i.data));
});
check('map.read', () => {
  const map = M.readMap(mapBytes);
  const game = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && l.tilemapKind === 'game') as M.TilemapLayer;
  return { item: (map.items as Record<string, unknown>)[ADDED.mapItem.name], unknownItems: map.unknownItems.length, tile: game.tiles!.getId(0) };
});
check('map.roundtrip', () => same(M.writeMap(M.readMap(mapBytes)), mapBytes));
check('map.validate', () => M.validateMap(M.readMap(mapBytes)).map((i) => `${i.code} ${i.path} ${i.message}`));
check('map.tileName', () => M.tileIdName('game', ADDED.tile.id));
check('map.tileColour', () => M.tileColour('game', ADDED.tile.id));

// ---- 2, 3 (0.6) and 7: a 0.6 demo with the new object, the new message, the weapon and the game flag ----
const race = DDNET_0_6.uuidItems.find((t) => t.name === ADDED.snapshotObject.name);
const header06 = { netVersion: '0.6 626fce9a778df4d4', mapName: 'x', mapCrc: '00000000', type: 'client', timestamp: '2026-11-22_10-00-00', mapSha256: '0'.repeat(64) } as const;
const lucky06 = { kind: ADDED.message06.name, winner: 3, prize: 'cake' };
let demo06: Uint8Array = new Uint8Array();
check('snapshot06.items', () => {
  const character = { ...zeros(DDNET_0_6, 'character'), weapon: ADDED.weapon.value, health: 10 };
  const gameInfo = { ...zeros(DDNET_0_6, 'game_info'), gameFlags: 1 | ADDED.gameFlag.value06 };
  const items: SnapshotItem[] = [
    { type: 0, id: 0x7fff, data: uuidToInts(race!.uuid) },
    { type: 0x7fff, id: 3, data: encodeObject(race!, { startTick: 500, paused: true, label: 'go', laps: 7 } as never) },
    item(DDNET_0_6, 'character', 1, character),
    item(DDNET_0_6, 'game_info', 0, gameInfo),
  ];
  demo06 = writeDemo('ext06.demo', header06, items, encodeNetMessage(DDNET_0_6_MESSAGES, lucky06));
  return true;
});
check('snapshot06.objects', () => {
  const [s] = [...readDemo(demo06).snapshots()];
  const objects = snapshotObjects(s!.snapshot, DDNET_0_6);
  const [timer] = objects.items(ADDED.snapshotObject.name) as { startTick: number; laps: number }[];
  const character = objects.items('character')[0] as unknown as { weapon: number };
  const weaponField = layoutNamed(DDNET_0_6, 'character')!.fields.find((f) => f.name === 'weapon')!;
  const flagsField = layoutNamed(DDNET_0_6, 'game_info')!.fields.find((f) => f.name === 'game_flags')!;
  return {
    timer: timer && { startTick: timer.startTick, laps: timer.laps },
    weapon: fieldValueText(weaponField, character.weapon),
    gameFlags: fieldValueText(flagsField, 1 | ADDED.gameFlag.value06),
  };
});
check('snapshot06.validate', () => snapshotObjects([...readDemo(demo06).snapshots()][0]!.snapshot, DDNET_0_6).validate().map((p) => text(p)));
check('message06.roundtrip', () => {
  const bytes = encodeNetMessage(DDNET_0_6_MESSAGES, lucky06);
  const back = decodeNetMessage(DDNET_0_6_MESSAGES, bytes);
  return { back, again: same(encodeNetMessage(DDNET_0_6_MESSAGES, back as never), bytes) };
});
// A weapon inside a net message (sv_weapon_pickup), in a demo of its own: the encoder may refuse it.
check('message06.weapon', () => {
  const w = new DemoWriter(header06, undefined);
  w.snapshot(100, new Snapshot([]));
  w.message(encodeNetMessage(DDNET_0_6_MESSAGES, { kind: 'sv_weapon_pickup', weapon: ADDED.weapon.value } as { kind: string }));
  writeFileSync(join(inputs, 'weapon06.demo'), w.finish());
  // The library names a value with netMessageValueNames, from the field's enum (as demo messages prints it).
  return [...demoMessages(readDemo(bytesOf(join(inputs, 'weapon06.demo'))))].map((m) => text({ ...m, names: netMessageValueNames(netMessageDef(DDNET_0_6_MESSAGES, m.message.kind)?.fields ?? [], m.message) }));
});
check('demo06.messages', () => [...demoMessages(readDemo(demo06))].map((m) => text(m)));

// ---- 3 (0.7) and 7: a 0.7 demo with the new message, the weapon and the game flag ----
const header07 = { netVersion: '0.7 802f1be60a05665f', mapName: 'dm1', mapCrc: '00000000', type: 'client', timestamp: '2026-11-23_16-00-00', version: 4 } as const;
const round07 = { kind: ADDED.message07.name, secondsLeft: 90, label: 'overtime' };
let demo07: Uint8Array = new Uint8Array();
check('message07.roundtrip', () => {
  const bytes = encodeNetMessage(TEEWORLDS_0_7_MESSAGES, round07);
  const back = decodeNetMessage(TEEWORLDS_0_7_MESSAGES, bytes);
  return { back, again: same(encodeNetMessage(TEEWORLDS_0_7_MESSAGES, back as never), bytes) };
});
// 0.7 takes DDNet's UUID messages from the 0.6 schema (uuid_messages_from): the new one too.
check('message06in07.roundtrip', () => {
  const bytes = encodeNetMessage(TEEWORLDS_0_7_MESSAGES, lucky06);
  return { back: decodeNetMessage(TEEWORLDS_0_7_MESSAGES, bytes), same06: same(bytes, encodeNetMessage(DDNET_0_6_MESSAGES, lucky06)) };
});
check('snapshot07.items', () => {
  const items: SnapshotItem[] = [
    item(TEEWORLDS_0_7, 'character', 1, { ...zeros(TEEWORLDS_0_7, 'character'), weapon: ADDED.weapon.value, health: 10 }),
    item(TEEWORLDS_0_7, 'de_game_info', 0, { ...zeros(TEEWORLDS_0_7, 'de_game_info'), gameFlags: 1 | ADDED.gameFlag.value07 }),
  ];
  demo07 = writeDemo('ext07.demo', header07, items, encodeNetMessage(TEEWORLDS_0_7_MESSAGES, round07));
  return true;
});
check('snapshot07.validate', () => snapshotObjects([...readDemo(demo07).snapshots()][0]!.snapshot, TEEWORLDS_0_7).validate().map((p) => text(p)));
check('demo07.messages', () => [...demoMessages(readDemo(demo07))].map((m) => text(m)));

// ---- 4: a teehistorian file with the new extension message ----
const exKind = `EX:${ADDED.teehistorian.name}`;
let th: Uint8Array = new Uint8Array();
check('teehistorian.write', () => {
  th = writeTeehistorian({ header: { version: '2', game_uuid: uuidFromName('scratch'), map_name: 'x' } }, [
    { kind: 'TICK_SKIP', dt: 0 },
    { kind: exKind, cid: 2, prize: 'cake' } as never,
    { kind: 'FINISH' },
  ]);
  writeFileSync(join(inputs, 'ext.teehistorian'), th);
  return th.length;
});
check('teehistorian.read', () => [...readTeehistorian(th)].map((m) => text(m)));
check('teehistorian.roundtrip', () => {
  const reader = readTeehistorian(th);
  const messages = [...reader];
  return same(writeTeehistorian({ header: reader.header, headerText: reader.headerText }, messages), th);
});

// ---- 6: a capture with the new control message and the new connectionless message ----
let packets: Uint8Array[] = [];
check('packet.encode', () => {
  const control: DecodedPacket = { protocol: '0.6', kind: 'control', header: { flags: 4, ack: 0, num_chunks: 0 }, flags: ['control'], control: { kind: ADDED.control.name, id: ADDED.control.id, motto: 'feeling lucky' } };
  const connless: DecodedPacket = { protocol: '0.6', kind: 'connless', header: { form: 'legacy' }, flags: ['connless'], connless: { kind: ADDED.connless.name, token: '12', luckyNumber: '7', motto: 'seven' } };
  packets = [encodePacket(control), encodePacket(connless)];
  const pcap = pcapFile(framesOf(packets.map((p, i) => ipv4Packet(udpDatagram(i ? 8303 : 50000, i ? 50000 : 8303, p)))), 101);
  writeFileSync(join(inputs, 'ext.pcap'), pcap);
  return packets.map((p) => Array.from(p));
});
check('packet.decode', () => packets.map((p) => text(decodePacket(p, { protocol: '0.6' }))));
check('packet.roundtrip', () => packets.map((p) => same(encodePacket(decodePacket(p, { protocol: '0.6' })), p)));
check('capture.decode', () => [...decodeCapture(bytesOf(join(inputs, 'ext.pcap')))].map((d) => text(d)));

// ---- the explorer's views of the same inputs (its modules transpiled to node-views/) ----
type Node = { label: string; value?: string; type?: string; description?: string; lazy?: string; children?: Node[] };
type Session = { root: Node; children(key: string): Node[] };
/** Every label, value, type and description of a view, its lazy nodes opened (as the page opens them). */
function viewText(root: Node, children: (key: string) => Node[]): string {
  const out: string[] = [];
  let budget = 20_000;
  const walk = (n: Node) => {
    if (--budget < 0) return;
    out.push([n.label, n.type, n.value, n.description].filter(Boolean).join(' | '));
    for (const c of n.children ?? []) walk(c);
    if (n.lazy) for (const c of children(n.lazy)) walk(c);
  };
  walk(root);
  return out.join('\n');
}
const views = join(root, 'packages', 'explorer', 'node-views');
const explorer = async () => {
  const schemas = await import(join(views, 'generated', 'schemas.gen.js'));
  const layout = await import(join(views, 'layout.js'));
  const demoView = await import(join(views, 'demo-view.js'));
  const teehistorianView = await import(join(views, 'teehistorian-view.js'));
  const capture = await import(join(views, 'capture.js'));
  const session = (s: Session) => viewText(s.root, (k) => s.children(k));
  for (const [name, run] of [
    ['explorer.schemas', () => text(schemas)],
    ['explorer.map', () => viewText(layout.mapLayout(mapBytes, schemas.MAP_ITEM_SCHEMAS), () => [])],
    ['explorer.demo06', () => session(demoView.demoSession(demo06, schemas.STREAM_DOCS))],
    ['explorer.demo07', () => session(demoView.demoSession(demo07, schemas.STREAM_DOCS))],
    ['explorer.teehistorian', () => session(teehistorianView.teehistorianSession(th, schemas.TEEHISTORIAN_MESSAGE_DOCS, schemas.STREAM_DOCS))],
    ['explorer.capture', () => session(capture.captureSession(bytesOf(join(inputs, 'ext.pcap')), schemas.STREAM_DOCS))],
  ] as const)
    check(name, run);
};
await explorer().catch((e) => (results['explorer.import'] = { error: String(e) }));

process.stdout.write(JSON.stringify(results));
