// Seed inputs per target: the repository's fixtures, and small corpus files when ../shared/corpus exists.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readDemo } from '@twcodec/demo';
import { readTeehistorian } from '@twcodec/teehistorian';
import { CodecError } from '@twcodec/runtime';
import { createDelta, DDNET_0_6 } from '@twcodec/snapshot';
import { mapToolsSeeds } from './map-tools-seeds.mjs';
import { packMap, unpackMap } from '@twcodec/map-tools';
import { dirToInput } from './map-dir-input.mjs';
import { isCapture, readCapture, udpOf } from '@twcodec/net';
import { netClientSeeds } from './net-client-seeds.mjs';

const repoRoot = resolve(fileURLToPath(new URL('..', import.meta.url)));
const corpusDir = resolve(process.env.TWCODEC_CORPUS ?? join(repoRoot, '..', 'shared', 'corpus'));

function files(dir, ext, maxBytes) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return files(path, ext, maxBytes);
      return name.endsWith(ext) && statSync(path).size <= maxBytes ? [path] : [];
    })
    .sort();
}

const read = (path) => {
  const buf = readFileSync(path);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
};

// Small seeds keep each run fast; the fuzzer grows what it needs from them.
const LIMIT = { map: 160 * 1024, teehistorian: 256 * 1024, demo: 160 * 1024 };

export function seedsFor(target) {
  const fixtures = (sub, ext, max) => [...files(join(repoRoot, 'fixtures', sub), ext, max), ...files(join(corpusDir, sub), ext, max)];
  switch (target) {
    case 'datafile':
    case 'map':
    case 'datafile-resave':
    case 'map-validate':
    case 'map-json':
    case 'map-resave':
      return fixtures('maps', '.map', LIMIT.map).map(read);
    case 'teehistorian':
    case 'teehistorian-export':
    case 'teehistorian-cli':
      return fixtures('teehistorian', '.teehistorian', LIMIT.teehistorian).map(read);
    case 'demo':
    case 'demo-resave':
    case 'demo-slice':
    case 'demo-strip':
    case 'demo-export':
    case 'demo-cli':
      return fixtures('demos', '.demo', LIMIT.demo).map(read);
    case 'snapshot': {
      // Pairs of consecutive snapshots of a demo: the old snapshot's ints, then the delta to the next. The
      // target applies deltas with DDNet's 0.6 item sizes, so its seeds come from 0.6/DDNet demos only.
      const out = [];
      const ddnet = fixtures('demos', '.demo', LIMIT.demo).map((path) => readDemo(read(path))).filter((d) => d.protocol.name === 'ddnet-0.6');
      for (const demo of ddnet.slice(0, 3)) {
        let prev;
        let n = 0;
        for (const { snapshot } of demo.snapshots()) {
          if (prev && n++ % 7 === 0) {
            const delta = createDelta(prev, snapshot, DDNET_0_6);
            const old = prev.toInts();
            const both = new Int32Array(old.length + delta.length);
            both.set(old);
            both.set(delta, old.length);
            out.push(new Uint8Array(both.buffer));
          }
          prev = snapshot;
          if (out.length >= 60) break;
        }
      }
      return out;
    }
    case 'netmsg': {
      // Message chunks of the fixture demos and MESSAGE records of the teehistorian files, one of each shape.
      const out = new Map();
      for (const path of fixtures('demos', '.demo', LIMIT.demo).slice(0, 3))
        for (const c of readDemo(read(path)).chunks()) if (c.kind === 'message' && out.size < 200) out.set(`${c.data[0]}:${c.data.length}`, c.data);
      for (const path of fixtures('teehistorian', '.teehistorian', LIMIT.teehistorian))
        for (const m of readTeehistorian(read(path), { onTruncated: 'stop' })) if (m.kind === 'MESSAGE') out.set(`th${m.data[0]}:${m.data.length}`, m.data);
      return [...out.values()];
    }
    case 'map-unpack':
    case 'map-fix':
    case 'map-diff':
      return fixtures('maps', '.map', LIMIT.map).map(read);
    case 'map-pack':
      // Small maps unpacked, with and without original.map. Without it, pack refuses maps whose names are not
      // UTF-8 (map.json cannot give those bytes back: a typed refusal, not a seed that passes).
      return fixtures('maps', '.map', 64 * 1024).flatMap((path) => {
        const files = unpackMap(read(path));
        const withOriginal = dirToInput(files);
        // The tile text as unpack wrote it before runs (issue 36): every run written out tile by tile.
        const oldNotation = new Map(files);
        for (const [name, data] of files) {
          if (name.startsWith('layers/')) oldNotation.set(name, new TextEncoder().encode(new TextDecoder().decode(data).replace(/([0-9a-f]+)\*(\d+)/g, (_, tile, n) => Array(Number(n)).fill(tile).join(' '))));
        }
        files.delete('original.map');
        try {
          packMap(files);
        } catch (e) {
          if (e instanceof CodecError) return [withOriginal, dirToInput(oldNotation)];
          throw e;
        }
        return [withOriginal, dirToInput(files), dirToInput(oldNotation)];
      });
    // fixtures/net holds a 0.7 client on a 0.7 server, a 0.7 client on DDNet-Server (sv_sixup: DDNet's 12-byte
    // accept, its UUID messages and race items on a 0.7 connection) and the start of a DDNet 0.6 session (TKEN
    // handshake, security tokens, extended server info); the corpus adds whole DDNet sessions when there.
    case 'net':
      return withOtherLayers(netSeeds(fixtures('net', '.pcap', 2 * 1024 * 1024).map(read)));
    case 'net-client':
    case 'net-bot':
      return netClientSeeds(fixtures('net', '.pcap', 4 * 1024 * 1024).map((path) => [path, read(path)]));
    case 'net-pcap':
      // `net pcap` reads capture files: the captures and the cuts of them, not the single UDP payloads.
      return withOtherLayers(netSeeds(fixtures('net', '.pcap', 2 * 1024 * 1024).map(read)).filter(isCapture));
    case 'net-demo': {
      // `net demo` reads capture files: the fixture, and the first frames of each capture (its handshakes, start
      // info, map change and first snapshots: a demo can be written from them), also as pcapng, Linux SLL and
      // IPv6; and the first 2,500 frames of a capture whose clients have dummies (the dummy connecting, the
      // client switching to it and back), whole and with every 40th datagram a client sent lost, as a lossy
      // capture loses them.
      const out = [];
      for (const bytes of fixtures('net', '.pcap', 2 * 1024 * 1024).map(read)) {
        if (bytes.length <= 64 * 1024) out.push(bytes);
        const frames = [...readCapture(bytes)];
        const cut = (n, keep = () => true) => concat([bytes.subarray(0, 24), ...frames.slice(0, n).filter(keep).map((f) => bytes.subarray(f.offset - 16, f.offset + f.data.length))]);
        if (frames.length > 300) out.push(...withOtherLayers([cut(300)]));
        if (frames.length > 2500 && hasDummy(bytes)) {
          let sent = 0;
          out.push(cut(2500), cut(2500, (f) => !(fromClient(f) && ++sent % 40 === 0)));
        }
      }
      return out.filter(isCapture);
    }
    default: {
      const mapTools = mapToolsSeeds(target, () => fixtures('maps', '.map', LIMIT.map).map(read));
      if (mapTools) return mapTools;
      throw new Error(`unknown target ${target}`);
    }
  }
}

