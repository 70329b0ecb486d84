// Seeds of the net-client fuzz target (fuzz/net-client-target.mjs): what a server sends a client, as one input.
// An input is a header and the server's datagrams with the time before each:
//   byte 0: bit 0 set for 0.7, bit 1 to download the map (ClientOptions.downloadMap), bit 2 to record with the
//           real caps (`net record`'s: recordDemo's and the map download's defaults) instead of the target's small ones;
//   bytes 1-4: the client's 0.7 token (u32 LE, the token the server's headers carry)
//   then records: delay (u8, in 4 ms steps), length (u16 LE), the datagram
// Seeds: a session scripted here (both protocols: handshake, map, a few snapshots with items, chat, acks, server
// info replies), so that the target lives without ../shared, and its hostile variants (issue 36): ticks up to
// 2^31 - 1, map names a demo header cannot hold (64+ bytes, cut inside a UTF-8 sequence, with '/'), a map change
// in game (the client loads or downloads the next map and enters again), and a big snapshot followed by
// snap_empty 251 ticks apart (a keyframe each) recorded with the real caps; and the server's side of the corpus captures
// (DDNet 16.4 in connless.pcap and ddnet-0.6-session.pcap, Teeworlds 0.7.5 in teeworlds-0.7-session.pcap and the
// fixture cut of it), cut to their first 160 datagrams; and a client of the DDNet session that downloads the map.
import { decodePacket, encodePacket, isConnless, readCapture, udpOf } from '@twcodec/net';
import { crc32, packVarInt, sha256 } from '@twcodec/runtime';
import { createDelta, DDNET_0_6, Snapshot, TEEWORLDS_0_7 } from '@twcodec/snapshot';

/** Delay units (ms) of a record; the longest delay a record says is 255 of them. */
export const DELAY_STEP_MS = 4;
/** The token the scripted server hands out, and the one the scripted 0.7 client gets (a fixed 0.7 `token`). */
const SECURITY_TOKEN = 0x94dba809;
const CLIENT_TOKEN_07 = 0x1c2d3e4f;
/**
 * Server-info replies carry tokens the query picked at random; the seeds put these placeholders there and the
 * target writes the query's own tokens over them (fields of a reply that still decodes after mutation).
 */
export const INFO_TOKEN = { basic: 0x5a, extended: 0x5a5a5a, own07: 0x0badcafe, browser07: 0x1badcafe };

/** The input's parts; a record cut short takes the bytes that are there. */
export function readInput(bytes) {
  const protocol = (bytes[0] ?? 0) & 1 ? '0.7' : '0.6';
  const downloadMap = ((bytes[0] ?? 0) & 2) !== 0;
  const realCaps = ((bytes[0] ?? 0) & 4) !== 0;
  const token = ((bytes[1] ?? 0) | ((bytes[2] ?? 0) << 8) | ((bytes[3] ?? 0) << 16) | ((bytes[4] ?? 0) << 24)) >>> 0;
  const datagrams = [];
  for (let at = 5; at < bytes.length; ) {
    const delay = bytes[at] * DELAY_STEP_MS;
    const length = (bytes[at + 1] ?? 0) | ((bytes[at + 2] ?? 0) << 8);
    datagrams.push({ delay, bytes: bytes.subarray(at + 3, at + 3 + length) });
    at += 3 + length;
  }
  return { protocol, downloadMap, realCaps, token, datagrams };
}

export function writeInput(protocol, token, datagrams, downloadMap = false, realCaps = false) {
  const out = [(protocol === '0.7' ? 1 : 0) | (downloadMap ? 2 : 0) | (realCaps ? 4 : 0), token & 0xff, (token >>> 8) & 0xff, (token >>> 16) & 0xff, token >>> 24];
  for (const { delay, bytes } of datagrams) out.push(Math.min(255, Math.round(delay / DELAY_STEP_MS)), bytes.length & 0xff, bytes.length >> 8, ...bytes);
  return Uint8Array.from(out);
}

/**
 * A server session scripted with encodePacket, as client.test.ts's scripted server plays it; `download`: the map
 * sent too. Variants: `firstTick` (the snapshots' first tick: 2^31 - 31 runs them to the last an int holds),
 * `mapName`, `changeTo` (the server changes to that map after the snapshots, the client enters again and gets
 * more), `keyframes` (a big snapshot, then that many snap_empty 251 ticks apart), `realCaps` (the header bit).
 */
