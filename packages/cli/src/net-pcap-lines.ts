// `net pcap`'s lines: the JSON line of each datagram of a capture, written as UTF-8 bytes into a JsonBytes
// (fast-json.ts) member by member, from texts kept for what lines repeat (a route's endpoints and packet head,
// flag lists, keys) and by the generated writer of each message kind. Apart from net.ts (the net commands) so
// that each stays a file one reads whole: this one is only about making the text of a line fast, the same
// text messageJson of the line's object gives (net-pcap-stream.test.ts compares them; issue 41).
import { type CaptureDatagram, type NetProtocolName, PACKET_PROTOCOLS, type TrackedDatagram } from '@twcodec/net';
import type { AnyNetMessage, NetMessageDef } from '@twcodec/netmsg';
import { JsonBytes, type JsonText, jsonText } from './fast-json.js';

/** `"time":"` and the time up to its fraction, as bytes, for the last second seen: a capture's datagrams come many to the second. */
let lastSecond = Number.NaN;
let lastSecondText = jsonText('');

/**
 * `,"time":"...` of a datagram up to its closing `Z"`, from text kept for the second: the time in ISO 8601 UTC
 * with the capture's fraction, 6 digits, or 9 when the nanoseconds need them.
 */
function writeTime(w: JsonBytes, d: CaptureDatagram): void {
  if (d.seconds !== lastSecond) {
    lastSecondText = jsonText(`,"time":"${new Date(d.seconds * 1000).toISOString().slice(0, 19)}.`);
    lastSecond = d.seconds;
  }
  w.text(lastSecondText);
  if (d.nanoseconds % 1000 === 0) w.padded(d.nanoseconds / 1000, 6);
  else w.padded(d.nanoseconds, 9);
}

/**
 * `Z","source":"...","destination":"...","protocol":P,"kind":K,"header":` of a packet, one text kept per
 * route (source and destination), protocol and kind for the routes met lately (see ROUTE_HEADS). Writing a line
 * is mostly its calls of JsonBytes.text, about 10 ns each whatever the text's length (issue 41): the line's
 * constant parts are merged into as few texts as can be kept.
 */
function writeRouteHead(w: JsonBytes, source: string, destination: string, protocol: NetProtocolName, kind: string, index: number, route: number): void {
  const slot = (protocol === '0.7' ? 3 : 0) + (kind === 'connection' ? 0 : kind === 'control' ? 1 : 2);
  // The route's heads by its number (CaptureDecoder.route), without the two look-ups by its texts.
  const place = route & (ROUTE_PLACES - 1);
  if (route >= 0 && routeIds[place] === route) {
    const text = routeHeads[place]![slot];
    if (text !== undefined) {
      w.raw(text);
      return;
    }
  }
  const heads = youngHeads.get(source)?.get(destination);
  const text = heads?.[slot];
  if (text !== undefined) w.raw(text);
  const kept = text !== undefined ? heads : writeNewRouteHead(w, source, destination, protocol, kind, slot, index);
  if (route >= 0 && kept) {
    routeIds[place] = route;
    routeHeads[place] = kept;
  }
}
/**
 * The bytes of an ASCII text kept to be written again and again whole (a route's head, about 110 bytes; a packet's
 * flags and token, about 50): written by one native copy (JsonBytes.raw), where text() stored a JsonText's words
 * one at a time, about 20 instructions a word (issue 41, callgrind). A view of jsonText's words, its one encoding.
 */
function keptBytes(text: string): Uint8Array {
  const t = jsonText(text);
  return new Uint8Array(t.words.buffer, t.words.byteOffset, t.length);
}
/**
 * The heads of the routes met lately by their number (CaptureDecoder.route), in the place of its low bits: a
 * route's number and its heads (those of its texts, whichever generation holds them). Numbers are not reused,
 * so a place whose number is the route's holds its heads. A place per route of a server of 64 players, and
 * twice as many (64 KB of texts at most): a capture's datagrams take turns among the routes of its clients.
 */
