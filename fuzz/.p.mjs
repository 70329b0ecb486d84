import { readFileSync } from 'node:fs';
import { readInput } from './net-client-seeds.mjs';
import { NetClient, recordDemo, decodePacket } from '@twcodec/net';
for (const f of process.argv.slice(2)) {
const { protocol, downloadMap, token, datagrams } = readInput(new Uint8Array(readFileSync(f)));
let now = 0; const timers = new Map(); let n = 1;
const clock = { now: () => now, setInterval: (f, ms) => (timers.set(n, { f, ms, due: now + ms, r: true }), n++), setTimeout: (f, ms) => (timers.set(n, { f, ms, due: now + ms }), n++), clearInterval: (h) => timers.delete(h), clearTimeout: (h) => timers.delete(h) };
const adv = (ms) => { const u = now + ms; for (;;) { let b; for (const [h, t] of timers) if (t.due <= u && (!b || t.due < b[1].due)) b = [h, t]; if (!b) break; now = b[1].due; if (b[1].r) b[1].due += b[1].ms; else timers.delete(b[0]); b[1].f(); } now = u; };
const c = new NetClient({ protocol, name: 'x', token, clock, connectTimeout: 2000, timeout: 1000, downloadMap }, () => {});
c.on('message', (m) => m.system && !m.message.kind.startsWith('snap') && console.log(' ', c.state, m.message.kind, m.message.kind === 'map_data' ? '' : JSON.stringify(m.message).slice(0, 150)));
c.on('ingame', () => console.log('  INGAME', c.map?.data?.length));
c.start();
for (const d of datagrams) { adv(d.delay); c.receive(d.bytes); }
console.log(f, protocol, downloadMap, c.state, c.map?.name, c.map?.size, c.map?.data?.length);
c.disconnect();
}
