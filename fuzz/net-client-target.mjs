// The live commands' client side (`net record`, `net say`, `net info`) on hostile servers: the input is what a
// server sends (fuzz/net-client-seeds.mjs: the datagrams with the time before each), replayed into NetClient and
// recordDemo on a fake clock, and into a ServerInfoQuery. No socket and no real time: every wait of the client is
// one of the fake clock, so a wait without a time-out shows as a result that never comes.
//
// Properties: the client never throws from receive or from its timers; the recording (streamed through a sink,
// as `net record` writes it to disk, the final header put over its first bytes) ends, within the client's
// time-outs after the last datagram, in a demo or one CodecError (the connection closing, NO_MAP, DEMO_TOO_BIG, a
// map download that does not check out, ...), a demo ended early only by the connection (`stopped` closed,
// timeout or error, the client closed with a CodecError) or by a map change (`stopped` map_change, the next map
// named); the inputs marked for it record with the real caps (`net record`'s); a second recording whose signal is aborted after the last datagram ends at once, in a demo of what it
// recorded or one CodecError (ABORTED before its first snapshot); a chat line said on entering the game is
// acknowledged or refused (flushed() settles) in that time too; a recorded demo reads back (readDemo, every event)
// with the snapshots it counted, resaves to its bytes, stays within its cap and holds the downloaded map; the
// client sends a bounded number of datagrams for what it received; after disconnect no timer is left; the info
// query never throws, and what it gives is well formed.
import { CodecError } from '@twcodec/datafile';
import { demoEvents, readDemo, resaveDemo } from '@twcodec/demo';
import { decodePacket, DEFAULT_MAX_DEMO_SIZE, DEFAULT_MAX_MAP_SIZE, encodePacket, MAX_RCON_ANSWER_LINES, MAX_RCON_COMMANDS, NetClient, recordDemo, ServerInfoQuery } from '@twcodec/net';
import { concatBytes, crc32 } from '@twcodec/runtime';
import { INFO_TOKEN, readInput } from './net-client-seeds.mjs';
import { check, equalBytes } from './properties.mjs';

/** The client's time-outs here (short: the fake clock costs per tick, not per millisecond). */
const CONNECT_TIMEOUT = 2000;
const TIMEOUT = 1000;
const RECORD_MS = 600;
/** The demo's cap: small, so that an input that inflates the demo meets it (the real one: DEFAULT_MAX_DEMO_SIZE). */
const MAX_DEMO_BYTES = 2 * 1024 * 1024;
/** The map download's cap (a server announcing more gets MAP_TOO_BIG; the real one: DEFAULT_MAX_MAP_SIZE). */
const MAX_MAP_BYTES = 256 * 1024;
/** With the real caps, a streamed demo is kept for reading back up to this size (its bytes are counted beyond). */
const KEEP_STREAMED_BYTES = 8 * 1024 * 1024;

/** A clock that moves only when told: timers run in order of their due time. */
class FakeClock {
  time = 1_700_000_000_000;
  timers = new Map();
  next = 1;
  now = () => this.time;
  setInterval = (callback, ms) => this.add(callback, ms, true);
  setTimeout = (callback, ms) => this.add(callback, ms, false);
  clearInterval = (handle) => void this.timers.delete(handle);
  clearTimeout = (handle) => void this.timers.delete(handle);
  add(callback, ms, repeat) {
    const handle = this.next++;
    this.timers.set(handle, { callback, ms: Math.max(1, ms), due: this.time + Math.max(1, ms), repeat });
    return handle;
  }
  /** Moves `ms` on, running each timer at its due time. */
  advance(ms) {
    const until = this.time + ms;
    for (;;) {
      let first;
      for (const [handle, t] of this.timers) if (t.due <= until && (!first || t.due < first[1].due)) first = [handle, t];
      if (!first) break;
      const [handle, t] = first;
      this.time = t.due;
      if (t.repeat) t.due += t.ms;
      else this.timers.delete(handle);
      t.callback();
    }
    this.time = until;
  }
}

/** Lets promise callbacks run: recordDemo's and flushed()'s promises settle one microtask after a timer or a datagram. */
const settle = async () => {
  for (let i = 0; i < 4; i++) await null;
};