const ROUTE_PLACES = 256;
const routeIds = new Int32Array(ROUTE_PLACES).fill(-1);
const routeHeads = new Array<(Uint8Array | undefined)[] | undefined>(ROUTE_PLACES).fill(undefined);
/**
 * writeRouteHead for a route, protocol and kind whose head is not among the young ones: taken from the older
 * generation, or made, and kept among the young (the route's heads returned); the endpoints and the head
 * written apart when the young generation is full and was made less than ROUTE_HEADS_FRAMES frames ago. One call from writeRouteHead, met at
 * the first datagram of every route, so that its call has type feedback from the start (an optimised
 * function's call never made before is a deoptimisation when it is made; issue 41, node --trace-deopt).
 */
function writeNewRouteHead(w: JsonBytes, source: string, destination: string, protocol: NetProtocolName, kind: string, slot: number, index: number): (Uint8Array | undefined)[] | undefined {
  let heads = youngHeads.get(source)?.get(destination);
  if (!heads) {
    if (youngHeadCount >= ROUTE_HEADS) {
      if (index - youngHeadsSince < ROUTE_HEADS_FRAMES) {
        writeEndpoints(w, source, destination);
        w.text(packetHead(protocol, kind, slot));
        return undefined;
      }
      oldHeads = youngHeads;
      youngHeads = new Map();
      youngHeadCount = 0;
      youngHeadsSince = index;
    }
    heads = oldHeads.get(source)?.get(destination) ?? new Array<Uint8Array | undefined>(6).fill(undefined);
    youngHeadCount++;
    let bySource = youngHeads.get(source);
    if (!bySource) youngHeads.set(source, (bySource = new Map()));
    bySource.set(destination, heads);
  }
  // The endpoints are net's own texts (digits, dots, colons, hex, brackets): ASCII, nothing to escape.
  w.raw((heads[slot] ??= keptBytes(`Z","source":"${source}","destination":"${destination}","protocol":${JSON.stringify(protocol)},"kind":${JSON.stringify(kind)},"header":`)));
  return heads;
}
/**
 * The routes whose heads are kept: two generations of at most ROUTE_HEADS routes each, the young one where
 * every head written is, the old one the young one before it (a route met again is taken from there); once
 * the young one is full, and at least ROUTE_HEADS_FRAMES frames after it was made, it becomes the old one.
 * A server of 64 players has 128 routes. A long capture's clients come and go: heads kept for the first
 * ROUTE_HEADS routes only (the seventh pass) left 37% of the bench's 50 MB capture (408 routes over time, a
 * dozen at once) to the endpoints written apart, three texts and two look-ups more a line. Heads made for
 * every datagram of many flows taking turns, or more held, grew the heap: the bench's 10,000 flows at once
 * peaked at 97 MB with generations of 256 turned over as they filled, 100 MB with 1,024 heads kept and 106 MB
 * with 4,096, 80 MB with 256 (issue 41); with ROUTE_HEADS_FRAMES, at most 2 * ROUTE_HEADS heads are made in
 * that many frames.
 */
const ROUTE_HEADS = 256;
const ROUTE_HEADS_FRAMES = 65536;
/** writeRouteHead's texts by source, destination, then protocol and kind (0.6 connection, control, connless, then 0.7's). */
let youngHeads = new Map<string, Map<string, (Uint8Array | undefined)[]>>();
let oldHeads = new Map<string, Map<string, (Uint8Array | undefined)[]>>();
let youngHeadCount = 0;
/** The frame index at which youngHeads was made. */
let youngHeadsSince = 0;

/**
 * `Z","source":"...","destination":"..."`: the two texts kept as bytes per endpoint for the first ENDPOINT_TEXTS
 * endpoints met (a capture's datagrams go between a few endpoints, whose strings are net's own per flow, so a
 * look-up hashes no new string), written character by character for the others. Writing them so was 3% of
 * `net pcap`; a cache of the last 8 pairs made each text again for every datagram once more than 8 directions
 * took turns (a server with 4 players has 8), and a cache emptied when full made two arrays per datagram over
 * 10,000 flows taking turns, which raised the peak RSS by a sixth (issue 41).
 */
