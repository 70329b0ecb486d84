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
        files.delete('original.map');
        try {
          packMap(files);
        } catch (e) {
          if (e instanceof CodecError) return [withOriginal];
          throw e;
        }
        return [withOriginal, dirToInput(files)];
      });
    // fixtures/net holds a 0.7 client on a 0.7 server and a 0.7 client on DDNet-Server (sv_sixup: DDNet's 12-byte
    // accept, its UUID messages and race items on a 0.7 connection); the corpus adds DDNet sessions when there.
    case 'net':
      return netSeeds(fixtures('net', '.pcap', 2 * 1024 * 1024).map(read));
    case 'net-client':
      return netClientSeeds(fixtures('net', '.pcap', 4 * 1024 * 1024).map((path) => [path, read(path)]));
    case 'net-pcap':
      // `net pcap` reads capture files: the captures and the cuts of them, not the single UDP payloads.
      return netSeeds(fixtures('net', '.pcap', 2 * 1024 * 1024).map(read)).filter(isCapture);
    case 'net-demo': {
      // `net demo` reads capture files: the fixture, and the first frames of each capture (its handshakes, start
      // info, map change and first snapshots: a demo can be written from them).
      const out = [];
      for (const bytes of fixtures('net', '.pcap', 2 * 1024 * 1024).map(read)) {
        if (bytes.length <= 64 * 1024) out.push(bytes);
        const frames = [...readCapture(bytes)];
        if (frames.length > 300) out.push(concat([bytes.subarray(0, 24), ...frames.slice(0, 300).map((f) => bytes.subarray(f.offset - 16, f.offset + f.data.length))]));
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
