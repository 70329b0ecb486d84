// Writes fixtures/net/teeworlds-0.7-on-ddnet-cut.pcap: the first 9 seconds of a Teeworlds 0.7.5 client on
// DDNet-Server 16.4 (sv_sixup, map Gold Mine from DDNet's maps7/), so that the 0.7-on-DDNet tests run without
// the capture. The capture was recorded with ../shared/corpus/net/RECIPE-NET.sh (tw07 mode, server ddnet, port
// 18514, player Echo), the client holding Gold Mine in its user dir beforehand (no map download: a 600 KB
// download would not fit a fixture, and cutting it out leaves gaps in the vital sequence). Datagrams of a map
// download, were there any, are left out. Run after `npm run build`:
//   node scripts/net-fixture-sixup.mjs CAPTURE.pcap
import { readFileSync } from 'node:fs';
import { decodeCapture } from '@twcodec/net';
import { writeCut } from './pcap-cut.mjs';

const bytes = new Uint8Array(readFileSync(process.argv[2]));
const SECONDS = 9;
const keep = new Set();
let first;
for (const d of decodeCapture(bytes)) {
  const t = d.seconds + d.nanoseconds / 1e9;
  first ??= t;
  if (t - first >= SECONDS) break;
  const download = d.packet?.chunks?.some((c) => c.message.kind === 'map_data' || c.message.kind === 'request_map_data');
  if (!download) keep.add(d.index);
}
writeCut(bytes, keep, 'teeworlds-0.7-on-ddnet-cut.pcap');