function writeEndpoints(w: JsonBytes, source: string, destination: string): void {
  const from = sourceTexts.get(source) ?? endpointText(sourceTexts, source, 'Z","source":"');
  if (from >= 0) w.textAt(endpointWords, from >>> 8, from & 255);
  else {
    w.ascii('Z","source":"');
    w.ascii(source);
  }
  const to = destinationTexts.get(destination) ?? endpointText(destinationTexts, destination, '","destination":"');
  if (to >= 0) w.textAt(endpointWords, to >>> 8, to & 255);
  else {
    w.ascii('","destination":"');
    w.ascii(destination);
  }
  w.byte(34);
}
/**
 * `prefix` and `endpoint` as a JsonText's words, kept in endpointWords, and their place in `texts`; -1 once
 * `texts` is full (or the text is longer than a place tells).
 */
function endpointText(texts: Map<string, number>, endpoint: string, prefix: string): number {
  const length = prefix.length + endpoint.length;
  if (texts.size >= ENDPOINT_TEXTS || length > 255) return -1;
  // The endpoints are net's own texts (digits, dots, colons, hex, brackets): ASCII, nothing to escape.
  const { words } = jsonText(prefix + endpoint);
  if (endpointUsed + words.length > endpointWords.length) {
    const grown = new Int32Array(Math.max(2 * endpointWords.length, endpointUsed + words.length));
    grown.set(endpointWords.subarray(0, endpointUsed));
    endpointWords = grown;
  }
  endpointWords.set(words, endpointUsed);
  const place = endpointUsed * 256 + length;
  endpointUsed += words.length;
  texts.set(endpoint, place);
  return place;
}
/** The most endpoints whose texts are kept (each way). */
const ENDPOINT_TEXTS = 4096;
/**
 * The kept texts' words (JsonText), one text after another in one array, and where each one is (its first
 * word times 256 plus its length in bytes, a small integer): a Uint8Array per text took 300 bytes of memory for
 * 30 of text, 2.5 MB of a capture of 10,000 clients at once (bench/pcap.mjs; issue 41).
 */
let endpointWords = new Int32Array(1024);
let endpointUsed = 0;
const sourceTexts = new Map<string, number>();
const destinationTexts = new Map<string, number>();

/**
 * The JSON line of one datagram: messages as `demo messages` prints them (message kind, fields); with what the
 * connection tracker made of it, vital chunks the receiver already had (or drops) marked and the snapshots the
 * datagram completed.
 */
export function datagramJson(d: CaptureDatagram, tracked?: TrackedDatagram): string {
  writeDatagram(lineWriter, d, tracked, false, -1);
  return lineWriter.take();
}
const lineWriter = new JsonBytes();

/** Texts of the lines' own members (keys, and the punctuation around them). */
const T_INDEX = jsonText('{"index":');
const T_NO_CHUNKS = jsonText(',"chunks":[');
const T_DELIVERY = jsonText(',"delivery":');
const T_SIZE = jsonText(',"size":');
const T_SNAPSHOTS_TICK = jsonText(',"snapshots":[{"tick":');
const T_LATER_TICK = jsonText(',{"tick":');
const T_DELTA_TICK = jsonText(',"deltaTick":');
const T_CRC = jsonText(',"crc":');
const T_CRC_OK = jsonText(',"crcOk":');
const T_ITEMS = jsonText(',"items":');
const T_CRC_OK_ITEMS = jsonText(',"crcOk":true,"items":');
const T_ERROR = jsonText(',"error":');
/** The end of a line: its object's brace and the newline, one text. */
const T_LINE_END = jsonText('}\n');
/** The end of the last chunk's or snapshot's object and of their list. */
const T_LIST_END = jsonText('}]');

/** The keys of writeDatagram's own members, as bytes (JsonBytes.keyOf). */
const K_CONTROL = JsonBytes.keyOf('control');
const K_ERROR = JsonBytes.keyOf('error');
const K_ERRORS = JsonBytes.keyOf('errors');
const K_MESSAGE = JsonBytes.keyOf('message');
const K_TRAILING = JsonBytes.keyOf('trailing');

/**
 * datagramJson's line into `w`, member by member (fast-json.ts): the same text as messageJson of the line's
 * object (the members in this order, undefined ones left out), which net-pcap-stream.test.ts compares; with a
 * newline after it when `newline` (`net pcap`'s NDJSON). `route`: the datagram's CaptureDecoder.route (-1 when
 * not known).
 */
