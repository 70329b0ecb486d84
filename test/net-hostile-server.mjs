// A hostile DDNet-like (0.6) game server on a real UDP socket, for measuring `net record` under what the
// net-client fuzz target plays in-process (fuzz/net-client-target.mjs, test/net-script-server.ts): it takes one
// client through the handshake and a 100-byte map download, then
// - `keyframes`: one big snapshot, then `snap_empty` messages 251 ticks apart (each a keyframe of the big
//   snapshot in a demo: a few bytes sent cost tens of KB recorded);
// - `chat`: a small snapshot every two ticks and chat lines as fast as the socket takes them;
// - `ticks`: a snapshot every 20 ms from tick 2^31 - 161 to the last an int holds (2^31 - 1), then keep-alives.
// `options.mapName` names the map (default `hostile`; a name of 64+ bytes is what a demo header cannot hold).
// It acknowledges the client's vital chunks (so the client never times out on them) and runs until stopped.
// Used by test/net/record-stream.test.ts; by hand:
//   node test/net-hostile-server.mjs keyframes 8400 &   /usr/bin/time -v node packages/cli/bin/twcodec.cjs net record 127.0.0.1:8400 out.demo --seconds 4
import { createSocket } from 'node:dgram';
import { pathToFileURL } from 'node:url';
import { decodePacket, encodePacket } from '@twcodec/net';
import { crc32, packVarInt } from '@twcodec/runtime';
import { createDelta, DDNET_0_6, Snapshot } from '@twcodec/snapshot';

const TOKEN = 0x94dba809;
const MAP = Uint8Array.from({ length: 100 }, (_, i) => (i * 13) & 0xff);

/** The big snapshot: 40 items of 300 ints that pack to 1-3 bytes each (about 48 KB as a snapshot). */
function bigSnapshot() {
  const items = [];
  for (let id = 0; id < 40; id++) items.push({ type: 200, id, data: Int32Array.from({ length: 300 }, (_, i) => ((i * 7919 + id * 104729) % 20000) - 10000) });
  return new Snapshot(items);
}

function packedDelta(base, next) {
  const delta = createDelta(base, next, DDNET_0_6);
  const packed = new Uint8Array(delta.length * 5);
  let size = 0;
  for (const v of delta) size = packVarInt(v, packed, size);
  return packed.subarray(0, size);
}