// --- net (issue 27) -----------------------------------------------------------------------------------------
/** Whether a capture's clients have dummies (a name ending in "Dmy", as the corpus's DDNet session names them). */
function hasDummy(bytes) {
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 4 * 1024 * 1024)));
  return /Dmy\0/.test(text);
}

/** Whether a frame is a datagram a client sent (to the server's port 8303, or any port other than the source's). */
function fromClient(frame) {
  const udp = udpOf(frame);
  return udp !== undefined && udp.destinationPort < udp.sourcePort;
}

/** The IPv4 packet of an Ethernet or raw-IP frame, or undefined. */
function ipv4Of(frame) {
  const d = frame.data;
  if (frame.linkType === 1) return d.length >= 14 && d[12] === 0x08 && d[13] === 0x00 && d[14] >> 4 === 4 ? d.subarray(14) : undefined;
  if (frame.linkType === 101 || frame.linkType === 228) return d.length && d[0] >> 4 === 4 ? d : undefined;
  return undefined;
}

/** The IPv4/UDP packet as IPv6/UDP, from and to the IPv4-mapped addresses (::ffff:a.b.c.d); other packets as they are. */
function toIpv6(ip) {
  const ihl = (ip[0] & 0x0f) * 4;
  if (ip.length < ihl + 8 || ip[9] !== 17 || ((ip[6] << 8) | ip[7]) & 0x3fff) return undefined;
  const udp = ip.subarray(ihl, (ip[2] << 8) | ip[3]);
  const out = new Uint8Array(40 + udp.length);
  out[0] = 0x60;
  out[4] = udp.length >> 8;
  out[5] = udp.length & 0xff;
  out[6] = 17;
  out[7] = 64;
  out.set([0xff, 0xff], 18);
  out.set(ip.subarray(12, 16), 20);
  out.set([0xff, 0xff], 34);
  out.set(ip.subarray(16, 20), 36);
  out.set(udp, 40);
  return out;
}

