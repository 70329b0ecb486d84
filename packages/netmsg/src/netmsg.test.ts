import { describe, expect, it } from 'vitest';
import { ByteWriter, CodecError, encodeUtf8, uuidFromName, uuidToBytes } from '@twcodec/runtime';
import { type AnyNetMessage, type NetFieldType, type NetJsonText, type NetJsonWriter, DDNET_0_6_MESSAGE_ENUMS, DDNET_0_6_MESSAGES, DDNET_0_6_PACKED_MSG_IDS, Ddnet06Weapon, netValueName, peekNetMessage, SERVER_TICK_SPEED, TEEWORLDS_0_7_MESSAGE_ENUMS, TEEWORLDS_0_7_PACKED_MSG_IDS, TEEWORLDS_0_7_MESSAGES, decodeDdnet06Message, decodeTeeworlds07Message, encodeDdnet06Message, encodeTeeworlds07Message, NetMessageError, netMessageDef, sanitizeNetString } from './index.js';

/** Packs ints and strings as DDNet's CPacker does. */
function pack(...parts: (number | string | Uint8Array)[]): Uint8Array {
  const w = new ByteWriter();
  for (const p of parts) {
    if (typeof p === 'number') w.writeVarInt(p);
    else if (typeof p === 'string') w.writeCString(p);
    else w.writeBytes(p);
  }
  return w.finish().slice();
}

