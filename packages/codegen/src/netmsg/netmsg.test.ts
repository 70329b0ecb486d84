// A maintainer adds a DDNet net message by editing YAML only (docs/maintainers.md, "A new net message"):
// the generator turns it into a typed interface, a table entry and a docs section; the result compiles
// and the message decodes and encodes byte for byte.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ByteWriter, uuidFromName, uuidToBytes } from '@twcodec/runtime';
import { repoRoot } from '../../../../test/corpus.js';
import { typeCheck } from '../../../../test/typecheck.js';
import { generate } from '../generate.js';
import { jsonTextCall } from './emit.js';
import { SchemaError } from '../shared/schema-files.js';
import { loadSnapshotSchemas } from '../snapshot/load.js';
import { loadNetSchemas } from './load.js';

// Exactly the text docs/maintainers.md shows.
const NEW_MESSAGE = `  - name: sv_player_rank
    uuid_name: player-rank@netmsg.example.org
    direction: server
    since: "19.0"
    description: A player's rank changed.
    fields:
      - { name: client_id, type: int, min: 0, max: 127, description: Client id. }
      - { name: rank, type: int, description: The new rank. }
      - { name: title, type: string, sanitize: strict, description: Rank title. }
      - { name: season, type: int, optional: true, since: "19.1", description: Season (added later). }
`;

function copySchemas(): string {
  const dir = mkdtempSync(join(tmpdir(), 'twcodec-net-'));
  cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
  return dir;
}

