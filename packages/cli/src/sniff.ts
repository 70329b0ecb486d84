/**
 * What a file looks like from its first bytes, to say more than "bad magic" when a command gets the wrong
 * kind of file (a PNG given to `map info`, a demo given to `teehistorian dump`).
 */
// The constants module imports nothing at run time: sniffing loads no codec package (startup.test.ts).
import { TEEHISTORIAN_UUID } from '@twcodec/teehistorian/constants';

// Magic numbers checked against the formats' own definitions: datafile "DATA"/"ATAD" (DDNet
// src/engine/shared/datafile.cpp), "TWDEMO\0" (src/engine/shared/demo.cpp), the teehistorian header UUID
// (TEEHISTORIAN_UUID, from schemas/teehistorian/core.yaml); PNG, gzip, zip, ELF, PDF from
// their specifications; pcap (a1b2c3d4, a1b23c4d for nanoseconds, either byte order) and pcapng (0a0d0d0a)
// from draft-ietf-opsawg-pcap and -pcapng, as @twcodec/net's pcap.ts reads them.
// Made when a file is sniffed (an error's message), not when the CLI starts (issue 41).
const teehistorianMagic = () => Array.from(TEEHISTORIAN_UUID.replace(/-/g, '').match(/../g)!, (hex) => parseInt(hex, 16));

const PCAP_MAGICS = [
  [0xa1, 0xb2, 0xc3, 0xd4],
  [0xd4, 0xc3, 0xb2, 0xa1],
  [0xa1, 0xb2, 0x3c, 0x4d],
  [0x4d, 0x3c, 0xb2, 0xa1],
];

const startsWith = (bytes: Uint8Array, prefix: ArrayLike<number> | string) => {
  const p = typeof prefix === 'string' ? Array.from(prefix, (c) => c.charCodeAt(0)) : Array.from(prefix);
  return bytes.length >= p.length && p.every((b, i) => bytes[i] === b);
};

/** A short description of what `head` (the first bytes of a file) looks like. */
export function sniff(head: Uint8Array): string {
  if (head.length === 0) return 'an empty file';
  if (startsWith(head, 'DATA') || startsWith(head, 'ATAD')) return 'a Teeworlds datafile (map)';
  if (startsWith(head, 'TWDEMO\0')) return 'a Teeworlds demo';
  if (startsWith(head, teehistorianMagic())) return 'a DDNet teehistorian file';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47])) return 'a PNG image';
  if (PCAP_MAGICS.some((m) => startsWith(head, m))) return 'a network capture (pcap)';
  if (startsWith(head, [0x0a, 0x0d, 0x0d, 0x0a])) return 'a network capture (pcapng)';
  if (startsWith(head, [0x1f, 0x8b])) return 'a gzip archive (decompress it first)';
  if (startsWith(head, 'PK\x03\x04')) return 'a zip archive (extract it first)';
  if (startsWith(head, [0x28, 0xb5, 0x2f, 0xfd])) return 'a zstd archive (decompress it first)';
  if (startsWith(head, 'BZh')) return 'a bzip2 archive (decompress it first)';
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return 'an xz archive (decompress it first)';
  if (startsWith(head, 'OggS')) return 'an Ogg file (sound)';
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46])) return 'an executable (ELF)';
  if (startsWith(head, '%PDF')) return 'a PDF document';
  if (startsWith(head, [0x78, 0x9c]) || startsWith(head, [0x78, 0x01]) || startsWith(head, [0x78, 0xda])) return 'zlib-compressed data';
  const text = head.every((b) => b === 9 || b === 10 || b === 13 || (b >= 0x20 && b !== 0x7f));
  if (text) {
    const start = String.fromCharCode(...head).trimStart();
    if (start.startsWith('{') || start.startsWith('[')) return 'JSON text';
    if (start.startsWith('<')) return 'HTML or XML text';
    return 'text';
  }
  return 'binary data of an unknown kind';
}

/** What each command group reads, for "expected ..." in errors. */
export const EXPECTED_INPUT: Record<string, string> = {
  datafile: 'a Teeworlds datafile (starts with DATA or ATAD)',
  map: 'a Teeworlds map (a datafile: starts with DATA or ATAD)',
  demo: 'a Teeworlds demo (starts with TWDEMO)',
  teehistorian: `a DDNet teehistorian file (starts with its 16-byte UUID ${TEEHISTORIAN_UUID.slice(0, 8)}-...)`,
  // The net commands that read a file (net pcap, net demo) read captures; the others take HOST:PORT.
  net: 'a pcap or pcapng capture (tcpdump -w, Wireshark)',
};

/** Whether `what` (from sniff) is the kind of file a command group reads. */
export function isExpectedKind(group: string, what: string): boolean {
  if (group === 'datafile' || group === 'map') return what.startsWith('a Teeworlds datafile');
  if (group === 'demo') return what === 'a Teeworlds demo';
  if (group === 'teehistorian') return what === 'a DDNet teehistorian file';
  if (group === 'net') return what.startsWith('a network capture');
  return true;
}