describe('net messages (ddnet-0.6)', () => {
  it('decodes a chat line with non-ASCII text and writes it back byte for byte', () => {
    const bytes = pack(3 << 1, 0, 2, 'Hallo äöü 日本語');
    const m = decodeDdnet06Message(bytes);
    expect(m).toEqual({ kind: 'sv_chat', team: 0, clientId: 2, message: 'Hallo äöü 日本語' });
    expect(encodeDdnet06Message(m)).toEqual(bytes);
  });

  it('keeps a demo chunk\'s zero padding as trailing bytes', () => {
    const bytes = pack(3 << 1, 0, -1, 'hi', new Uint8Array(2));
    const m = decodeDdnet06Message(bytes);
    expect(m.kind === 'sv_chat' && m.trailing).toEqual(new Uint8Array(2));
    expect(encodeDdnet06Message(m)).toEqual(bytes);
  });

  it('decodes system messages, UUID messages and a raw field sized by an earlier field', () => {
    const snap = pack((7 << 1) | 1, 1234, 2, -55, 3, new Uint8Array([9, 8, 7]));
    expect(decodeDdnet06Message(snap)).toEqual({ kind: 'snap_single', tick: 1234, deltaTick: 2, crc: -55, partSize: 3, data: new Uint8Array([9, 8, 7]) });
    const kill = pack(0, uuidToBytes(uuidFromName('killmsgteam@netmsg.ddnet.tw')), 5, -1);
    const m = decodeDdnet06Message(kill);
    expect(m).toEqual({ kind: 'sv_kill_msg_team', team: 5, first: -1 });
    expect(encodeDdnet06Message(m)).toEqual(kill);
  });

  it('names a message from its framing alone (peekNetMessage), for numbered and UUID messages', () => {
    const peek = (bytes: Uint8Array) => {
      const { def, id } = peekNetMessage(DDNET_0_6_MESSAGES, bytes);
      return { name: def?.name, id };
    };
    // Only the framing is read: the fields after it may be anything.
    expect(peek(pack((7 << 1) | 1, 0xff))).toEqual({ name: 'snap_single', id: 7 });
    expect(peek(pack(0, uuidToBytes(uuidFromName('killmsgteam@netmsg.ddnet.tw'))))).toEqual({ name: 'sv_kill_msg_team', id: 0 });
    expect(peek(pack(0, new Uint8Array(4)))).toEqual({ name: undefined, id: 0 });
    const chat = netMessageDef(DDNET_0_6_MESSAGES, 'sv_chat')!;
    expect(peek(pack(chat.id << 1))).toEqual({ name: 'sv_chat', id: chat.id });
    expect(peek(new Uint8Array(0))).toEqual({ name: undefined, id: -1 });
  });

  it('reads an optional trailing field when present and leaves it out when an older sender did', () => {
    const uuid = uuidToBytes(uuidFromName('racefinish@netmsg.ddnet.org'));
    const old = decodeDdnet06Message(pack(0, uuid, 1, 3000, -20, 1));
    expect(old).toEqual({ kind: 'sv_race_finish', clientId: 1, time: 3000, diff: -20, recordPersonal: true });
    const current = decodeDdnet06Message(pack(0, uuid, 1, 3000, -20, 1, 0));
    expect(current.kind === 'sv_race_finish' && current.recordServer).toBe(false);
    expect(encodeDdnet06Message(old)).toEqual(pack(0, uuid, 1, 3000, -20, 1));
  });

  it('keeps unknown ids and unknown UUIDs raw', () => {
    const unknownId = pack(99 << 1, 1, 2, 3);
    const u = decodeDdnet06Message(unknownId);
    expect(u).toEqual({ kind: 'unknown', system: false, id: 99, data: new Uint8Array([1, 2, 3]) });
    expect(encodeDdnet06Message(u)).toEqual(unknownId);
    const unknownUuid = pack(1, uuidToBytes(uuidFromName('not-a-message@example.org')), 'x');
    const v = decodeDdnet06Message(unknownUuid);
    expect(v.kind === 'unknown' && v.uuid).toBe(uuidFromName('not-a-message@example.org'));
    expect(encodeDdnet06Message(v)).toEqual(unknownUuid);
  });

  it('reports bad input as NetMessageError with code, offset and path', () => {
    const cut = pack(3 << 1, 0, 2).subarray(0, 3);
    const e = catchError(() => decodeDdnet06Message(cut, { baseOffset: 100 }));
    expect(e).toBeInstanceOf(NetMessageError);
    expect(e).toMatchObject({ code: 'TRUNCATED', offset: 103, path: 'sv_chat.message' });
    expect(catchError(() => decodeDdnet06Message(new Uint8Array(0)))).toMatchObject({ code: 'TRUNCATED', path: 'id' });
    expect(catchError(() => decodeDdnet06Message(pack(-3)))).toMatchObject({ code: 'BAD_MESSAGE_ID' });
    expect(catchError(() => decodeDdnet06Message(pack(0, new Uint8Array(5))))).toMatchObject({ code: 'TRUNCATED' });
    // A bool that is neither 0 nor 1 could not be written back: strict throws, lenient keeps it raw.
    const badBool = pack(17 << 1, 7, 'x');
    expect(catchError(() => decodeDdnet06Message(badBool))).toMatchObject({ code: 'BAD_BOOL', path: 'cl_say.team' });
    const lenient = decodeDdnet06Message(badBool, { lenient: true });
    expect(lenient).toMatchObject({ kind: 'unknown', id: 17, error: expect.stringContaining('BAD_BOOL') });
    expect(encodeDdnet06Message(lenient)).toEqual(badBool);
    // Bytes that are not UTF-8 (DDNet drops such a message) are kept as escapes and written back.
    const badUtf8 = pack(3 << 1, 0, 0, new Uint8Array([0x41, 0xff, 0]));
    const escaped = decodeDdnet06Message(badUtf8);
    expect(escaped.kind === 'sv_chat' && escaped.message).toBe('A\udcff');
    expect(encodeDdnet06Message(escaped)).toEqual(badUtf8);
    // A varint in a longer form than DDNet writes could not be written back the same.
    expect(catchError(() => decodeDdnet06Message(new Uint8Array([3 << 1, 0x80, 0x00, 0, 0])))).toMatchObject({ code: 'VARINT_NONCANONICAL', path: 'sv_chat.team' });
    // A size field larger than the message.
    expect(catchError(() => decodeDdnet06Message(pack((7 << 1) | 1, 1, 1, 1, 500, 1)))).toMatchObject({ code: 'TRUNCATED', path: 'snap_single.data' });
    expect(catchError(() => decodeDdnet06Message(pack((16 << 1) | 1, 1, 1, 1_000_000)))).toMatchObject({ path: 'input.data' });
  });

  it('refuses to encode fields of the wrong type with NetMessageError, not a TypeError', () => {
    expect(catchError(() => encodeDdnet06Message({ kind: 'sv_chat', team: 0, clientId: 'x' as unknown as number, message: '' }))).toMatchObject({ code: 'BAD_FIELD', path: 'sv_chat.client_id' });
    expect(catchError(() => encodeDdnet06Message({ kind: 'sv_chat', team: 0, clientId: 1 } as never))).toMatchObject({ code: 'MISSING_FIELD' });
    expect(catchError(() => encodeDdnet06Message({ kind: 'nope' } as never))).toMatchObject({ code: 'UNKNOWN_MESSAGE' });
  });

  it('sanitises strings as DDNet does, on request', () => {
    expect(sanitizeNetString('a\tb\x01c', 'sanitize')).toBe('a\tb c');
    expect(sanitizeNetString('a\tb\x01c', 'sanitize_cc')).toBe('a b c');
    expect(sanitizeNetString(' \t name\n', 'strict')).toBe('name ');
    expect(netMessageDef(DDNET_0_6_MESSAGES, 'cl_start_info')?.fields[0]?.sanitize).toBe('strict');
  });

  it('has one entry per id and UUID, UUIDs computed from their names', () => {
    const keys = DDNET_0_6_MESSAGES.messages.map((m) => `${m.system} ${m.uuid ?? m.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const m of DDNET_0_6_MESSAGES.messages) if (m.uuidName) expect(m.uuid).toBe(uuidFromName(m.uuidName));
    expect(encodeUtf8('x')).toEqual(new Uint8Array([0x78]));
  });
});

function catchError(f: () => unknown): CodecError {
  try {
    f();
  } catch (e) {
    if (e instanceof CodecError) return e;
    throw e;
  }
  throw new Error('did not throw');
}

describe('net messages (teeworlds-0.7)', () => {
  it('decodes a 0.7 chat line and client info, and writes them back', async () => {
    const chat = pack(3 << 1, 1, 0, -1, 'salut ça va');
    const m = decodeTeeworlds07Message(chat);
    expect(m).toEqual({ kind: 'sv_chat', mode: 1, clientId: 0, targetId: -1, message: 'salut ça va' });
    expect(encodeTeeworlds07Message(m)).toEqual(chat);
    const info = pack(18 << 1, 3, 0, 0, 'nameless tee', '', -1, 'standard', '', '', 'standard', 'standard', 'standard', 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 1);
    const ci = decodeTeeworlds07Message(info);
    expect(ci).toMatchObject({ kind: 'sv_client_info', clientId: 3, local: false, name: 'nameless tee', skinPartColors: [1, 2, 3, 4, 5, 6], silent: true });
    expect(encodeTeeworlds07Message(ci)).toEqual(info);
    const mapData = pack((3 << 1) | 1, new Uint8Array([1, 2, 3]));
    expect(decodeTeeworlds07Message(mapData)).toEqual({ kind: 'map_data', data: new Uint8Array([1, 2, 3]) });
  });
});

describe('schema errata checked against DDNet (issue 26)', () => {
  const field = (table: typeof DDNET_0_6_MESSAGES, message: string, name: string) => netMessageDef(table, message)!.fields.find((f) => f.name === name)!;
  it('carries the ranges DDNet validates', () => {
    // datasrc/network.py: SaveStates (5 values), NetTickStrict = MIN_TICK..MAX_TICK (protocol.h: 0..0x6FFFFFFF).
    expect(field(DDNET_0_6_MESSAGES, 'sv_save_code', 'state')).toMatchObject({ min: 0, max: 4 });
    expect(field(DDNET_0_6_MESSAGES, 'sv_change_info_cooldown', 'wait_until')).toMatchObject({ min: 0, max: 0x6fffffff });
    expect(field(DDNET_0_6_MESSAGES, 'sv_pre_input', 'intended_tick')).toMatchObject({ min: 0, max: 0x6fffffff });
    // datasrc/seven/network.py: Votes (7 values), GameFlags (4 flags), NetBool arrays.
    expect(field(TEEWORLDS_0_7_MESSAGES, 'sv_vote_set', 'type')).toMatchObject({ min: 0, max: 6 });
    expect(field(TEEWORLDS_0_7_MESSAGES, 'sv_game_info', 'game_flags')).toMatchObject({ mask: 15 });
    for (const m of ['sv_client_info', 'cl_start_info', 'sv_skin_change', 'cl_skin_change']) expect(field(TEEWORLDS_0_7_MESSAGES, m, 'use_custom_colors')).toMatchObject({ min: 0, max: 1 });
  });
  it('names the values of enum and flags fields with the sets of the snapshot schemas (issue 37)', () => {
    const weapon = netMessageDef(DDNET_0_6_MESSAGES, 'sv_kill_msg')!.fields.find((f) => f.name === 'weapon')!;
    // Kill messages name -3 game, -2 self, -1 world, then the weapons (kill_weapon is followed by weapon).
    expect(weapon.values).toBe(DDNET_0_6_MESSAGE_ENUMS.kill_weapon);
    expect(netValueName(weapon.values!, Ddnet06Weapon.Grenade)).toBe('grenade');
    expect(netValueName(weapon.values!, -3)).toBe('game');
    expect(netValueName(weapon.values!, -4)).toBeUndefined();
    const flags = netMessageDef(TEEWORLDS_0_7_MESSAGES, 'sv_game_info')!.fields.find((f) => f.name === 'game_flags')!;
    expect(flags.values).toBe(TEEWORLDS_0_7_MESSAGE_ENUMS.game_flags);
    expect(netValueName(flags.values!, 1 | 8)).toBe('teams|race');
    expect(netValueName(flags.values!, 16)).toBeUndefined();
    expect(netMessageDef(TEEWORLDS_0_7_MESSAGES, 'sv_chat')!.fields[0]!.values?.name).toBe('chat_mode');
    // A message decodes to numbers: what it holds, whatever the enum names.
    expect(decodeDdnet06Message(pack(4 << 1, 1, 2, Ddnet06Weapon.Laser, 0))).toMatchObject({ kind: 'sv_kill_msg', weapon: 4 });
  });
  it('tells a message from its first int and UUID without reading its fields', () => {
    expect(peekNetMessage(DDNET_0_6_MESSAGES, pack(3 << 1, 0xff)).def?.name).toBe('sv_chat');
    expect(peekNetMessage(DDNET_0_6_MESSAGES, pack(0, uuidToBytes(uuidFromName('killmsgteam@netmsg.ddnet.tw')))).def?.name).toBe('sv_kill_msg_team');
    expect(peekNetMessage(TEEWORLDS_0_7_MESSAGES, pack(18 << 1)).def?.name).toBe('sv_client_info');
    expect(peekNetMessage(DDNET_0_6_MESSAGES, pack(99 << 1))).toEqual({ def: undefined, id: 99 });
    expect(peekNetMessage(DDNET_0_6_MESSAGES, new Uint8Array(0))).toEqual({ def: undefined, id: -1 });
  });
  it('exports the numbers code needs besides the messages', () => {
    expect(SERVER_TICK_SPEED).toBe(50);
    expect(SERVER_TICK_SPEED).toBe(50);
    expect(DDNET_0_6_PACKED_MSG_IDS.sv_chat).toBe(3 << 1);
    expect(DDNET_0_6_PACKED_MSG_IDS.snap_single).toBe((7 << 1) | 1);
    expect(TEEWORLDS_0_7_PACKED_MSG_IDS.sv_client_info).toBe(18 << 1);
  });
  it('says when DDNet added a message', () => {
    expect(netMessageDef(DDNET_0_6_MESSAGES, 'sv_save_code')!.since).toBe('19.6');
    expect(netMessageDef(DDNET_0_6_MESSAGES, 'sv_pre_input')!.since).toBe('19.4');
    expect(netMessageDef(DDNET_0_6_MESSAGES, 'sv_change_info_cooldown')!.since).toBe('18.2');
  });
});


describe('a demo\'s zero padding is not data (issue 26)', () => {
  /** Pads as DDNet's demo recorder does: zeros to a multiple of 4 bytes. */
  const padded = (bytes: Uint8Array) => {
    const out = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
    out.set(bytes);
    return out;
  };
  const teamsHeader = (...rest: number[]) => pack(0, uuidToBytes(uuidFromName('teamsstate@netmsg.ddnet.tw')), ...rest);

  it('sv_teams_state: 64 teams (DDNet\'s MAX_CLIENTS), the padding in trailing', () => {
    const bytes = padded(teamsHeader(...Array.from({ length: 64 }, (_, i) => (i === 5 ? 3 : 0))));
    expect(bytes.length % 4).toBe(0);
    const m = decodeDdnet06Message(bytes);
    expect(m.kind === 'sv_teams_state' && m.teams.length).toBe(64);
    expect(m.kind === 'sv_teams_state' && m.trailing).toEqual(new Uint8Array(3));
    expect(encodeDdnet06Message(m)).toEqual(bytes);
  });

  it('sv_tune_params: the 45 values DDNet 16.4 sends with 1, 2 or 3 bytes of padding, and 47 of 18.0', () => {
    for (const big of [0, 1, 2, 3]) {
      // Values of two bytes move the message's length through every remainder mod 4.
      const values = Array.from({ length: 45 }, (_, i) => (i < big ? 1000 : 7));
      const bytes = padded(pack(6 << 1, ...values));
      const m = decodeDdnet06Message(bytes);
      expect(m.kind === 'sv_tune_params' && m.params).toEqual(values);
      expect(encodeDdnet06Message(m)).toEqual(bytes);
    }
    const newer = Array.from({ length: 47 }, () => 9);
    const n = decodeDdnet06Message(padded(pack(6 << 1, ...newer)));
    expect(n.kind === 'sv_tune_params' && n.params).toEqual(newer);
  });

  it('keeps zeros as data where the message was not padded', () => {
    // 1 + 45 + 1 bytes: not a multiple of 4, so no demo padded it.
    const bytes = pack(6 << 1, ...Array.from({ length: 45 }, () => 1), 0);
    expect(bytes.length % 4).not.toBe(0);
    const m = decodeDdnet06Message(bytes);
    expect(m.kind === 'sv_tune_params' && m.params.length).toBe(46);
  });

  it('an optional last field the sender left out is absent, not read from the padding (issue 37)', () => {
    const uuid = uuidToBytes(uuidFromName('racefinish@netmsg.ddnet.org'));
    // An older server's sv_race_finish without record_server: 22 bytes, padded with 2 zeros.
    const older = pack(0, uuid, 1, 3000, -20, 1);
    const bytes = padded(older);
    expect(bytes.length - older.length).toBe(2);
    const m = decodeDdnet06Message(bytes, { padded: true });
    expect(m).toEqual({ kind: 'sv_race_finish', clientId: 1, time: 3000, diff: -20, recordPersonal: true, trailing: new Uint8Array(2) });
    expect(encodeDdnet06Message(m)).toEqual(bytes);
    // The same by the length alone (no option), as before for fields read to the end.
    expect(decodeDdnet06Message(bytes)).toEqual(m);
    // From the network nothing is padding: the zero byte is the field.
    const sent = decodeDdnet06Message(bytes, { padded: false });
    expect(sent).toMatchObject({ recordServer: false, trailing: new Uint8Array(1) });
    // A field that is there with a byte other than 0 is read, padding or not.
    const current = padded(pack(0, uuid, 1, 3000, -20, 1, 1));
    expect(decodeDdnet06Message(current, { padded: true })).toMatchObject({ recordServer: true, trailing: new Uint8Array(1) });
    // 0.7's input without ping_correction (Teeworlds 0.7.0's client), padded.
    const unpadded = pack((20 << 1) | 1, 10, 12, 40, ...Array.from({ length: 10 }, () => 0));
    const input = padded(unpadded);
    expect(input.length - unpadded.length).toBe(2);
    const i = decodeTeeworlds07Message(input, { padded: true });
    expect(i.kind === 'input' && i.pingCorrection).toBeUndefined();
    expect(encodeTeeworlds07Message(i)).toEqual(input);
  });

  it('maplist_add: empty names are padding', () => {
    const bytes = padded(pack(1, uuidToBytes(uuidFromName('sv-maplist-add@ddnet.org')), 'ctf1', 'dm1'));
    const m = decodeDdnet06Message(bytes);
    expect(m.kind === 'maplist_add' && m.maps).toEqual(['ctf1', 'dm1']);
    expect(encodeDdnet06Message(m)).toEqual(bytes);
  });

  it('0.7: sv_vote_option_list_add reads num_options strings, sv_game_msg the ints its id takes', () => {
    const list = padded(pack(12 << 1, 2, 'a', 'b'));
    const l = decodeTeeworlds07Message(list);
    expect(l).toMatchObject({ kind: 'sv_vote_option_list_add', numOptions: 2, descriptions: ['a', 'b'] });
    expect(encodeTeeworlds07Message(l)).toEqual(list);
    const capture = padded(pack(21 << 1, 9, 1, 3, 250));
    expect(decodeTeeworlds07Message(capture)).toMatchObject({ kind: 'sv_game_msg', gameMsgId: 9, params: [1, 3, 250] });
    const swap = padded(pack(21 << 1, 0));
    const s = decodeTeeworlds07Message(swap);
    expect(s).toMatchObject({ kind: 'sv_game_msg', gameMsgId: 0, params: [], trailing: new Uint8Array(2) });
    expect(encodeTeeworlds07Message(s)).toEqual(swap);
    // An id DDNet does not know stays raw.
    expect(decodeTeeworlds07Message(pack(21 << 1, 11), { lenient: true })).toMatchObject({ kind: 'unknown', error: expect.stringContaining('BAD_LENGTH') });
  });
});

describe('the generated JSON writers (NetMessageDef.json)', () => {
  /** A NetJsonWriter that makes text, byte arrays as hex (as the CLI's lines write them). */
  class TextWriter implements NetJsonWriter {
    out = '';
    ascii(text: string) {
      this.out += text;
    }
    text(t: NetJsonText) {
      this.out += t.text;
    }
    byte(code: number) {
      this.out += String.fromCharCode(code);
    }
    number(value: number) {
      this.out += JSON.stringify(value);
    }
    textNumber(t: NetJsonText, value: number) {
      this.out += t.text + JSON.stringify(value);
    }
    boolean(value: boolean) {
      this.out += JSON.stringify(value);
    }
    string(value: string) {
      this.out += JSON.stringify(value);
    }
    bytes(value: Uint8Array) {
      this.out += JSON.stringify(hexOf(value));
    }
    numbers(values: readonly number[]) {
      this.out += JSON.stringify(values);
    }
    strings(values: readonly string[]) {
      this.out += JSON.stringify(values);
    }
  }
  const hexOf = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  const sample: Record<NetFieldType, (i: number) => unknown> = {
    int: (i) => -i * 1000,
    tick: (i) => 50 + i,
    bool: (i) => i % 2 === 0,
    string: (i) => `f${i} "q" \\ é 日本\n`,
    uuid: () => uuidFromName('x@example.org'),
    raw: (i) => new Uint8Array([i, 255, 0]),
    raw_rest: (i) => new Uint8Array([0, i]),
    int_array: (i) => [i, -1, 2 ** 31 - 1],
    int_rest: () => [],
    string_array: (i) => [`a${i}`, ''],
    string_rest: () => ['x', 'y"'],
  };

  it.each([DDNET_0_6_MESSAGES, TEEWORLDS_0_7_MESSAGES])('write every message of $protocol as JSON.stringify writes its fields, with its optional fields there or not', (table) => {
    for (const def of table.messages) {
      const firstOptional = def.fields.findIndex((f) => f.optional);
      // The decoder stops at the first optional field that is absent: every prefix from there on is a message.
      for (let n = firstOptional < 0 ? def.fields.length : firstOptional; n <= def.fields.length; n++) {
        const message: AnyNetMessage = { kind: def.name };
        for (const [i, f] of def.fields.slice(0, n).entries()) message[f.key] = sample[f.type](i);
        const w = new TextWriter();
        def.json!(message, w);
        const { kind: _, ...fields } = message;
        expect(w.out, `${def.name} with ${n} fields`).toBe(JSON.stringify(fields, (_k, v: unknown) => (v instanceof Uint8Array ? hexOf(v) : v)));
        expect(JSON.parse(w.out)).toBeTypeOf('object');
      }
    }
  });
});

const BOM = Uint8Array.of(0xef, 0xbb, 0xbf);
/** sv_chat (id 3, not system) with team, client id and the message's bytes up to its NUL. */
const chat = (team: number, clientId: number, text: Uint8Array) => pack(3 << 1, team, clientId, text, Uint8Array.of(0));

// A message is kept only when it is written back byte for byte (NOT_CANONICAL otherwise; lenient: raw). Only a
// text can read as a value that writes back otherwise: the reader checks each text that is not short ASCII as
// it reads it (ByteReader.checkTexts), where the whole message used to be encoded again (issue 41).
describe('net messages written back as read', () => {
  it('refuses a text that starts with a byte order mark (TextDecoder drops it), short or long', () => {
    for (const text of ['hi', 'x'.repeat(100)]) {
      const bytes = chat(0, 2, Uint8Array.from([...BOM, ...new TextEncoder().encode(text)]));
      let error: unknown;
      try {
        decodeDdnet06Message(bytes);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(NetMessageError);
      expect(error).toMatchObject({ code: 'NOT_CANONICAL', offset: 1, path: 'sv_chat' });
      const lenient = decodeDdnet06Message(bytes, { lenient: true });
      expect(lenient).toMatchObject({ kind: 'unknown', id: 3, error: expect.stringContaining('NOT_CANONICAL') });
      expect(encodeDdnet06Message(lenient)).toEqual(bytes);
    }
  });

  it('refuses a byte order mark in any text of a list (string_rest)', () => {
    const bytes = encodeDdnet06Message({ kind: 'maplist_add', maps: ['x', '\ufeffy'] } as never);
    expect(() => decodeDdnet06Message(bytes)).toThrow(expect.objectContaining({ code: 'NOT_CANONICAL' }));
    expect(decodeDdnet06Message(encodeDdnet06Message({ kind: 'maplist_add', maps: ['x', 'y\u00e4'] } as never))).toEqual({ kind: 'maplist_add', maps: ['x', 'y\u00e4'] });
  });

  it('keeps texts that come back: not UTF-8 (escaped), long, not ASCII, and ASCII beside large ints', () => {
    for (const text of [Uint8Array.of(0x61, 0xff, 0x62), new TextEncoder().encode('\u00e4'.repeat(40)), new TextEncoder().encode('y'.repeat(200)), new TextEncoder().encode('a\ufeffb')]) {
      const bytes = chat(1, 5, text);
      const m = decodeDdnet06Message(bytes);
      expect(m.kind).toBe('sv_chat');
      expect(encodeDdnet06Message(m)).toEqual(bytes);
    }
    // Two-byte ints (bytes past 0x7f) and ASCII text: no text to check.
    const bytes = chat(1000, 5000, new TextEncoder().encode('hello'));
    expect(decodeDdnet06Message(bytes)).toEqual({ kind: 'sv_chat', team: 1000, clientId: 5000, message: 'hello' });
  });
});
