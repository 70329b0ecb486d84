import { describe, expect, it } from 'vitest';
import { CodecError, encodeI32String, uuidFromName, uuidToInts } from '@twcodec/runtime';
import { DDNET_0_6, Ddnet06CharacterFlags, Ddnet06Weapon, decodeObject, encodeObject, fieldValueText, flagNames, layoutNamed, objectValueNames, Snapshot, snapshotObjects, type SnapshotProtocol, TEEWORLDS_0_7, Teeworlds07GameFlags, validateObject, valueName, viewObject } from './index.js';

const layout = (name: string, protocol: SnapshotProtocol = DDNET_0_6) => layoutNamed(protocol, name)!;
const clientInfo = (name: string, clan: string, skin: string) =>
  Int32Array.of(...encodeI32String(name, 4), ...encodeI32String(clan, 3), 276, ...encodeI32String(skin, 6), 1, 0xff00, 0x00ff);

describe('snapshot objects', () => {
  it('reads named fields through views, packed strings as text (non-ASCII included)', () => {
    const snap = new Snapshot([
      { type: 11, id: 0, data: clientInfo('Ünï 日本', 'clan', 'pinky') },
      { type: 9, id: 0, data: Int32Array.from({ length: 22 }, (_, i) => i) },
    ]);
    const objects = snapshotObjects(snap, DDNET_0_6);
    const [info] = objects.items('client_info');
    expect([info!.name, info!.clan, info!.skin, info!.country, info!.useCustomColor]).toEqual(['Ünï 日本', 'clan', 'pinky', 276, true]);
    const [character] = objects.items('character');
    expect([character!.x, character!.y, character!.velX, character!.health, character!.attackTick]).toEqual([1, 2, 3 / 256, 16, 21]);
    expect(character!.item.id).toBe(0);
    expect(character!.layout.name).toBe('character');
  });

  it('encode(decode(x)) gives back the ints, strings not packed as DDNet packs them included', () => {
    const odd = clientInfo('abc', '', 'default');
    odd[1] = 0x41424344; // bytes after the terminator that StrToInts would not write
    for (const data of [clientInfo('Alpha', 'corpus', 'default'), odd]) {
      const object = decodeObject(layout('client_info'), data);
      expect(Array.from(encodeObject(layout('client_info'), object))).toEqual(Array.from(data));
    }
    // Ints after the known fields (a newer server) are kept.
    const longer = Int32Array.of(1, 2, 3, 4);
    expect(decodeObject(layout('spec_char'), longer)).toEqual({ x: 1, y: 2, extra: [3, 4] });
    expect(Array.from(encodeObject(layout('spec_char'), decodeObject(layout('spec_char'), longer)))).toEqual([1, 2, 3, 4]);
  });

  it('reads a default as the raw int: a fixed field divides it by its scale, a bool tests it, an array repeats it', () => {
    const fields = [
      { name: 'a', kind: 'i32', offset: 0, ints: 1 },
      { name: 'speed', kind: 'fixed', offset: 1, ints: 1, scale: 256, default: 512 },
      { name: 'on', kind: 'bool', offset: 2, ints: 1, default: 1 },
      { name: 'bits', kind: 'i32array', offset: 3, ints: 2, default: 7 },
    ] as const;
    const grown = { name: 'grown', event: false, fields } as const;
    const view = viewObject(grown, { type: 1, id: 0, data: Int32Array.of(5) }) as unknown as Record<string, unknown>;
    expect([view.a, view.speed, view.on, Array.from(view.bits as Int32Array)]).toEqual([5, 2, true, [7, 7]]);
    // Stored, the same ints read as the same values.
    const full = viewObject(grown, { type: 1, id: 0, data: Int32Array.of(5, 512, 1, 7, 7) }) as unknown as Record<string, unknown>;
    expect([full.speed, full.on, Array.from(full.bits as Int32Array)]).toEqual([2, true, [7, 7]]);
  });

  it("reads both sizes of grown objects: 16.4's DDNetCharacter (10 ints) gives the newer field's default", () => {
    const uuid = uuidFromName('character@netobj.ddnet.tw');
    const snap = new Snapshot([
      { type: 0, id: 0x7fff, data: uuidToInts(uuid) },
      { type: 0x7fff, id: 0, data: Int32Array.of(0, 0, 2, 0, 0, 1, 0, 0, 5, 6) },
      { type: 0x7fff, id: 1, data: Int32Array.of(0, 0, 2, 0, 0, 1, 0, 0, 5, 6, 3) },
    ]);
    const [old, current] = snapshotObjects(snap, DDNET_0_6).items('ddnet_character');
    expect([old!.targetX, old!.tuneZoneOverride, current!.tuneZoneOverride]).toEqual([5, -1, 3]);
    expect(old!.toObject()).not.toHaveProperty('tuneZoneOverride');
  });

  it("validate reports what DDNet's snapshot validation would", () => {
    const data = Int32Array.from({ length: 22 }, () => 0);
    data[16] = 11; // health 0..10
    data[6] = -2; // direction -1..1
    const problems = validateObject(layout('character'), { type: 9, id: 4, data });
    expect(problems.map((p) => [p.field, p.code, p.value, p.min, p.max])).toEqual([
      ['direction', 'range', -2, -1, 1],
      ['health', 'range', 11, 0, 10],
    ]);
    // 0.7 flags outside their mask.
    const info7 = Int32Array.of(256, 0, 0);
    expect(validateObject(layout('player_info', TEEWORLDS_0_7), { type: 11, id: 0, data: info7 }).map((p) => p.code)).toEqual(['mask']);
  });

  it('an item too short for its layout reads what it has and reports the rest, never a TypeError', () => {
    const short = { type: 11, id: 2, data: Int32Array.of(...encodeI32String('Al', 4), 1) };
    const [view] = snapshotObjects(new Snapshot([short]), DDNET_0_6).items('client_info');
    expect(view!.name).toBe('Al');
    expect(view!.clan).toEqual(Int32Array.of(1)); // cut inside the string: the ints there are
    expect(view!.country).toBeUndefined();
    const object = decodeObject(layout('client_info'), short.data);
    expect(Array.from(encodeObject(layout('client_info'), object))).toEqual(Array.from(short.data));
    const problems = validateObject(layout('client_info'), short);
    expect(problems[0]).toMatchObject({ code: 'missing', field: 'clan' });
    expect(problems.every((p) => p.code === 'missing')).toBe(true);
  });

  it('bad input to encode and unknown names are CodecErrors', () => {
    expect(() => encodeObject(layout('spec_char'), { x: 'left' as unknown as number, y: 1 })).toThrow(CodecError);
    expect(() => encodeObject(layout('client_info'), { name: 5 as unknown as string })).toThrow(CodecError);
    expect(() => snapshotObjects(new Snapshot([]), DDNET_0_6).items('nope' as 'character')).toThrow(CodecError);
  });

  it('tells unknown items apart: undeclared UUID type ids, declared unknown UUIDs', () => {
    const snap = new Snapshot([
      { type: 0, id: 0x7fff, data: uuidToInts(uuidFromName('nothing@example.org')) },
      { type: 0x7fff, id: 0, data: Int32Array.of(1) },
      { type: 0x7ffe, id: 0, data: Int32Array.of(1) },
      { type: 40, id: 0, data: Int32Array.of(1) },
    ]);
    const reasons = [...snapshotObjects(snap, DDNET_0_6).entries()].map((e) => (e.known ? e.view.layout.name : e.reason));
    expect(reasons).toEqual(['ex', 'unknown_uuid', 'undeclared_uuid_type', 'unknown_type']);
  });

  it('any ints under any layout: views read, decode/encode give them back, validate reports, nothing throws', () => {
    let seed = 7;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 8) / 0x800000;
    for (const protocol of [DDNET_0_6, TEEWORLDS_0_7] as SnapshotProtocol[]) {
      for (const l of [...protocol.items, ...protocol.uuidItems]) {
        const width = l.fields.reduce((n, f) => n + f.ints, 0);
        for (let round = 0; round < 20; round++) {
          const data = Int32Array.from({ length: Math.floor(random() * (width + 3)) }, () => (random() < 0.5 ? Math.floor(random() * 300) - 100 : (random() * 2 ** 32) | 0));
          const item = { type: 1, id: 0, data };
          const view = snapshotObjects(new Snapshot([item]), protocol);
          expect(() => view.validate()).not.toThrow();
          const typed = viewObject(l, item) as unknown as Record<string, unknown>;
          for (const f of l.fields) expect(() => typed[f.name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())]).not.toThrow();
          const object = decodeObject(l, data);
          expect(Array.from(encodeObject(l, object))).toEqual(Array.from(data));
          expect(() => validateObject(l, item)).not.toThrow();
        }
      }
    }
  });
});