/** How a promise ended, once it did. */
function outcome(promise) {
  const state = {};
  promise.then(
    (value) => (state.value = value),
    (error) => (state.error = error),
  );
  return state;
}

/** A datagram for the info query: the placeholder tokens of the seeds replaced by the query's own. */
function withQueryTokens(bytes, protocol, tokens) {
  let p;
  try {
    p = decodePacket(bytes, { protocol });
  } catch (e) {
    if (e instanceof CodecError) return bytes;
    throw e;
  }
  const m = p.connless;
  if (protocol === '0.6' && m) {
    if (String(m.token) === String(INFO_TOKEN.basic) && m.kind === 'info') m.token = String(tokens.basic);
    else if (String(m.token) === String(INFO_TOKEN.extended)) m.token = String(tokens.extended);
    else return bytes;
  } else if (protocol === '0.7' && p.kind === 'control' && p.control?.kind === 'token' && p.header.token === INFO_TOKEN.own07) p.header.token = tokens.own;
  else if (protocol === '0.7' && m && m.token === INFO_TOKEN.browser07 && tokens.browser !== undefined) m.token = tokens.browser;
  else return bytes;
  try {
    return encodePacket(p);
  } catch (e) {
    if (e instanceof CodecError) return bytes;
    throw e;
  }
}

/** The tokens a query's request datagrams carry. */
function readTokens(protocol, requests, tokens) {
  for (const r of requests) {
    const p = decodePacket(r, { protocol });
    if (protocol === '0.6') Object.assign(tokens, { basic: p.connless.token, extended: (((p.header.extra_token >>> 16) << 8) | p.connless.token) >>> 0 });
    else if (p.kind === 'control') tokens.own = p.control.responseToken;
    else tokens.browser = p.connless.token;
  }
}

/** `net info`'s side: the server's datagrams into an info query. */
function infoQuery(protocol, datagrams) {
  const query = new ServerInfoQuery(protocol);
  const tokens = {};
  readTokens(protocol, query.requests(), tokens);
  for (const { bytes } of datagrams) readTokens(protocol, query.receive(withQueryTokens(bytes, protocol, tokens)), tokens);
  const info = query.result();
  if (!info) return;
  check(typeof info.name === 'string' && typeof info.map === 'string' && Array.isArray(info.clients), 'net-client: a server info without its name, map or clients');
  check(info.clients.length <= 64 * 64, `net-client: a server info listing ${info.clients.length} clients`);
  for (const c of info.clients) check(typeof c.name === 'string' && Number.isFinite(c.score) && typeof c.isPlayer === 'boolean', 'net-client: a server info client with fields of the wrong type');
}

