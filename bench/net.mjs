// Packet decoding against the `teeworlds` npm library (a hand-written 0.6/DDNet bot client, a dev dependency
// of this bench only): the same UDP payloads of the corpus DDNet capture decoded by both, in alternating
// rounds. The library's share is what its client does with a received packet before acting on it: the
// header, the Huffman-compressed data inflated, the chunks split (DDNet's UUID messages looked up), and each
// chunk's message unpacked with its int unpacker (snap messages: the header ints its client reads, the rest
// kept as bytes, as ours keeps them). Ours: decodePacket (every message's fields by the schemas, strings
// decoded), and decodeCapture on the whole file (the pcap read and each flow's protocol told on top).
// The project's goal: decoding a capture at least 4x as fast as the library decodes the same packets.
// Run: npm run bench:net
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { decodeCapture, decodePacket, isConnless, readCapture, udpOf } from '@twcodec/net';
import { compareWithCpu, corpusDir, listFiles, readBytes, report, repoRoot } from './common.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('teeworlds/lib/client.js');
const { MsgUnpacker } = require('teeworlds/lib/MsgUnpacker.js');
const { UUIDManager } = require('teeworlds/lib/UUIDManager.js');

let path = listFiles(join(corpusDir, 'net'), '.pcap').find((p) => p.includes('ddnet'));
const source = path ? 'corpus' : 'fixtures';
path ??= listFiles(join(repoRoot, 'fixtures'), '.pcap')[0];
const capture = readBytes(path);

// The UDP payloads, and per payload whether its flow negotiated DDNet's security token (as decodeCapture
// tells it), so that decodePacket alone does the same work as inside decodeCapture.
const payloads = [];
const tokens = [];
for (const d of decodeCapture(capture)) {
  if (!d.packet) continue;
  tokens.push(d.packet.securityToken !== undefined);
}
for (const frame of readCapture(capture)) {
  const udp = udpOf(frame);
  if (udp) payloads.push(udp.payload);
}
const options = payloads.map((p, i) => ({ protocol: '0.6', ...(isConnless(p) ? {} : { securityToken: tokens[i] }) }));

// The library's unpacker is a method of its Client, which opens a UDP socket when constructed: called here on
// an object holding only what Unpack uses (the UUIDs its constructor registers, a resend hook that does nothing).
const uuids = new UUIDManager();
for (const [name, id] of [
  ['what-is@ddnet.tw', 65536], ['it-is@ddnet.tw', 65537], ['i-dont-know@ddnet.tw', 65538], ['rcon-type@ddnet.tw', 65539],
  ['map-details@ddnet.tw', 65540], ['capabilities@ddnet.tw', 65541], ['clientver@ddnet.tw', 65542], ['ping@ddnet.tw', 22],
  ['pong@ddnet.tw', 65544], ['checksum-request@ddnet.tw', 65545], ['checksum-response@ddnet.tw', 65546],
  ['checksum-error@ddnet.tw', 65547], ['redirect@ddnet.org', 65548], ['map-reload@ddnet.org', 65551],
  ['reconnect@ddnet.org', 65552], ['killmsgteam@netmsg.ddnet.tw', 65581], ['teamsstate@netmsg.ddnet.tw', 65578],
])
  uuids.RegisterName(name, id);
const libraryClient = { UUIDManager: uuids, ResendAfter() {} };
const buffers = payloads.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength));

let sink = 0;
function libraryDecode() {
  for (const packet of buffers) {
    const unpacked = Client.prototype.Unpack.call(libraryClient, packet);
    for (const chunk of unpacked.chunks) {
      const unpacker = new MsgUnpacker(chunk.raw);
      if (chunk.sys && chunk.msgid >= 5 && chunk.msgid <= 7) {
        // Its client's snap handling: tick, delta tick, (num parts, part), (crc, part size); the rest is data.
        let n = chunk.msgid === 5 ? 4 : 2;
        if (chunk.msgid !== 6) n += 2;
        for (let i = 0; i < n; i++) sink += unpacker.unpackInt();
        sink += unpacker.remaining.length;
      } else {
        // Every int of the message (strings read as ints cost the unpacker about the same).
        for (let i = 0; unpacker.remaining.length > 0 && i < 1400; i++) sink += unpacker.unpackInt() | 0;
      }
    }
  }
}
function ourPackets() {
  for (let i = 0; i < payloads.length; i++) {
    try {
      sink += decodePacket(payloads[i], options[i]).flags.length;
    } catch {
      sink++;
    }
  }
}
function ourCapture() {
  for (const d of decodeCapture(capture)) sink += d.index;
}

const chunks = [...decodeCapture(capture)].reduce((n, d) => n + (d.packet?.chunks?.length ?? 0), 0);
const bytes = payloads.reduce((n, p) => n + p.length, 0);
const { wall, cpu } = compareWithCpu({ library: libraryDecode, packets: ourPackets, capture: ourCapture }, 15);
const rate = (ms) => `${((payloads.length / ms) * 1000 / 1000).toFixed(0)} k packets/s`;
console.log(`${source} capture ${path.split('/').pop()}: ${payloads.length} datagrams, ${chunks} chunks, ${(bytes / 1e6).toFixed(2)} MB of UDP payload`);
console.log(`  teeworlds npm library (Unpack + ints): ${wall.library.toFixed(1)} ms wall, ${cpu.library.toFixed(1)} ms CPU  ${rate(cpu.library)}`);
console.log(`  decodePacket on the same payloads:     ${wall.packets.toFixed(1)} ms wall, ${cpu.packets.toFixed(1)} ms CPU  ${rate(cpu.packets)}  ${(cpu.library / cpu.packets).toFixed(1)}x as fast`);
console.log(`  decodeCapture on the file:             ${wall.capture.toFixed(1)} ms wall, ${cpu.capture.toFixed(1)} ms CPU  ${rate(cpu.capture)}  ${(cpu.library / cpu.capture).toFixed(1)}x as fast`);
if (sink === 0.5) console.log(sink);
report('net', 'decodeCapture speed-up over teeworlds npm', cpu.library / cpu.capture, '>=4', 'CPU time, same packets; the library needs the payloads taken out for it');
report('net', 'decodePacket speed-up over teeworlds npm', cpu.library / cpu.packets, '>=4', 'CPU time, the same payloads');
