// The tables against the codecs' own readers, and the encoded files read back: Parquet with hyparquet (the
// reader hyparquet-writer ships with), Arrow with apache-arrow, and both Parquet and the SQL a user would run
// with DuckDB when @duckdb/node-api is installed. Without a writer package the tests that need it skip, named.
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoChat, readDemo } from '@twcodec/demo';
import { CodecError, DDNET_0_6, Snapshot, type SnapshotItem, snapshotObjects } from '@twcodec/snapshot';
import { PlayerTracker, readTeehistorian, statsKey, TeehistorianWriter, type TeehistorianMessage } from '@twcodec/teehistorian';
import { demoFiles, fixturesDir, prng, readBytes, teehistorianFiles } from '../../../test/corpus.js';
import { demoProtocol, demoTables, encodeTable, snapshotTables, ExportDependencyError, type ExportTable, parquetTableWriter, type ParquetTableWriter, streamTeehistorianTables, teehistorianTables, toArrow, toParquet } from './index.js';

const optional = async (name: string) => import(/* @vite-ignore */ name).catch(() => undefined);
const hyparquet = (await optional('hyparquet-writer')) && ((await optional('hyparquet')) as typeof import('hyparquet') | undefined);
const arrow = (await optional('apache-arrow')) as typeof import('apache-arrow') | undefined;
const duckdb = (await optional('@duckdb/node-api')) as { DuckDBInstance: { create(path: string): Promise<{ connect(): Promise<{ runAndReadAll(sql: string): Promise<{ getRowObjects(): Record<string, unknown>[] }> }> }> } } | undefined;

const th = `${fixturesDir}/teehistorian/ctf2_1eb21562-66cc-4574-ba49-d748a909b594.teehistorian`;
const demo = `${fixturesDir}/demos/ctf2_server_Alpha_server_manual.demo`;

/** A table's rows as objects (nulls as null), to compare with what a reader gives back. */
function rows(table: ExportTable): Record<string, unknown>[] {
  return Array.from({ length: table.rows }, (_, i) => Object.fromEntries(table.columns.map((c) => [c.name, c.nulls?.[i] ? null : c.values[i]])));
}

const byName = (tables: ExportTable[]) => new Map(tables.map((t) => [t.name, t]));

describe('teehistorianTables', () => {
  const tables = byName(teehistorianTables(readBytes(th)));

  it('positions and inputs are the absolute values the object reader tracks, at every record', () => {
    const tracker = new PlayerTracker();
    const positions: Record<string, number>[] = [];
    const inputs: number[][] = [];
    for (const m of readTeehistorian(readBytes(th))) {
      tracker.apply(m);
      if ((m.kind === 'PLAYER_NEW' || m.kind === 'PLAYER_DIFF') && tracker.positions.has(m.cid)) positions.push({ tick: m.tick, cid: m.cid, ...tracker.positions.get(m.cid)! });
      if ((m.kind === 'INPUT_NEW' || m.kind === 'INPUT_DIFF') && tracker.inputs.has(m.cid)) inputs.push([m.tick, m.cid, ...tracker.inputs.get(m.cid)!]);
    }
    expect(positions.length).toBeGreaterThan(1000);
    expect(rows(tables.get('positions')!)).toEqual(positions);
    expect(rows(tables.get('inputs')!).map((r) => Object.values(r))).toEqual(inputs);
    expect(tables.get('inputs')!.columns.map((c) => c.name)).toEqual(['tick', 'cid', 'direction', 'target_x', 'target_y', 'jump', 'fire', 'hook', 'player_flags', 'wanted_weapon', 'next_weapon', 'prev_weapon']);
  });

  it('events hold every other message but TICK_SKIP and FINISH, kinds named as teehistorian stats names them', () => {
    const expected = [...readTeehistorian(readBytes(th))]
      .filter((m) => !['PLAYER_DIFF', 'INPUT_NEW', 'INPUT_DIFF', 'TICK_SKIP', 'FINISH'].includes(m.kind))
      .map((m) => ({ tick: m.tick, kind: statsKey(m), cid: 'cid' in m && typeof m.cid === 'number' ? m.cid : null }));
    expect(rows(tables.get('events')!).map(({ tick, kind, cid }) => ({ tick, kind, cid }))).toEqual(expected);
    const command = rows(tables.get('events')!).find((r) => r.kind === 'CONSOLE_COMMAND')!;
    expect(JSON.parse(command.data as string)).toMatchObject({ flags: expect.any(Number), command: expect.any(String), args: expect.any(Array) });
    const message = rows(tables.get('events')!).find((r) => r.kind === 'MESSAGE')!;
    expect(JSON.parse(message.data as string)).toMatchObject({ net: { kind: expect.any(String) } });
  });

  it('carries the header as metadata; --table picks tables; an unknown table is a RangeError', () => {
    expect(JSON.parse(tables.get('positions')!.metadata['teehistorian.header']!)).toMatchObject({ game_uuid: '1eb21562-66cc-4574-ba49-d748a909b594' });
    expect(teehistorianTables(readBytes(th), { tables: ['inputs'] }).map((t) => t.name)).toEqual(['inputs']);
    expect(() => teehistorianTables(readBytes(th), { tables: ['chat'] })).toThrow(/no table chat \(its tables: positions, inputs, events\)/);
  });

  it('a file cut short gives its whole messages', () => {
    const bytes = readBytes(th);
    const cut = teehistorianTables(bytes.subarray(0, bytes.length - 100));
    expect(cut[0]!.rows).toBeGreaterThan(0);
    expect(JSON.parse(cut[0]!.metadata['teehistorian.end']!)).toMatchObject({ finished: false });
  });
});