/** `net record` and `net say`'s side: the client in game, a chat line said, the recording. */
async function netClient(bytes) {
  const { protocol, downloadMap, realCaps, token, datagrams } = readInput(bytes);
  infoQuery(protocol, datagrams);
  const clock = new FakeClock();
  let sent = 0;
  const maxBytes = realCaps ? DEFAULT_MAX_DEMO_SIZE : MAX_DEMO_BYTES;
  const client = new NetClient({ protocol, name: 'fuzz', token, clock, connectTimeout: CONNECT_TIMEOUT, timeout: TIMEOUT, downloadMap, maxMapSize: realCaps ? DEFAULT_MAX_MAP_SIZE : MAX_MAP_BYTES }, () => void sent++);
  // Streamed as `net record` streams it to disk: the chunks kept (up to a size), counted.
  const streamed = { chunks: [], bytes: 0 };
  const sink = (chunk) => {
    streamed.bytes += chunk.length;
    if (streamed.bytes <= KEEP_STREAMED_BYTES) streamed.chunks.push(chunk.slice());
  };
  const recording = outcome(recordDemo(client, { duration: RECORD_MS, timestamp: '2026-11-23_00-00-00', maxBytes, sink }));
  // The same, kept in memory and stopped by its signal (net record's Ctrl-C) after the last datagram: the duration
  // does not end it first.
  const stop = new AbortController();
  const stopped = outcome(recordDemo(client, { duration: 1e9, timestamp: '2026-11-23_00-00-00', maxBytes, signal: stop.signal }));
  let said;
  // The map of the game the recordings began in (after a map change, client.map is the next one).
  let recordedMap;
  client.on('ingame', () => {
    recordedMap ??= client.map;
    try {
      client.say('fuzz says hi');
      said = outcome(client.flushed());
    } catch (e) {
      if (!(e instanceof CodecError)) throw e;
      said = { error: e };
    }
  });
  client.start();
  let received = 0;
  for (const d of datagrams) {
    clock.advance(d.delay);
    client.receive(d.bytes);
    received++;
  }
  stop.abort();
  await settle();
  check('value' in stopped || 'error' in stopped, `net-client: the recording did not end when its signal was aborted (state ${client.state})`);
  // Every wait is bounded: the recording (and the chat line) end within the time-outs after the last datagram.
  const budget = CONNECT_TIMEOUT + TIMEOUT + RECORD_MS + 200;
  for (let waited = 0; waited < budget && (!('value' in recording || 'error' in recording) || (said && !('value' in said || 'error' in said))); waited += 100) {
    clock.advance(100);
    await settle();
  }
  await settle();
  check('value' in recording || 'error' in recording, `net-client: the recording did not end within ${budget} ms of the fake clock after the last datagram (state ${client.state})`);
  if (said) check('value' in said || 'error' in said, `net-client: flushed() did not settle within ${budget} ms of the fake clock (state ${client.state})`);
  for (const error of [recording.error, stopped.error, said?.error]) if (error !== undefined) check(error instanceof CodecError, `net-client: ended with ${error?.constructor?.name}: ${error?.message}`);
  const early = recording.value?.stopped;
  const byConnection = (early === 'closed' || early === 'timeout' || early === 'error') && client.state === 'closed' && recording.value.closeError instanceof CodecError;
  const byMapChange = early === 'map_change' && typeof recording.value.nextMap?.name === 'string';
  check(early === undefined || byConnection || byMapChange, `net-client: a recording without a signal ended early with stopped ${early} (state ${client.state})`);
  if (recording.value) {
    // The streamed demo: the final header over the first bytes the sink took (what net record leaves on disk).
    check(streamed.bytes <= maxBytes + 65536, `net-client: ${streamed.bytes} bytes streamed past the cap of ${maxBytes}`);
    if (streamed.bytes <= KEEP_STREAMED_BYTES) {
      const file = concatBytes(streamed.chunks);
      file.set(recording.value.demo.subarray(0, Math.min(recording.value.demo.length, file.length)), 0);
      recording.value = { ...recording.value, demo: file };
    } else recording.value = undefined;
  }
  const elapsed = clock.time - 1_700_000_000_000;
  // What the client sends: handshakes, inputs and keep-alives by the clock, answers and resends by what came.
  check(sent <= 4 * (received + elapsed / 20) + 16, `net-client: ${sent} datagrams sent for ${received} received in ${elapsed} ms`);
  client.disconnect();
  clock.advance(40);
  check(clock.timers.size === 0, `net-client: ${clock.timers.size} timers left after disconnect`);
  for (const result of [recording.value, stopped.value]) if (result && result.demo.length <= KEEP_STREAMED_BYTES) checkDemo(result, recordedMap, downloadMap, maxBytes);
}

/** A recorded demo reads back with the snapshots it counted, resaves to its bytes, stays within its cap and holds the downloaded map. */
function checkDemo({ demo, snapshots }, recordedMap, downloadMap, maxBytes) {
  check(demo.length <= maxBytes + 65536, `net-client: a demo of ${demo.length} bytes past its cap of ${maxBytes}`);
  // A downloaded map is in the demo, whole and as announced.
  const map = recordedMap?.data;
  check(!downloadMap || (map !== undefined && map.length === recordedMap.size && (crc32(map) | 0) === (recordedMap.crc | 0)), 'net-client: in game without the map it was to download, or with one other than announced');
  if (map) check(equalBytes(readDemo(demo).map ?? new Uint8Array(0), map), 'net-client: the demo does not hold the downloaded map');
  let read = 0;
  for (const e of demoEvents(readDemo(demo))) if (e.kind === 'snapshot') read++;
  check(read === snapshots, `net-client: the demo reads back with ${read} snapshots, ${snapshots} were recorded`);
  check(equalBytes(resaveDemo(demo), demo), 'net-client: the recorded demo does not resave to its bytes');
}