describe('snapshot schema errata checked against DDNet (issue 26)', () => {
  it('dates DDNetCharacter\'s display fields to 16.2 and lets DDNetSpectatorInfo be shorter', () => {
    const character = DDNET_0_6.uuidItems.find((u) => u.name === 'ddnet_character')!;
    for (const name of ['jumped_total', 'ninja_activation_tick', 'freeze_start', 'target_x', 'target_y']) expect(character.fields.find((f) => f.name === name)!.since).toBe('16.2');
    // 18.9 and 19.0 send 4 ints; spectator_count came in 19.1.
    expect(DDNET_0_6.uuidItems.find((u) => u.name === 'ddnet_spectator_info')!.variableSize).toBe(true);
  });
});

describe('enum and flag names from the schema (issue 26)', () => {
  it('names weapons, emotes and character flags as DDNet\'s datasrc lists them', () => {
    const character = layout('character');
    const weapon = character.fields.find((f) => f.name === 'weapon')!;
    expect(weapon.values?.name).toBe('weapon');
    expect(valueName(weapon.values!, 1)).toBe('gun');
    expect(valueName(weapon.values!, 99)).toBeUndefined();
    const ddnet = layout('ddnet_character').fields.find((f) => f.name === 'flags')!;
    expect(flagNames(ddnet.values!, 0b11 | (1 << 30))).toEqual(['solo', 'jetpack', 'bit_30']);
    expect(fieldValueText(ddnet, Ddnet06CharacterFlags.Super | Ddnet06CharacterFlags.Invincible)).toBe('super|invincible');
    expect(Ddnet06Weapon.Ninja).toBe(5);
    // Teams start at -2 (TEAM_ALL) in network.py.
    expect(valueName(DDNET_0_6.enums.team!, -1)).toBe('spectators');
    expect(Teeworlds07GameFlags.Race).toBe(8);
    const laser = layout('ddnet_laser').fields.find((f) => f.name === 'type')!;
    expect(valueName(laser.values!, 4)).toBe('dragger');
  });

  it('gives the names beside the numbers of one item', () => {
    const data = new Int32Array(22);
    data[15] = 1 | 16; // player_flags: playing, aim
    data[19] = 3; // weapon: grenade
    data[20] = 2; // emote: happy
    expect(objectValueNames(layout('character'), data)).toEqual({ playerFlags: ['playing', 'aim'], weapon: 'grenade', emote: 'happy' });
  });
});