describe('demoTables', () => {
  const bytes = readBytes(demo);
  const tables = byName(demoTables(bytes));

  it('has a row per item per recorded tick, with the fields the snapshot views read', () => {
    const reader = readDemo(bytes);
    expect(demoProtocol(reader)).toBe(DDNET_0_6);
    const protocol = DDNET_0_6;
    const characters: Record<string, unknown>[] = [];
    let players = 0;
    for (const { tick, snapshot } of reader.snapshots(protocol)) {
      const objects = snapshotObjects(snapshot, protocol);
      for (const c of objects.items('character')) characters.push({ tick, id: c.item.id, x: c.x, y: c.y, vel_x: c.velX, health: c.health, character_tick: c.tick });
      players += objects.items('player_info').length;
    }
    const character = tables.get('character')!;
    expect(character.rows).toBe(characters.length);
    expect(rows(character).map(({ tick, id, x, y, vel_x, health, character_tick }) => ({ tick, id, x, y, vel_x, health, character_tick }))).toEqual(characters);
    expect(tables.get('player_info')!.rows).toBe(players);
    expect(rows(tables.get('client_info')!)[0]).toMatchObject({ name: 'Alpha', skin: 'default' });
  });

  it('puts the name of each enum value and flag set beside its number (issue 26)', () => {
    const character = tables.get('character')!;
    const names = character.columns.map((c) => c.name);
    expect(names.slice(names.indexOf('weapon'), names.indexOf('weapon') + 4)).toEqual(['weapon', 'weapon_name', 'emote', 'emote_name']);
    const weapons = ['hammer', 'gun', 'shotgun', 'grenade', 'laser', 'ninja'];
    for (const row of rows(character)) {
      expect(row.weapon_name).toBe(weapons[row.weapon as number] ?? null);
      expect(typeof row.player_flags_name).toBe('string');
    }
  });

  it('an item shorter than its layout (an older server) gives defaults or nulls; unknown types their ints', () => {
    const snapshot = new Snapshot([
      { type: 11, id: 2, data: Int32Array.of(0, 0, 0, 0) }, // client_info cut after the name
      { type: 9, id: 3, data: Int32Array.of(50, 1, 2, 256 * 3) }, // character cut after vel_x
      { type: 60, id: 1, data: Int32Array.of(7, -8) },
    ] as SnapshotItem[]);
    const tables = byName(snapshotTables([{ tick: 5, snapshot }], DDNET_0_6));
    expect([...tables.keys()]).toEqual(['character', 'client_info', 'unknown_items']);
    expect(rows(tables.get('character')!)[0]).toMatchObject({ tick: 5, id: 3, character_tick: 50, x: 1, y: 2, vel_x: 3, vel_y: null, health: null });
    expect(rows(tables.get('client_info')!)[0]).toMatchObject({ id: 2, name: '', clan: null, country: null });
    expect(rows(tables.get('unknown_items')!)).toEqual([{ tick: 5, type: 'type_60', id: 1, data: '[7,-8]' }]);
    expect(byName(snapshotTables([{ tick: 5, snapshot }], DDNET_0_6, { tables: ['flag'] })).get('flag')!.rows).toBe(0);
  });

  it('chat lines with names', () => {
    const chat = tables.get('chat')!;
    expect(chat.columns.map((c) => c.name)).toEqual(['tick', 'client_id', 'name', 'team', 'text']);
  });

  it.each(demoFiles())('%s: object tables, and chat lines as demoChat gives them', (path) => {
    const tables = byName(demoTables(readBytes(path)));
    expect(tables.get('character')!.rows, basename(path)).toBeGreaterThan(0);
    const chat = demoChat(readDemo(readBytes(path))).map((l) => ({ tick: l.tick, client_id: l.clientId, name: l.name ?? null, team: l.team, text: l.text }));
    expect(rows(tables.get('chat')!)).toEqual(chat);
  });

  it.each(teehistorianFiles())('%s: exports without error', (path) => {
    expect(teehistorianTables(readBytes(path)).length).toBe(3);
  });
});