export function writeDatagram(w: JsonBytes, d: CaptureDatagram, tracked: TrackedDatagram | undefined, newline: boolean, route: number): void {
  w.textNumber(T_INDEX, d.index);
  writeTime(w, d);
  if (d.error) {
    writeEndpoints(w, d.source, d.destination);
    w.memberOf(K_ERROR, d.error.message);
    if (newline) w.text(T_LINE_END);
    else w.byte(125);
    return;
  }
  const p = d.packet!;
  // The members every packet has, by their types (no test of each value's type); the endpoints, the protocol
  // and the kind with their keys as one text of a few kept.
  writeRouteHead(w, d.source, d.destination, p.protocol, p.kind, d.index, route);
  // A connection or control packet's header is its table's namedHeaderAt (ints, in schema order); a connless
  // header names its form and tokens.
  if (p.kind === 'connless') w.object(p.header);
  else PACKET_PROTOCOLS[p.protocol].namedHeaderJson(p.header as Record<string, number>, w);
  // The flags with the security token after them when there is a token.
  if (p.securityToken !== undefined) w.raw(flagsTokenText(flagsText(p.flags, packetFlagTokenTexts), p.securityToken));
  else w.text(flagsText(p.flags, packetFlagTexts));
  if (p.control) w.memberOf(K_CONTROL, p.control);
  if (p.connless) {
    w.ascii(',"connless":{');
    const comma = w.memberOf(K_MESSAGE, p.connless.kind, false);
    w.key('fields', comma);
    w.object(p.connless as unknown as Record<string, unknown>, 'kind');
    w.byte(125);
  }
  if (p.chunks) writeChunks(w, p.protocol, p.chunks, tracked);
  if (tracked?.errors?.length) w.memberOf(K_ERRORS, tracked.errors.map((e) => e.message));
  if (tracked?.snapshots.length) writeSnapshots(w, tracked.snapshots);
  if (tracked?.maps.length)
    w.member(
      'maps',
      tracked.maps.map((m) => ({
        name: m.name,
        size: m.size,
        crc: m.crc.toString(16).padStart(8, '0'),
        ...(m.sha256 ? { sha256: m.sha256 } : {}),
        ...(m.crcOk !== undefined ? { crcOk: m.crcOk } : {}),
        ...(m.sha256Ok !== undefined ? { sha256Ok: m.sha256Ok } : {}),
        ...(m.error ? { error: `${m.error.code}: ${m.error.detail}` } : {}),
      })),
    );
  if (newline) w.text(T_LINE_END);
  else w.byte(125);
}

/**
 * A packet's flags text (with the security token's key) and its token's digits as the bytes of one text, kept
 * for the last TOKEN_TEXTS pairs met: a connection's packets all carry its token, a 0.6 token is past int32 half
 * the time (written in two parts by JsonBytes.number), and a text kept costs one call into the writer (issue 41).
 */
function flagsTokenText(flags: JsonText, token: number): Uint8Array {
  for (let i = 0; i < TOKEN_TEXTS; i++) {
    const kept = tokenTexts[i];
    if (kept !== undefined && kept.token === token && kept.flags === flags) return kept.text;
  }
  const text = keptBytes(`${flags.text}${token}`);
  tokenTexts[tokenNext] = { flags, token, text };
  tokenNext = (tokenNext + 1) % TOKEN_TEXTS;
  return text;
}
const TOKEN_TEXTS = 8;
const tokenTexts = new Array<{ flags: JsonText; token: number; text: Uint8Array } | undefined>(TOKEN_TEXTS).fill(undefined);
let tokenNext = 0;

// The chunks and the snapshots of a line are written by functions of their own: V8 optimises writeDatagram and
// each of them apart, so a shape met late (a snapshot without a CRC, a message kind not seen before) makes V8
// compile again only the function that met it, not the whole line's writer with everything inlined into it
// (writeDatagram was compiled three times over the corpus session, 40 to 90 ms each: issue 41).

/** How a chunk's message is written: `,"message":KIND,"fields":` as text, and its fields' generated writer. */
interface MessageWriter {
  head: JsonText;
  /** NetMessageDef.json; undefined for a kind the table does not name (`unknown`). */
  json: NetMessageDef['json'];
}

/** Each packet protocol's message writers by message kind, made when first met (a Map each: no look-up by protocol). */
const messageWriters06 = new Map<string, MessageWriter>();
const messageWriters07 = new Map<string, MessageWriter>();