function scriptedSession(protocol, download, { firstTick = 100, mapName = 'ctf2', changeTo, keyframes = 0, realCaps = false, bot = false } = {}) {
  const datagrams = [];
  let sequence = 0;
  let delay = 20;
  const send = (packet) => {
    const p = { protocol, ...packet };
    if (protocol === '0.6') p.securityToken = SECURITY_TOKEN;
    else p.header = { ...p.header, token: CLIENT_TOKEN_07 };
    datagrams.push({ delay, bytes: encodePacket(p) });
  };
  const control = (c) => send({ kind: 'control', header: { flags: protocol === '0.6' ? 4 : 1, ack: 0, num_chunks: 0 }, flags: ['control'], control: { id: 0, ...c } });
  const chunks = (messages, vital, ack = 0) =>
    send({ kind: 'connection', header: { flags: 0, ack, num_chunks: messages.length }, flags: [], chunks: messages.map((message) => ({ flags: vital ? ['vital'] : [], size: 0, ...(vital ? { sequence: ++sequence } : {}), message })) });
  const items = protocol === '0.7' ? TEEWORLDS_0_7 : DDNET_0_6;
  const snapshot = (tick, next, base, ack) => {
    const delta = createDelta(base?.snapshot ?? new Snapshot([]), next, items);
    const packed = new Uint8Array(delta.length * 5);
    let size = 0;
    for (const v of delta) size = packVarInt(v, packed, size);
    const data = packed.subarray(0, size);
    const deltaTick = base ? tick - base.tick : tick + 1;
    if (size <= 900 && tick % 3) return chunks([{ kind: 'snap_single', tick, deltaTick, crc: next.checksum(), partSize: size, data }], false, ack);
    // Every third tick in two parts, so that the seeds hold `snap` as well; a big one in parts of 900 bytes.
    const numParts = Math.max(2, Math.ceil(size / 900));
    const step = Math.ceil(size / numParts);
    for (let part = 0; part < numParts; part++) {
      const bytes = data.subarray(part * step, (part + 1) * step);
      chunks([{ kind: 'snap', tick, deltaTick, numParts, part, crc: next.checksum(), partSize: bytes.length, data: bytes }], false, ack);
    }
  };

  if (protocol === '0.6') control({ kind: 'connect_accept', tokenMagic: true });
  else (control({ kind: 'token', responseToken: 0x1234 }), control({ kind: 'accept' }));
  // A map of 2500 bytes (a few chunks of either protocol) when downloading, else the corpus' ctf2 by name.
  const map = Uint8Array.from({ length: 2500 }, (_, i) => (i * 29 + (i >> 7)) & 0xff);
  const [crc, size, sha] = download ? [crc32(map) | 0, map.length, sha256(map)] : [0x27bc5eac, 25626, Uint8Array.from({ length: 32 }, (_, i) => i * 7)];
  /** The map change and, when downloading, the map's chunks, then the server's con_ready (and 0.7's ready to enter). */
  const load = (name, ack) => {
    if (protocol === '0.6') chunks([{ kind: 'map_details', mapName: name, mapSha256: sha, mapCrc: crc, mapSize: size }], true);
    chunks([{ kind: 'map_change', mapName: name, mapCrc: crc, mapSize: size, ...(protocol === '0.7' ? { chunksPerRequest: 2, chunkSize: 1000, mapSha256: sha } : {}) }], true, ack);
    if (download) {
      const step = protocol === '0.7' ? 1000 : 896;
      for (let chunk = 0; chunk * step < map.length; chunk++) {
        const data = map.subarray(chunk * step, (chunk + 1) * step);
        chunks([protocol === '0.7' ? { kind: 'map_data', data } : { kind: 'map_data', last: (chunk + 1) * step >= map.length, mapCrc: crc, chunk, chunkSize: data.length, data }], true, ack + chunk);
      }
    }
    chunks([{ kind: 'con_ready' }], true, ack + 1);
    if (protocol === '0.7') chunks([{ kind: 'sv_ready_to_enter' }], true, ack + 1);
  };
  /** Snapshots every second tick from `from` (to the last an int holds at most), with a chat line and an emoticon. */
  const game = (from, count) => {
    let base;
    for (let tick = from; tick < from + 2 * count && tick <= 2 ** 31 - 1; tick += 2) {
      const next = new Snapshot([
        { type: 200, id: 0, data: Int32Array.of(tick, 3, -tick) },
        { type: 201, id: tick % 5, data: Int32Array.from({ length: 1 + (tick % 4) }, (_, i) => i * tick) },
      ]);
      snapshot(tick, next, base, Math.min(4, sequence));
      base = { tick, snapshot: next };
      if (tick === from + 6) chunks([protocol === '0.7' ? { kind: 'sv_chat', mode: 1, clientId: -1, targetId: -1, message: 'hello' } : { kind: 'sv_chat', team: 0, clientId: -1, message: 'hello' }], true, 5);
      if (tick === from + 10) chunks([{ kind: 'sv_emoticon', clientId: 0, emoticon: 2 }, { kind: 'input_timing', intendedTick: from + 10, timeLeft: 30 }], true, 5);
    }
    return base;
  };
  load(mapName, 1);
  // A full snapshot's delta tick is one past its tick: the first tick of a game stays below the last an int holds.
  const last = game(Math.min(firstTick, 2 ** 31 - 2), 16);
  if (keyframes) {
    // 40 items of 200 ints: about 32 KB a keyframe, written again for each snap_empty 251 ticks on.
    const big = new Snapshot(Array.from({ length: 40 }, (_, id) => ({ type: 202, id, data: Int32Array.from({ length: 200 }, (_, i) => (Math.imul(i + 1, 2654435761 + id) >>> 12) - 300000) })));
    // At once (no delay between them): within the recording's time.
    delay = 0;
    snapshot(last.tick + 2, big, last, Math.min(4, sequence));
    for (let i = 1; i <= keyframes; i++) chunks([{ kind: 'snap_empty', tick: last.tick + 2 + 251 * i, deltaTick: 251 }], false, Math.min(4, sequence));
  }
  delay = 20;
  if (bot) {
    // What `net rcon` and `net watch` read (issue 39): an rcon login answered (DDNet's rcon_auth_status, 0.7's
    // rcon_auth_on), the command list, a command's lines; players, a kill, a broadcast, a vote started and ended.
    const seven = protocol === '0.7';
    const player = (clientId, name, local) => ({ kind: 'sv_client_info', clientId, local, team: 0, name, clan: '', country: -1, skinPartNames: ['standard', '', '', 'standard', 'standard', 'standard'], useCustomColors: [0, 0, 0, 0, 0, 0], skinPartColors: [0, 0, 0, 0, 0, 0], silent: false });
    if (seven) chunks([player(0, 'fuzz', true), player(1, 'other', false)], true, sequence);
    chunks([seven ? { kind: 'rcon_auth_on' } : { kind: 'rcon_auth_status', authed: true, cmdlist: true }], true, sequence);
    chunks([{ kind: 'rcon_cmd_add', name: 'status', help: 'List players', params: '?r[name]' }, { kind: 'rcon_cmd_add', name: 'change_map', help: 'Change map', params: 'r[map]' }, { kind: 'rcon_cmd_rem', name: 'status' }], true, sequence);
    delay = 8;
    chunks([{ kind: 'rcon_line', line: "server: id=0 addr=XXX name='fuzz'" }, { kind: 'rcon_line', line: 'Wrong password 1/30.' }], true, sequence);
    chunks([{ kind: 'sv_kill_msg', killer: 1, victim: 0, weapon: 1, modeSpecial: 0 }, { kind: 'sv_broadcast', message: 'news' }], true, sequence);
    chunks([seven ? { kind: 'sv_vote_set', clientId: 1, type: 3, timeout: 25, description: 'change map', reason: '' } : { kind: 'sv_vote_set', timeout: 25, description: 'change map', reason: '' }], true, sequence);
    chunks([seven ? { kind: 'sv_vote_set', clientId: -1, type: 0, timeout: 0, description: '', reason: '' } : { kind: 'sv_vote_set', timeout: 0, description: '', reason: '' }], true, sequence);
    if (seven) chunks([{ kind: 'sv_client_drop', clientId: 1, reason: 'bye', silent: false }], true, sequence);
    delay = 20;
  }
  if (changeTo !== undefined) {
    load(changeTo, sequence);
    game(7, 8);
  }
  // Server info replies (after the session; the query takes them whatever came before).
  const connless = (message, header) => datagrams.push({ delay: 4, bytes: encodePacket({ protocol, kind: 'connless', header, flags: ['connless'], connless: message }) });
  const client = (name) => ({ name, clan: '', country: '-1', score: '0', isPlayer: '1', reserved: '' });
  if (protocol === '0.6') {
    const base06 = { version: '0.6.4, 16.4', name: 'srv', map: 'ctf2', mapCrc: '1', mapSize: '2', gameType: 'DM', flags: '0', numPlayers: '2', maxPlayers: '64', numClients: '2', maxClients: '64', reserved: '' };
    connless({ kind: 'info_extended', token: String(INFO_TOKEN.extended), ...base06, clients: [client('a')] }, { form: 'legacy' });
    connless({ kind: 'info_extended_more', token: String(INFO_TOKEN.extended), packetNo: '1', reserved: '', clients: [client('b')] }, { form: 'legacy' });
  } else {
    datagrams.push({ delay: 4, bytes: encodePacket({ protocol, kind: 'control', header: { flags: 1, ack: 0, num_chunks: 0, token: INFO_TOKEN.own07 }, flags: ['control'], control: { kind: 'token', id: 5, responseToken: 77 } }) });
    connless({ kind: 'info', token: INFO_TOKEN.browser07, version: '0.7.5', name: 'seven', hostname: '', map: 'dm1', gameType: 'DM', flags: 0, skillLevel: 1, numPlayers: 0, maxPlayers: 8, numClients: 0, maxClients: 8, clients: [] }, { form: 'token', token: INFO_TOKEN.own07, response_token: 77 });
  }
  return writeInput(protocol, CLIENT_TOKEN_07, datagrams, download, realCaps);
}