const le32 = (v) => Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
const le16 = (v) => Uint8Array.of(v & 0xff, (v >>> 8) & 0xff);

/** A classic pcap (little-endian, microseconds) of `packets` ({ data, seconds, nanoseconds }) with link type `linkType`. */
function classicPcap(packets, linkType) {
  const head = concat([le32(0xa1b2c3d4), le16(2), le16(4), le32(0), le32(0), le32(262144), le32(linkType)]);
  return concat([head, ...packets.flatMap((p) => [le32(p.seconds), le32(Math.floor(p.nanoseconds / 1000)), le32(p.data.length), le32(p.data.length), p.data])]);
}

/** A pcapng block: type, length, body padded to 4, length. */
const pcapngBlock = (type, body) => {
  const padded = concat([body, new Uint8Array((4 - (body.length % 4)) % 4)]);
  return concat([le32(type), le32(padded.length + 12), padded, le32(padded.length + 12)]);
};

/** A pcapng file of `packets` on one interface of `linkType`, nanosecond timestamps (if_tsresol 9). */
function pcapngFile(packets, linkType) {
  const shb = pcapngBlock(0x0a0d0d0a, concat([le32(0x1a2b3c4d), le16(1), le16(0), le32(0xffffffff), le32(0xffffffff)]));
  const idb = pcapngBlock(1, concat([le16(linkType), le16(0), le32(262144), le16(9), le16(1), Uint8Array.of(9, 0, 0, 0), le32(0)]));
  const epbs = packets.map((p) => {
    const ns = BigInt(p.seconds) * 1_000_000_000n + BigInt(p.nanoseconds);
    return pcapngBlock(6, concat([le32(0), le32(Number(ns >> 32n)), le32(Number(ns & 0xffffffffn)), le32(p.data.length), le32(p.data.length), p.data]));
  });
  return concat([shb, idb, ...epbs]);
}

/**
 * Each capture, and for each one whose frames are Ethernet or raw IPv4 (the corpus's are Ethernet from
 * loopback) the same datagrams as pcapng, in Linux SLL frames, and as IPv6: the readers' other paths start
 * from real sessions too.
 */
function withOtherLayers(captures) {
  const out = [...captures];
  for (const bytes of captures) {
    if (!isCapture(bytes) || bytes.length > 512 * 1024) continue;
    let frames;
    try {
      frames = [...readCapture(bytes)];
    } catch (e) {
      if (e instanceof CodecError) continue;
      throw e;
    }
    const ips = frames.map((f) => ({ ip: ipv4Of(f), seconds: f.seconds, nanoseconds: f.nanoseconds })).filter((p) => p.ip);
    if (!ips.length) continue;
    const sllHeader = (ip) => concat([Uint8Array.of(0, 0, 0x03, 0x04, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x00), ip]);
    out.push(pcapngFile(ips.map((p) => ({ ...p, data: p.ip })), 101));
    out.push(classicPcap(ips.map((p) => ({ ...p, data: sllHeader(p.ip) })), 113));
    const v6 = ips.flatMap((p) => {
      const ip6 = toIpv6(p.ip);
      return ip6 ? [{ ...p, data: ip6 }] : [];
    });
    if (v6.length) out.push(classicPcap(v6, 101));
  }
  return out;
}

/** The fixture capture, short captures cut from each capture, and UDP payloads of every shape (one per first byte and length). */
function netSeeds(captures) {
  const out = [];
  const payloads = new Map();
  for (const bytes of captures) {
    if (bytes.length <= 64 * 1024) out.push(bytes);
    const frames = [...readCapture(bytes)];
    for (let i = 0; i < frames.length && out.length < 40; i += 400) {
      const cut = frames.slice(i, i + 12);
      out.push(concat([bytes.subarray(0, 24), ...cut.map((f) => bytes.subarray(f.offset - 16, f.offset + f.data.length))]));
    }
    for (const f of frames) {
      const udp = udpOf(f);
      if (udp && payloads.size < 300) payloads.set(`${udp.payload[0]}:${udp.payload.length}`, udp.payload);
    }
  }
  return [...out, ...payloads.values()];
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}