/**
 * The last RECENT_WRITERS writers looked up, with their protocol and kind: a game's chunks are a few kinds
 * taking turns (input, input_timing, snap_single), whose kind strings are the generated tables' literals, so
 * a test of identity finds them for less than the Map's hash look-up (issue 41).
 */
const RECENT_WRITERS = 4;
const recentKinds = new Array<string>(RECENT_WRITERS).fill('');
const recentProtocols = new Array<NetProtocolName | ''>(RECENT_WRITERS).fill('');
const recentWriters = new Array<MessageWriter | undefined>(RECENT_WRITERS).fill(undefined);
let recentNext = 0;

/** The writer of a message kind of a packet protocol's table. */
function messageWriter(protocol: NetProtocolName, kind: string): MessageWriter {
  for (let i = 0; i < RECENT_WRITERS; i++) if (recentKinds[i] === kind && recentProtocols[i] === protocol) return recentWriters[i]!;
  const writer = tableWriter(protocol, kind);
  recentKinds[recentNext] = kind;
  recentProtocols[recentNext] = protocol;
  recentWriters[recentNext] = writer;
  recentNext = (recentNext + 1) % RECENT_WRITERS;
  return writer;
}

/** messageWriter's writer from the protocol's Map, made when first met. */
function tableWriter(protocol: NetProtocolName, kind: string): MessageWriter {
  const writers = protocol === '0.7' ? messageWriters07 : messageWriters06;
  let writer = writers.get(kind);
  if (!writer) {
    // The kinds are the table's names and `unknown`: a few hundred at most.
    const json = PACKET_PROTOCOLS[protocol].messages.messages.find((def) => def.name === kind)?.json;
    writers.set(kind, (writer = { head: jsonText(`,"message":${JSON.stringify(kind)},"fields":`), json }));
  }
  return writer;
}

/** `,"protocol":P,"kind":K,"header":` as text, kept by writeRouteHead's slot of the protocol and packet kind. */
function packetHead(protocol: string, kind: string, slot: number): JsonText {
  return (packetHeads[slot] ??= jsonText(`,"protocol":${JSON.stringify(protocol)},"kind":${JSON.stringify(kind)},"header":`));
}
const packetHeads = new Array<JsonText | undefined>(6).fill(undefined);

/**
 * flagsText's texts of one prefix and suffix (the text before and after the list): the empty list's, and the
 * others' by first name, then second ('' for a list of one).
 */
interface FlagTexts {
  prefix: string;
  suffix: string;
  none: JsonText;
  byFirst: Map<string, Map<string, JsonText>>;
  /**
   * The last list's names ('' for none) and text: most packets of a capture have the same flags (compression),
   * most vital chunks the same (vital), and a test of the two names' identity costs less than the two Map
   * look-ups (issue 41: flagsText was 3% of net pcap).
   */
  lastFirst: string;
  lastSecond: string;
  lastText: JsonText | undefined;
}
const flagTextsOf = (prefix: string, suffix: string): FlagTexts => ({ prefix, suffix, none: jsonText(`${prefix}[]${suffix}`), byFirst: new Map(), lastFirst: '', lastSecond: '', lastText: undefined });
/** A packet's `,"flags":[...]`, and with the security token's key after it. */
const packetFlagTexts = flagTextsOf(',"flags":', '');
const packetFlagTokenTexts = flagTextsOf(',"flags":', ',"securityToken":');
/**
 * A chunk's `{"flags":[...]`, after `,"chunks":[` (the first chunk) or `,` (the others), and before the key of
 * its next member: the sequence (a vital chunk), the size, or neither (the delivery comes first).
 */
const chunkFlagTexts = [',"chunks":[{"flags":', ',{"flags":'].map((prefix) => [',"sequence":', ',"size":', ''].map((suffix) => flagTextsOf(prefix, suffix)));
const FIRST_CHUNK = 0;
const LATER_CHUNK = 1;
const BEFORE_SEQUENCE = 0;
const BEFORE_SIZE = 1;
const BEFORE_DELIVERY = 2;

/**
 * The texts' prefix, a flag list's JSON and their suffix as text, kept per list of up to two names: net's
 * decoder hands out a new array per packet and chunk, of the same few name strings (its flag tables'). The
 * names are the schemas' (snake_case ASCII).
 */