describe('net message schemas', () => {
  it('turn a message added in YAML only into a typed codec that round-trips', async () => {
    const dir = copySchemas();
    appendFileSync(join(dir, 'schemas', 'netmsg', 'ddnet-0.6.yaml'), NEW_MESSAGE);
    const src = join(dir, 'src');
    mkdirSync(src, { recursive: true });
    for (const f of ['codec.ts', 'table.ts', 'json-text.ts', 'error-codes.ts']) cpSync(join(repoRoot, 'packages', 'netmsg', 'src', f), join(src, f));
    generate({ root: dir, netOut: join(src, 'generated'), mapOut: join(dir, 'out', 'map'), teehistorianOut: join(dir, 'out', 'th'), snapshotOut: join(dir, 'out', 'snap'), docsOut: join(dir, 'docs') });

    const file = join(src, 'generated', 'ddnet-0.6.gen.ts');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('export interface SvPlayerRankMessage');
    expect(readFileSync(join(dir, 'docs', 'net-messages.md'), 'utf8')).toContain('#### sv_player_rank');

    expect(typeCheck([file])).toEqual([]);

    const gen = await import(pathToFileURL(file).href);
    const w = new ByteWriter();
    w.writeVarInt(0); // game message, id 0: a UUID follows
    w.writeBytes(uuidToBytes(uuidFromName('player-rank@netmsg.example.org')));
    w.writeVarInt(3);
    w.writeVarInt(12);
    w.writeCString('Grandmaster');
    const older = w.finish().slice();
    const m = gen.decodeDdnet06Message(older);
    expect(m).toEqual({ kind: 'sv_player_rank', clientId: 3, rank: 12, title: 'Grandmaster' });
    expect(gen.encodeDdnet06Message(m)).toEqual(older);
    const newer = gen.encodeDdnet06Message({ ...m, season: 4 });
    expect(gen.decodeDdnet06Message(newer).season).toBe(4);
  });

  it('carry net_version and recorded: false from the YAML into the table and the docs', () => {
    const dir = copySchemas();
    const file = join(dir, 'schemas', 'netmsg', 'teeworlds-0.7.yaml');
    const yaml = readFileSync(file, 'utf8');
    writeFileSync(file, yaml.replace(/^net_version: .*$/m, 'net_version: "0.7 0123456789abcdef"').replace('  - { name: sv_emoticon, id: 10, direction: server,', '  - { name: sv_emoticon, id: 10, direction: server, recorded: false,'));
    const out = join(dir, 'gen');
    generate({ root: dir, netOut: out, mapOut: join(dir, 'out', 'map'), teehistorianOut: join(dir, 'out', 'th'), snapshotOut: join(dir, 'out', 'snap'), docsOut: join(dir, 'docs') });
    const text = readFileSync(join(out, 'teeworlds-0.7.gen.ts'), 'utf8');
    expect(text).toContain("netVersion: '0.7 0123456789abcdef',");
    expect(text).toMatch(/\{ name: 'sv_emoticon', [^\n]*recorded: false/);
    expect(text).toMatch(/\{ name: 'sv_client_info', [^\n]*recorded: false/);
    expect(text).not.toMatch(/\{ name: 'sv_chat', [^\n]*recorded: false/);
    const docs = readFileSync(join(dir, 'docs', 'net-messages.md'), 'utf8');
    expect(docs).toContain('`0.7 0123456789abcdef`');
    expect(docs).toMatch(/#### sv_emoticon\n\n[^\n]*recorded: no/);
    // Where facts were checked is on the page: a protocol's sources as a list, a message's own in its section.
    expect(docs).toMatch(/## teeworlds-0\.7\n[\s\S]*Checked against:\n\n- Teeworlds 0\.7\.5 datasrc\/network\.py/);
    expect(docs).toMatch(/#### input\n\n[^\n]*id 20[^\n]*\n\nChecked: Teeworlds 0\.7\.5 src\/engine\/client\/client\.cpp SendInput/);
  });

  it("give 0.7 DDNet's UUID messages (uuid_messages_from), renaming those whose name 0.7 has", () => {
    const seven = loadNetSchemas(join(repoRoot, 'schemas'), repoRoot).find((p) => p.protocol === 'teeworlds-0.7')!;
    const taken = seven.messages.filter((m) => m.from);
    expect(taken.length).toBeGreaterThan(40);
    expect(taken.every((m) => m.uuid && m.from!.protocol === 'ddnet-0.6')).toBe(true);
    expect(taken.find((m) => m.name === 'capabilities')?.uuidName).toBe('capabilities@ddnet.tw');
    // 0.7 has a numbered sv_race_finish of its own.
    expect(taken.find((m) => m.from!.name === 'sv_race_finish')?.name).toBe('ddnet_sv_race_finish');
    expect(new Set(seven.messages.map((m) => m.name)).size).toBe(seven.messages.length);
  });

  it('take enums from the snapshot schema of their protocol: a weapon added there reaches every weapon field (issue 37)', () => {
    const dir = copySchemas();
    for (const protocol of ['ddnet-0.6', 'teeworlds-0.7']) {
      const path = join(dir, 'schemas', 'snapshot', `${protocol}.yaml`);
      const text = readFileSync(path, 'utf8');
      const weapons = 'values: [hammer, gun, shotgun, grenade, laser, ninja] }';
      expect(text).toContain(weapons);
      writeFileSync(path, text.replace(weapons, 'values: [hammer, gun, shotgun, grenade, laser, ninja, tractor_beam] }'));
    }
    const snapshot = loadSnapshotSchemas(join(dir, 'schemas'), dir);
    const net = loadNetSchemas(join(dir, 'schemas'), dir, snapshot);
    // kill_weapon (kill messages: -3 game, -2 self, -1 world) is followed by weapon's values: the new one too.
    const isWeapon = (f: { enum?: string }) => f.enum === 'weapon' || f.enum === 'kill_weapon';
    const weaponFields = [
      ...snapshot.flatMap((p) => [...p.items, ...p.uuidItems].flatMap((item) => item.fields.filter(isWeapon).map((f) => ({ where: `${p.protocol} ${item.name}.${f.name}`, min: f.min, max: f.max })))),
      ...net.flatMap((p) => p.messages.flatMap((m) => m.fields.filter(isWeapon).map((f) => ({ where: `${p.protocol} ${m.name}.${f.name}`, min: f.min, max: f.max, values: f.values?.values.length })))),
    ];
    // 7 snapshot fields (projectiles' types, characters' weapons, 0.7's wanted weapon) and 4 message fields
    // (kill messages, weapon pickups) on main when this was written.
    expect(weaponFields.length).toBeGreaterThanOrEqual(11);
    for (const f of weaponFields) expect(f, f.where).toMatchObject({ max: 6 });
    // Ranges stay: -3 is WEAPON_GAME in kill messages (from kill_weapon), -1 no weapon in characters (the schema's).
    expect(weaponFields.find((f) => f.where === 'ddnet-0.6 sv_kill_msg.weapon')).toMatchObject({ min: -3, max: 6, values: 10 });
    expect(weaponFields.find((f) => f.where === 'teeworlds-0.7 character.weapon')).toMatchObject({ min: -1, max: 6 });
    // The generated table names the new value; the docs list it.
    const src = join(dir, 'src');
    mkdirSync(src, { recursive: true });
    for (const f of ['codec.ts', 'table.ts', 'json-text.ts']) cpSync(join(repoRoot, 'packages', 'netmsg', 'src', f), join(src, f));
    generate({ root: dir, netOut: join(src, 'generated'), mapOut: join(dir, 'out', 'map'), teehistorianOut: join(dir, 'out', 'th'), snapshotOut: join(dir, 'out', 'snap'), explorerOut: join(dir, 'out', 'explorer'), packetOut: join(dir, 'out', 'net'), docsOut: join(dir, 'docs') });
    const generated = readFileSync(join(src, 'generated', 'ddnet-0.6.gen.ts'), 'utf8');
    expect(generated).toContain('TractorBeam: 6,');
    expect(generated).toMatch(/Ddnet06KillWeapon = \{\s+Game: -3,[^}]*Ninja: 5,\s+TractorBeam: 6,/);
    expect(readFileSync(join(dir, 'docs', 'net-messages.md'), 'utf8')).toMatch(/`weapon` \(`WEAPON_\*`\) \| enum \| .*6 tractor_beam/);
  });

  it('report mistakes with file, line and column', () => {
    const check = (edit: (dir: string) => void) => {
      const dir = copySchemas();
      edit(dir);
      let error: unknown;
      try {
        generate({ root: dir, check: true });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SchemaError);
      return String((error as Error).message);
    };
    // A file the JSON schema refuses stops the loader before the cross-checks, as in every family.
    const bad = check((dir) => writeFileSync(join(dir, 'schemas', 'netmsg', 'bad.yaml'), 'net_protocol: bad\nnet_version: 0.6 0000000000000000\ndescription: x\nmessages:\n  - { name: a, id: 1, direction: sideways, description: x, fields: [] }\n'));
    expect(bad).toMatch(/^schemas\/netmsg\/bad\.yaml:5:\d+: messages\/0\/direction: must be one of server, client, both$/);
    const text = check((dir) => {
      appendFileSync(join(dir, 'schemas', 'netmsg', 'ddnet-0.6.yaml'), '  - { name: sv_chat, id: 3, direction: server, description: x, fields: [] }\n  - { name: sv_sword, id: 90, direction: server, description: x, fields: [ { name: sword, type: int, enum: sword, description: x } ] }\n');
      writeFileSync(join(dir, 'schemas', 'netmsg', 'bad.yaml'), 'net_protocol: bad\nnet_version: 0.6 0000000000000000\ndescription: x\nmessages:\n  - name: b\n    id: 2\n    direction: server\n    description: x\n    fields:\n      - { name: rest, type: int_rest, description: x }\n      - { name: after, type: int, description: x }\n');
    });
    expect(text).toMatch(/schemas\/netmsg\/bad\.yaml:10:\d+: a int_rest field must be the last one/);
    expect(text).toMatch(/schemas\/netmsg\/ddnet-0\.6\.yaml:\d+:\d+: message sv_chat is defined twice/);
    expect(text).toMatch(/schemas\/netmsg\/ddnet-0\.6\.yaml:\d+:\d+: enum sword is not among the enums of schemas\/snapshot\/ddnet-0\.6\.yaml \(emote, .*weapon/);
  });

  it('refuse recorded: true (absent means recorded) and a net_version of another shape, with file:line:col', () => {
    const dir = copySchemas();
    const file = join(dir, 'schemas', 'netmsg', 'teeworlds-0.7.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^net_version: .*$/m, 'net_version: "0.7"').replace('id: 10, direction: server,', 'id: 10, direction: server, recorded: true,'));
    let error: unknown;
    try {
      loadNetSchemas(join(dir, 'schemas'), dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaError);
    const text = String((error as Error).message);
    expect(text).toMatch(/schemas\/netmsg\/teeworlds-0\.7\.yaml:\d+:\d+: net_version: must match pattern/);
    expect(text).toMatch(/schemas\/netmsg\/teeworlds-0\.7\.yaml:\d+:\d+: messages\/\d+\/recorded: must be equal to constant/);
  });
});

describe('jsonTextCall', () => {
  it("writes a JSON text's words out as its bytes, four to a little-endian int32, the last padded with zeros (issue 41)", () => {
    for (const text of ['', '}', '{}', ',"a":', '{"flags":', ',"num_chunks":', ',"clientVersion":', '~\u007f"\\']) {
      const call = jsonTextCall('netJsonText', text);
      const words = JSON.parse(/, (\[[-\d, ]*\])\)$/.exec(call)![1]!) as number[];
      const bytes = Buffer.alloc(4 * Math.ceil(text.length / 4));
      bytes.write(text, 'latin1');
      expect(words).toEqual(Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readInt32LE(4 * i)));
    }
  });
});

describe('net-messages.md template', () => {
  it('a placeholder the emitter does not fill is an error at its line:col', () => {
    const dir = copySchemas();
    const template = join(dir, 'schemas', 'netmsg', 'net-messages.md');
    writeFileSync(template, `${readFileSync(template, 'utf8')}\nsee {{ddnet-0.6:no_such_table}}\n`);
    expect(() => generate({ root: dir, netOut: join(dir, 'out', 'net'), mapOut: join(dir, 'out', 'map'), teehistorianOut: join(dir, 'out', 'th'), snapshotOut: join(dir, 'out', 'snap'), docsOut: join(dir, 'docs') })).toThrow(/net-messages\.md:\d+:5: unknown placeholder \{\{ddnet-0\.6:no_such_table\}\}/);
  });
});