/**
 * The server's datagrams to one client of a capture, from the handshake on, cut to `limit`: DDNet's client is
 * the first to send a 0.6 connect; 0.7's, the first to ask for a token (its token then is the one to replay with).
 */
function captureSession(capture, protocol, limit, { skip = 0, downloadMap = false } = {}) {
  let client;
  let server;
  let token = 0;
  const datagrams = [];
  let last;
  for (const frame of readCapture(capture)) {
    const udp = udpOf(frame);
    if (!udp || isConnless(udp.payload)) continue;
    const from = `${udp.source}:${udp.sourcePort}`;
    const to = `${udp.destination}:${udp.destinationPort}`;
    const time = frame.seconds * 1000 + frame.nanoseconds / 1e6;
    if (!client) {
      let p;
      try {
        p = decodePacket(udp.payload, { protocol });
      } catch {
        continue;
      }
      if (p.control?.kind !== (protocol === '0.7' ? 'token' : 'connect') || (protocol === '0.7' && p.header.token !== 0xffffffff)) continue;
      if (skip-- > 0) continue;
      [client, server, last] = [from, to, time];
      if (protocol === '0.7') token = p.control.responseToken;
      continue;
    }
    if (from !== server || to !== client) continue;
    datagrams.push({ delay: time - last, bytes: udp.payload });
    last = time;
    if (datagrams.length >= limit) break;
  }
  return datagrams.length ? [writeInput(protocol, token, datagrams, downloadMap)] : [];
}