/** Starts the server on 127.0.0.1:`port` (0: a free one); resolves with its port and stop(). */
export async function startHostileServer(mode, port = 0, options = {}) {
  const mapName = options.mapName ?? 'hostile';
  const socket = createSocket('udp4');
  await new Promise((resolve) => socket.bind(port, '127.0.0.1', resolve));
  let client;
  let sequence = 0;
  let ack = 0;
  let timer;
  /** The last tick the client acknowledged in its input (a real server's delta base), and the snapshots sent. */
  let acked = -1;
  const sentSnapshots = new Map();
  const send = (packet) => {
    if (!client) return;
    socket.send(encodePacket({ protocol: '0.6', securityToken: TOKEN, ...packet }), client.port, client.address);
  };
  const chunks = (messages, vital) =>
    send({ kind: 'connection', header: { flags: 0, ack, num_chunks: messages.length }, flags: [], chunks: messages.map((message) => ({ flags: vital ? ['vital'] : [], size: 0, ...(vital ? { sequence: (sequence = (sequence + 1) % 1024) } : {}), message })) });
  const snapshot = (tick, deltaTick, next, base) => {
    // A full snapshot at the last tick an int holds has no field for its delta tick (tick + 1).
    if (tick - deltaTick > 2 ** 31 - 1) return;
    const data = packedDelta(base, next);
    const numParts = Math.max(1, Math.ceil(data.length / 900));
    for (let part = 0; part < numParts; part++) {
      const bytes = data.subarray(part * 900, (part + 1) * 900);
      chunks([{ kind: 'snap', tick, deltaTick: tick - deltaTick, numParts, part, crc: next.checksum(), partSize: bytes.length, data: bytes }], false);
    }
  };
  const play = () => {
    let tick = 100;
    if (mode === 'ticks') {
      tick = 2 ** 31 - 161;
      timer = setInterval(() => {
        if (tick > 2 ** 31 - 1) return send({ kind: 'control', header: { flags: 4, ack, num_chunks: 0 }, flags: ['control'], control: { id: 0, kind: 'keep_alive' } });
        const next = new Snapshot([{ type: 200, id: 0, data: Int32Array.of(tick & 0xffff) }]);
        const base = sentSnapshots.get(acked);
        snapshot(tick, base ? acked : -1, next, base ?? new Snapshot([]));
        sentSnapshots.set(tick, next);
        for (const t of sentSnapshots.keys()) if (t < acked) sentSnapshots.delete(t);
        tick += 2;
      }, 20);
    } else if (mode === 'keyframes') {
      const big = bigSnapshot();
      snapshot(tick, -1, big, new Snapshot([]));
      timer = setInterval(() => {
        // Until the client acknowledged the big snapshot, nothing; then snap_empty: the snapshot it acknowledged,
        // unchanged, at a tick past the demo's keyframe interval (251 ticks on).
        if (acked < 100) return;
        // At most 48 snapshots past the one the client acknowledged: a client keeps 64 (net's snapshot receiver,
        // MAX_STORED), and on a loaded machine its inputs, which carry the acks, came late enough that the base
        // it was sent a delta against was no longer kept (BAD_SNAPSHOTS, with the suite on both cores).
        if (tick - acked >= 48 * 251) return;
        tick += 251;
        chunks([{ kind: 'snap_empty', tick, deltaTick: tick - acked }], false);
      }, 3);
    } else {
      let line = 0;
      timer = setInterval(() => {
        const next = new Snapshot([{ type: 200, id: 0, data: Int32Array.of(tick) }]);
        const base = sentSnapshots.get(acked);
        snapshot(tick, base ? acked : -1, next, base ?? new Snapshot([]));
        sentSnapshots.set(tick, next);
        for (const t of sentSnapshots.keys()) if (t < acked) sentSnapshots.delete(t);
        tick += 2;
        for (let i = 0; i < 8; i++) chunks(Array.from({ length: 8 }, () => ({ kind: 'sv_chat', team: 0, clientId: -1, message: `flood line ${line++} ${'x'.repeat(80)}` })), true);
      }, 2);
    }
  };
  socket.on('message', (bytes, from) => {
    let p;
    try {
      p = decodePacket(new Uint8Array(bytes), { protocol: '0.6', securityToken: client !== undefined });
    } catch {
      return;
    }
    if (p.control?.kind === 'connect' && !client) {
      client = { address: from.address, port: from.port };
      send({ kind: 'control', header: { flags: 4, ack: 0, num_chunks: 0 }, flags: ['control'], control: { id: 0, kind: 'connect_accept', tokenMagic: true } });
      return;
    }
    if (!client || from.port !== client.port) return;
    if (p.control?.kind === 'close') return void clearInterval(timer);
    for (const c of p.chunks ?? []) {
      if (c.sequence !== undefined) ack = c.sequence;
      const kind = c.message.kind;
      if (kind === 'input') acked = Math.max(acked, c.message.ackGameTick);
      if (kind === 'info') chunks([{ kind: 'map_change', mapName, mapCrc: crc32(MAP) | 0, mapSize: MAP.length }], true);
      else if (kind === 'request_map_data') chunks([{ kind: 'map_data', last: true, mapCrc: crc32(MAP) | 0, chunk: 0, chunkSize: MAP.length, data: MAP }], true);
      else if (kind === 'ready') chunks([{ kind: 'con_ready' }], true);
      else if (kind === 'enter_game' && timer === undefined) play();
    }
  });
  return {
    port: socket.address().port,
    stop: () => {
      clearInterval(timer);
      socket.close();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = await startHostileServer(process.argv[2] ?? 'keyframes', Number(process.argv[3] ?? 0));
  process.stdout.write(`${server.port}\n`);
  const stop = () => (server.stop(), process.exit(0));
  process.once('SIGTERM', stop).once('SIGINT', stop);
  // A watchdog: at most two minutes.
  setTimeout(stop, 120_000).unref();
}