describe('bad input', () => {
  it.each([
    ['teehistorian', th, (b: Uint8Array) => teehistorianTables(b)],
    ['demo', demo, (b: Uint8Array) => demoTables(b)],
  ] as const)('%s: 100 mutated files give tables or a CodecError, nothing else', (_kind, path, tables) => {
    const seed = readBytes(path);
    const rng = prng(12);
    for (let i = 0; i < 100; i++) {
      const input = seed.slice();
      const edits = 1 + Math.floor(rng() * 8);
      for (let k = 0; k < edits; k++) input[Math.floor(rng() * input.length)] = Math.floor(rng() * 256);
      const cut = rng() < 0.3 ? input.subarray(0, Math.floor(rng() * input.length)) : input;
      try {
        tables(cut);
      } catch (e) {
        if (!(e instanceof CodecError)) throw e;
      }
    }
  });
});

describe('missing writer packages', () => {
  const notFound = (name: string) => Promise.reject(Object.assign(new Error(`Cannot find package '${name}' imported from /x/encode.js`), { code: 'ERR_MODULE_NOT_FOUND' }));
  const table = teehistorianTables(readBytes(th), { tables: ['events'] })[0]!;

  it('say which package to install', async () => {
    await expect(toParquet(table, { loader: notFound })).rejects.toThrow(ExportDependencyError);
    await expect(toParquet(table, { loader: notFound })).rejects.toThrow(/--format parquet needs the optional package hyparquet-writer, which is not installed: run npm install hyparquet-writer/);
    await expect(encodeTable(table, 'arrow', { loader: notFound })).rejects.toThrow(/npm install apache-arrow/);
  });

  it('other errors of a loader pass through', async () => {
    await expect(toParquet(table, { loader: () => Promise.reject(new Error('disk on fire')) })).rejects.toThrow('disk on fire');
  });
});

/** A table with nulls and every column type, to see them survive each format. */
const mixed: ExportTable = {
  name: 'mixed',
  rows: 3,
  columns: [
    { name: 'i', type: 'int32', values: Int32Array.of(1, -2, 2147483647) },
    { name: 'n', type: 'int32', values: Int32Array.of(5, 0, 7), nulls: Uint8Array.of(0, 1, 0) },
    { name: 'f', type: 'float64', values: Float64Array.of(0.5, -1 / 256, 1e9) },
    { name: 's', type: 'string', values: ['a', null, 'nämé'] },
  ],
  metadata: { 'test.key': '{"x":1}' },
};