/** The scripted sessions and, with the corpus, the captures' first datagrams (`captures`: name -> bytes). */
export function netClientSeeds(captures) {
  const out = [scriptedSession('0.6', false), scriptedSession('0.7', false), scriptedSession('0.6', true), scriptedSession('0.7', true)];
  for (const protocol of ['0.6', '0.7']) {
    out.push(
      scriptedSession(protocol, false, { firstTick: 2 ** 31 - 31 }),
      scriptedSession(protocol, false, { mapName: 'm'.repeat(100) }),
      scriptedSession(protocol, false, { mapName: `${'a'.repeat(62)}é${'/'.repeat(8)}` }),
      scriptedSession(protocol, false, { changeTo: 'dm1' }),
      scriptedSession(protocol, true, { changeTo: `${'ü'.repeat(40)}` }),
      scriptedSession(protocol, false, { keyframes: 80, realCaps: true }),
      scriptedSession(protocol, false, { keyframes: 80 }),
      scriptedSession(protocol, false, { bot: true }),
      scriptedSession(protocol, false, { bot: true, changeTo: 'dm1' }),
    );
  }
  for (const [name, bytes] of captures) {
    // The repository's fixture (a cut of the 0.7 session) keeps a captured seed when ../shared is missing.
    if (/connless\.pcap$|ddnet-0\.6-session\.pcap$/.test(name)) out.push(...captureSession(bytes, '0.6', 160));
    if (/teeworlds-0\.7-(session|cut)\.pcap$/.test(name)) out.push(...captureSession(bytes, '0.7', 160));
    // The third client of the DDNet session downloads ctf2 (27 chunks) before it enters.
    if (/ddnet-0\.6-session\.pcap$/.test(name)) out.push(...captureSession(bytes, '0.6', 200, { skip: 2, downloadMap: true }));
  }
  return out;
}
