// The floor of `twcodec net pcap` (issue 41): a plain script that reads the same capture and prints one JSON
// line per UDP datagram with its payload as hex, and nothing else (no protocol decoded, no flows followed).
// It reads what the CLI reads: classic pcap (either byte order, micro- or nanosecond timestamps) and pcapng,
// the link types Ethernet (with VLAN tags), NULL/LOOP, raw IP (12, 14, 101, 228, 229), Linux SLL and SLL2,
// IPv4 and IPv6 (extension headers skipped); IP fragments are left out (too rare to weigh). It is written as
// someone would write such a script with Node, with no attempt at the tricks of the CLI: the whole file read,
// Buffer's own hex, JSON.stringify per line, the output written in 64 KB pieces.
// Run: node bench/pcap-hex.mjs CAPTURE > out.ndjson
import { readFileSync, writeSync } from 'node:fs';

const file = readFileSync(process.argv[2] === '-' || !process.argv[2] ? 0 : process.argv[2]);
let out = '';
const print = (line) => {
  out += line + '\n';
  if (out.length > 65536) flush();
};
const flush = () => {
  for (let b = Buffer.from(out), at = 0; at < b.length; ) at += writeSync(1, b, at);
  out = '';
};

function udpPayload(frame, linkType) {
  let ip;
  if (linkType === 1) {
    let at = 12;
    let type = frame.readUInt16BE(at);
    while (type === 0x8100 || type === 0x88a8) type = frame.readUInt16BE((at += 4));
    if (type !== 0x0800 && type !== 0x86dd) return undefined;
    ip = at + 2;
  } else if (linkType === 0 || linkType === 108) ip = 4;
  else if (linkType === 101 || linkType === 12 || linkType === 14 || linkType === 228 || linkType === 229) ip = 0;
  else if (linkType === 113) ip = 16;
  else if (linkType === 276) ip = 20;
  else return undefined;
  const version = frame[ip] >> 4;
  let udp;
  if (version === 4) {
    if (frame[ip + 9] !== 17 || frame.readUInt16BE(ip + 6) & 0x3fff) return undefined;
    udp = ip + (frame[ip] & 15) * 4;
  } else if (version === 6) {
    let next = frame[ip + 6];
    udp = ip + 40;
    while (next === 0 || next === 43 || next === 60) {
      next = frame[udp];
      udp += (frame[udp + 1] + 1) * 8;
    }
    if (next !== 17) return undefined;
  } else return undefined;
  return frame.subarray(udp + 8, udp + frame.readUInt16BE(udp + 4));
}

let index = 0;
const emit = (frame, linkType) => {
  const payload = udpPayload(frame, linkType);
  if (payload) print(JSON.stringify({ index, payload: payload.toString('hex') }));
  index++;
};

const magic = file.readUInt32BE(0);
if (magic === 0x0a0d0d0a) {
  // pcapng: blocks of type, length, body, length; interface descriptions give each packet's link type.
  let le = true;
  let interfaces = [];
  for (let at = 0; at < file.length; ) {
    if (file.readUInt32BE(at) === 0x0a0d0d0a) {
      le = file.readUInt32BE(at + 8) === 0x4d3c2b1a;
      interfaces = [];
    }
    const type = le ? file.readUInt32LE(at) : file.readUInt32BE(at);
    const length = le ? file.readUInt32LE(at + 4) : file.readUInt32BE(at + 4);
    const u16 = (o) => (le ? file.readUInt16LE(o) : file.readUInt16BE(o));
    const u32 = (o) => (le ? file.readUInt32LE(o) : file.readUInt32BE(o));
    if (type === 1) interfaces.push(u16(at + 8));
    else if (type === 6) emit(file.subarray(at + 28, at + 28 + u32(at + 20)), interfaces[u32(at + 8)]);
    else if (type === 2) emit(file.subarray(at + 28, at + 28 + u32(at + 20)), interfaces[u16(at + 8)]);
    else if (type === 3) emit(file.subarray(at + 12, at + 12 + Math.min(u32(at + 8), length - 16)), interfaces[0]);
    at += length;
  }
} else {
  const le = magic === 0xd4c3b2a1 || magic === 0x4d3cb2a1;
  const u32 = (o) => (le ? file.readUInt32LE(o) : file.readUInt32BE(o));
  const linkType = u32(20) & 0x0fffffff;
  for (let at = 24; at + 16 <= file.length; ) {
    const captured = u32(at + 8);
    emit(file.subarray(at + 16, at + 16 + captured), linkType);
    at += 16 + captured;
  }
}
flush();