describe.skipIf(!hyparquet)('Parquet (hyparquet-writer; read back with hyparquet)', () => {
  const read = async (bytes: Uint8Array) => {
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    return { rows: await hyparquet!.parquetReadObjects({ file }), metadata: await hyparquet!.parquetMetadataAsync(file) };
  };

  it('every value, null and the metadata come back', async () => {
    const back = await read(await toParquet(mixed));
    expect(back.rows).toEqual(rows(mixed));
    expect(back.metadata.key_value_metadata).toContainEqual({ key: 'test.key', value: '{"x":1}' });
  });

  it('the fixture tables come back row for row', async () => {
    for (const table of [...teehistorianTables(readBytes(th)), ...demoTables(readBytes(demo))]) {
      expect((await read(await toParquet(table))).rows, table.name).toEqual(rows(table));
    }
  });
});

describe('streamTeehistorianTables (issue 41: files of gigabytes, read as a stream)', () => {
  const chunksOf = (bytes: Uint8Array, size: number) =>
    (async function* () {
      for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
    })();

  it('gives the rows of teehistorianTables in batches, whatever the chunks, with the final metadata on the last', async () => {
    for (const path of teehistorianFiles()) {
      const bytes = readBytes(path);
      const whole = byName(teehistorianTables(bytes));
      const got = new Map<string, { rows: Record<string, unknown>[]; batches: number; metadata?: Record<string, string> }>();
      await streamTeehistorianTables(
        chunksOf(bytes, 1000),
        (table, last) => {
          const entry = got.get(table.name) ?? { rows: [], batches: 0 };
          entry.rows.push(...rows(table));
          entry.batches++;
          if (last) entry.metadata = table.metadata;
          got.set(table.name, entry);
        },
        { rowGroupRows: 500 },
      );
      for (const [name, table] of whole) {
        expect(got.get(name)!.rows, `${basename(path)} ${name}`).toEqual(rows(table));
        expect(got.get(name)!.batches).toBe(Math.floor(table.rows / 500) + 1);
        expect(got.get(name)!.metadata).toEqual(table.metadata);
      }
    }
  });

  it('refuses what teehistorianTables refuses, with the same error', async () => {
    const bytes = readBytes(th);
    const bad = bytes.slice();
    bad[0] = bad[0]! ^ 0xff;
    const expected = (() => {
      try {
        teehistorianTables(bad);
      } catch (e) {
        return e as CodecError;
      }
    })();
    await expect(streamTeehistorianTables(chunksOf(bad, 7), () => undefined)).rejects.toMatchObject({ code: expected!.code, offset: expected!.offset });
    await expect(streamTeehistorianTables(chunksOf(bytes, 7), () => undefined, { tables: ['nope'] })).rejects.toThrow(RangeError);
  });

  it.skipIf(!hyparquet)('a message without a client id after the first row group reads back as a null (the schema holds for every batch)', async () => {
    const source = readTeehistorian(readBytes(th));
    const messages = [...source].filter((m) => m.kind !== 'FINISH');
    const writer = new TeehistorianWriter({ header: source.header, headerText: source.headerText });
    for (const m of messages) writer.write(m);
    writer.write({ kind: 'EX:antibot', data: Uint8Array.of(1, 2) } as TeehistorianMessage);
    writer.write({ kind: 'FINISH' });
    const bytes = writer.finish();
    const chunks: Uint8Array[] = [];
    let parquet: ParquetTableWriter | undefined;
    const pending: ExportTable[] = [];
    await streamTeehistorianTables(
      chunksOf(bytes, 4096),
      (table, last) => {
        if (table.name !== 'events') return;
        pending.push({ ...table, columns: table.columns.map((c) => ({ ...c, values: Array.isArray(c.values) ? [...c.values] : c.values.slice(), ...(c.nulls ? { nulls: c.nulls.slice() } : {}) })) });
        if (last) pending.push({ ...table, rows: -1 });
      },
      { rowGroupRows: 16, tables: ['events'] },
    );
    parquet = await parquetTableWriter((b) => chunks.push(b));
    for (const table of pending.slice(0, -1)) parquet.write(table);
    parquet.finish(pending.at(-1)!.metadata);
    const joined = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    chunks.reduce((at, c) => (joined.set(c, at), at + c.length), 0);
    const back = await hyparquet!.parquetReadObjects({ file: joined.buffer as ArrayBuffer });
    const events = teehistorianTables(bytes, { tables: ['events'] })[0]!;
    expect(events.rows).toBeGreaterThan(16);
    expect(back).toEqual(rows(events));
    expect(back.at(-1)).toMatchObject({ cid: null, kind: 'EX:antibot' });
  });

  it.skipIf(!hyparquet)('written by parquetTableWriter batch by batch, each table is the file toParquet writes', async () => {
    const bytes = readBytes(th);
    const expected = new Map<string, Uint8Array>();
    for (const table of teehistorianTables(bytes)) expected.set(table.name, await toParquet(table));
    const out = new Map<string, Uint8Array[]>();
    const writers = new Map<string, ParquetTableWriter>();
    for (const name of expected.keys()) {
      const chunks: Uint8Array[] = [];
      out.set(name, chunks);
      writers.set(name, await parquetTableWriter((b) => chunks.push(b)));
    }
    await streamTeehistorianTables(chunksOf(bytes, 4096), (table, last) => {
      writers.get(table.name)!.write(table);
      if (last) writers.get(table.name)!.finish(table.metadata);
    });
    for (const [name, file] of expected) {
      const chunks = out.get(name)!;
      const joined = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      chunks.reduce((at, c) => (joined.set(c, at), at + c.length), 0);
      expect(joined, name).toEqual(file);
      expect(writers.get(name)!.bytesWritten).toBe(file.length);
    }
  });
});