// A whole session per input (tens of datagrams, a recording, a resave): the short CI pass gives it --cli-runs inputs.
netClient.cliRuns = true;

/**
 * `net rcon` and `net watch`'s side: the client's rcon login and a command, and the game's events and state, on a
 * hostile server. Properties: the login and the command settle within the time-outs after the last datagram, in a
 * value or one CodecError; the command list and an answer stay within their caps; every event is one of the typed
 * events with its fields of their types; the players' table stays bounded; the own character's fields are numbers.
 */
async function netBot(bytes) {
  const { protocol, token, datagrams } = readInput(bytes);
  const clock = new FakeClock();
  const client = new NetClient({ protocol, name: 'fuzz', token, clock, connectTimeout: CONNECT_TIMEOUT, timeout: TIMEOUT }, () => {});
  const events = [];
  client.game.on('*', (e) => events.length < 10000 && events.push(e));
  let login;
  let answer;
  client.on('ingame', () => {
    if (login) return;
    login = outcome(
      client.rcon.auth('pw', { timeout: 500 }).then(() => {
        answer = outcome(client.rcon.command('status', { quiet: 100, timeout: 400 }));
      }),
    );
    client.move('right');
    client.jump();
    client.fire();
    client.aimAt(100, 100);
    client.weapon(2);
  });
  client.start();
  for (const d of datagrams) {
    clock.advance(d.delay);
    client.receive(d.bytes);
  }
  const budget = CONNECT_TIMEOUT + TIMEOUT + 1000;
  const pending = () => (login && !('value' in login || 'error' in login)) || (answer && !('value' in answer || 'error' in answer));
  for (let waited = 0; waited < budget && pending(); waited += 100) {
    clock.advance(100);
    await settle();
  }
  await settle();
  check(!pending(), `net-bot: the rcon login or command did not settle within ${budget} ms of the fake clock (state ${client.state})`);
  for (const error of [login?.error, answer?.error]) if (error !== undefined) check(error instanceof CodecError, `net-bot: rcon ended with ${error?.constructor?.name}: ${error?.message}`);
  if (answer?.value) check(Array.isArray(answer.value) && answer.value.length <= MAX_RCON_ANSWER_LINES && answer.value.every((l) => typeof l === 'string'), 'net-bot: an rcon answer that is not a bounded list of strings');
  check(client.rcon.commands.size <= MAX_RCON_COMMANDS, `net-bot: ${client.rcon.commands.size} rcon commands kept`);
  check(client.game.players.size <= 256, `net-bot: ${client.game.players.size} players kept`);
  const str = (v) => typeof v === 'string';
  const int = (v) => Number.isInteger(v);
  const shapes = {
    chat: (e) => int(e.clientId) && str(e.text) && ['all', 'team', 'whisper'].includes(e.team) && (e.name === undefined || str(e.name)),
    join: (e) => int(e.clientId) && str(e.name) && str(e.clan),
    leave: (e) => int(e.clientId) && str(e.name),
    kill: (e) => int(e.killer) && int(e.victim) && int(e.weapon),
    broadcast: (e) => str(e.text),
    vote: (e) => (e.phase === 'start' || e.phase === 'end') && str(e.description) && str(e.reason) && int(e.seconds),
    mapchange: (e) => str(e.map) && int(e.crc) && int(e.size),
    rcon: (e) => str(e.line),
  };
  for (const e of events) check(shapes[e.type]?.(e) === true, `net-bot: an event not of its shape: ${JSON.stringify(e)}`);
  const c = client.game.character;
  if (c) check(Object.values(c).every((v) => typeof v === 'number'), `net-bot: a character with a field that is not a number: ${JSON.stringify(c)}`);
  client.disconnect();
  clock.advance(40);
  check(clock.timers.size === 0, `net-bot: ${clock.timers.size} timers left after disconnect`);
}
netBot.cliRuns = true;

export const NET_CLIENT_TARGETS = { 'net-client': netClient, 'net-bot': netBot };