function flagsText(flags: readonly string[], texts: FlagTexts): JsonText {
  const n = flags.length;
  if (n === 0) return texts.none;
  if (n > 2) return jsonText(`${texts.prefix}${JSON.stringify(flags)}${texts.suffix}`);
  const first = flags[0]!;
  const second = n === 2 ? flags[1]! : '';
  if (first === texts.lastFirst && second === texts.lastSecond && texts.lastText) return texts.lastText;
  let byFirst = texts.byFirst.get(first);
  if (!byFirst) {
    if (texts.byFirst.size >= 256) texts.byFirst.clear();
    texts.byFirst.set(first, (byFirst = new Map()));
  }
  let text = byFirst.get(second);
  if (!text) {
    if (byFirst.size >= 256) byFirst.clear();
    byFirst.set(second, (text = jsonText(`${texts.prefix}${JSON.stringify(flags)}${texts.suffix}`)));
  }
  texts.lastFirst = first;
  texts.lastSecond = second;
  texts.lastText = text;
  return text;
}

/** The `chunks` member of a datagram's line. */
function writeChunks(w: JsonBytes, protocol: NetProtocolName, chunks: NonNullable<NonNullable<CaptureDatagram['packet']>['chunks']>, tracked: TrackedDatagram | undefined): void {
  if (chunks.length === 0) w.text(T_NO_CHUNKS);
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i]!;
    const message = c.message as typeof c.message & { trailing?: Uint8Array };
    const delivery = tracked?.delivery[i];
    const delivered = !delivery || delivery === 'delivered';
    // The flags with the text around them (the chunk list's start or a comma; the next member's key).
    const texts = chunkFlagTexts[i === 0 ? FIRST_CHUNK : LATER_CHUNK]!;
    if (c.sequence !== undefined) {
      w.textNumber(flagsText(c.flags, texts[BEFORE_SEQUENCE]!), c.sequence);
      if (!delivered) {
        w.text(T_DELIVERY);
        w.string(delivery);
      }
      w.textNumber(T_SIZE, c.size);
    } else if (delivered) w.textNumber(flagsText(c.flags, texts[BEFORE_SIZE]!), c.size);
    else {
      w.text(flagsText(c.flags, texts[BEFORE_DELIVERY]!));
      w.text(T_DELIVERY);
      w.string(delivery);
      w.textNumber(T_SIZE, c.size);
    }
    // A message of the protocol's table by its generated writer (its fields in schema order); an unknown one
    // (kind 'unknown', kept raw) by its keys.
    const writer = messageWriter(protocol, message.kind);
    w.text(writer.head);
    if (writer.json) writer.json(message as AnyNetMessage, w);
    else w.object(message as unknown as Record<string, unknown>, 'kind', 'trailing');
    if (message.trailing?.length) w.memberOf(K_TRAILING, message.trailing);
    if (i + 1 < chunks.length) w.byte(125);
    else w.text(T_LIST_END);
  }
  if (chunks.length === 0) w.byte(93);
}

/** The `snapshots` member of a datagram's line. */
function writeSnapshots(w: JsonBytes, snapshots: TrackedDatagram['snapshots']): void {
  // Each as the object {tick, deltaTick, crc?, crcOk?, items?, error?} would be written, without making it.
  for (let i = 0; i < snapshots.length; i++) {
    const s = snapshots[i]!;
    w.textNumber(i ? T_LATER_TICK : T_SNAPSHOTS_TICK, s.tick);
    w.textNumber(T_DELTA_TICK, s.deltaTick);
    if (s.crc !== undefined) w.textNumber(T_CRC, s.crc);
    // A snapshot rebuilt with its CRC right (most of them): its two members' keys and `true` as one text.
    if (s.crcOk === true && s.snapshot) w.textNumber(T_CRC_OK_ITEMS, s.snapshot.items.length);
    else {
      if (s.crcOk !== undefined) {
        w.text(T_CRC_OK);
        w.boolean(s.crcOk);
      }
      if (s.snapshot) w.textNumber(T_ITEMS, s.snapshot.items.length);
    }
    if (s.error) {
      w.text(T_ERROR);
      w.string(s.error);
    }
    if (i + 1 < snapshots.length) w.byte(125);
    else w.text(T_LIST_END);
  }
}