describe.skipIf(!arrow)('Arrow IPC (apache-arrow; read back with apache-arrow)', () => {
  it('every value, null and the metadata come back', async () => {
    const table = arrow!.tableFromIPC(await toArrow(mixed));
    expect(table.toArray().map((r) => r.toJSON())).toEqual(rows(mixed));
    expect(table.schema.metadata.get('test.key')).toBe('{"x":1}');
    expect(table.schema.fields.map((f) => String(f.type))).toEqual(['Int32', 'Int32', 'Float64', 'Utf8']);
  });

  it('the fixture tables come back row for row', async () => {
    for (const table of [...teehistorianTables(readBytes(th)), ...demoTables(readBytes(demo))]) {
      expect(arrow!.tableFromIPC(await toArrow(table)).toArray().map((r) => r.toJSON()), table.name).toEqual(rows(table));
    }
  });
});

describe.skipIf(!hyparquet || !duckdb)('DuckDB reads the Parquet files (needs @duckdb/node-api, not a dependency of the repository)', () => {
  it('the query of docs/export.md', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(`${tmpdir()}/twcodec-export-`);
    for (const table of teehistorianTables(readBytes(th))) writeFileSync(`${dir}/${table.name}.parquet`, await toParquet(table));
    const db = await (await duckdb!.DuckDBInstance.create(':memory:')).connect();
    const moved = (await db.runAndReadAll(`SELECT cid, count(*)::INTEGER AS records, max(x) - min(x) AS width FROM read_parquet('${dir}/positions.parquet') GROUP BY cid ORDER BY cid`)).getRowObjects();
    const positions = rows(teehistorianTables(readBytes(th), { tables: ['positions'] })[0]!) as { cid: number; x: number }[];
    const expected = [...new Set(positions.map((p) => p.cid))].sort().map((cid) => {
      const xs = positions.filter((p) => p.cid === cid).map((p) => p.x);
      return { cid, records: xs.length, width: Math.max(...xs) - Math.min(...xs) };
    });
    expect(moved).toEqual(expected);
    const header = (await db.runAndReadAll(`SELECT decode(value) AS header FROM parquet_kv_metadata('${dir}/events.parquet') WHERE decode(key) = 'teehistorian.header'`)).getRowObjects();
    expect(JSON.parse(header[0]!.header as string)).toMatchObject({ game_uuid: '1eb21562-66cc-4574-ba49-d748a909b594' });
  });
});
