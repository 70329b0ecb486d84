import { ByteWriter, deepEqual, encodeUtf8Escaped, uuidToBytes } from '@twcodec/runtime';
import { MAX_CLIENTS, MAX_CLIENTS_128, MAX_CLIENTS_128_SINCE, TEEHISTORIAN_UUID } from './generated/constants.gen.js';
import { encodeExtension, encodeMessage, MESSAGE_IDS } from './generated/messages.gen.js';
import { jsonDepth, MAX_HEADER_DEPTH, type TeehistorianHeader, TeehistorianError } from './header.js';
import type { TeehistorianMessage } from './messages.js';

// An EX message starts with its id negated, as every message but PLAYER_DIFF does.
const EX = -MESSAGE_IDS.EX;

export interface HeaderInput {
  header: TeehistorianHeader;
  /** The JSON text as read; written as it is when `header` still says the same. */
  headerText?: string | undefined;
}

/** Options of TeehistorianWriter. */
export interface TeehistorianWriterOptions {
  /**
   * The server's MAX_CLIENTS, which decides where `writeAt` puts the first tick: 64 up to DDNet 18, 128 from
   * DDNet 19.0. By default taken from the header's `server_version` ("0.6.4, 19.0": 128; anything else: 64).
   */
  maxClients?: number;
}

/** MAX_CLIENTS of the server that wrote a header: 128 when its server_version names DDNet 19 or later, else 64. */
export function maxClientsOf(header: TeehistorianHeader): number {
  const major = /,\s*(\d+)\.\d+/.exec(typeof header.server_version === 'string' ? header.server_version : '')?.[1];
  return major !== undefined && Number(major) >= MAX_CLIENTS_128_SINCE ? MAX_CLIENTS_128 : MAX_CLIENTS;
}

const isPlayerRecord = (m: TeehistorianMessage): m is Extract<TeehistorianMessage, { cid: number; kind: 'PLAYER_DIFF' | 'PLAYER_NEW' | 'PLAYER_OLD' }> =>
  m.kind === 'PLAYER_DIFF' || m.kind === 'PLAYER_NEW' || m.kind === 'PLAYER_OLD';

/**
 * Writes teehistorian files. `write` puts messages as they are (a file read and written this way comes
 * back byte for byte); `writeAt` takes messages with explicit ticks and chooses TICK_SKIP or an implicit
 * tick exactly as DDNet's server does (CTeeHistorian::EnsureTickWritten / EnsureTickWrittenPlayerData).
 */
export class TeehistorianWriter {
  private readonly w = new ByteWriter(1 << 16);
  // Tick state for writeAt, as in DDNet's CTeeHistorian.
  private tick = 0;
  private lastWrittenTick = 0;
  private tickWritten = true;
  private maxCid: number;
  private prevMaxCid: number;

  constructor(header: HeaderInput, options: TeehistorianWriterOptions = {}) {
    // CTeeHistorian::Reset: the first tick's player records compare their ids with MAX_CLIENTS.
    this.maxCid = this.prevMaxCid = options.maxClients ?? maxClientsOf(header.header);
    const text =
      header.headerText !== undefined && deepEqual(safeParse(header.headerText), header.header) ? header.headerText : stringifyHeader(header.header);
    this.w.writeBytes(uuidToBytes(TEEHISTORIAN_UUID));
    this.w.writeBytes(encodeUtf8Escaped(text));
    this.w.writeU8(0);
  }

  /** Writes a message as it is. */
  write(m: TeehistorianMessage): void {
    if (m.kind === 'EX') {
      this.w.writeVarInt(EX);
      this.w.writeBytes(uuidToBytes(m.uuid));
      this.w.writeVarInt(m.data.length);
      this.w.writeBytes(m.data);
    } else if (m.kind.startsWith('EX:')) {
      const payload = new ByteWriter(64);
      const uuid = encodeExtension(m as Parameters<typeof encodeExtension>[0], payload);
      const data = payload.finish();
      this.w.writeVarInt(EX);
      this.w.writeBytes(uuidToBytes(uuid));
      this.w.writeVarInt(data.length);
      this.w.writeBytes(data);
    } else {
      encodeMessage(m as Parameters<typeof encodeMessage>[0], this.w);
    }
  }

  /**
   * Writes a message that belongs to `tick`, first writing the tick change DDNet would write. TICK_SKIP
   * messages given here are ignored: they are derived. Player records must come in ascending client id
   * order within a tick, as the server records them.
   */
  writeAt(tick: number, m: TeehistorianMessage): void {
    if (m.kind === 'TICK_SKIP') return;
    // CTeeHistorian::Finish writes FINISH without making sure the current tick was written.
    if (m.kind === 'FINISH') return this.write(m);
    if (tick < this.tick) throw new TeehistorianError('TICK_ORDER', `tick ${tick} after tick ${this.tick}`, -1, 'tick');
    if (tick > this.tick) {
      // BeginTick/BeginPlayers: the highest client id of the tick before, or -1 if ticks passed without records.
      this.prevMaxCid = tick === this.tick + 1 ? this.maxCid : -1;
      this.maxCid = -1;
      this.tick = tick;
      this.tickWritten = false;
    }
    if (isPlayerRecord(m)) {
      if (m.cid <= this.maxCid) throw new TeehistorianError('PLAYER_ORDER', `client ${m.cid} after client ${this.maxCid} in tick ${tick}`, -1, 'cid');
      this.maxCid = m.cid;
      if (!this.tickWritten && (m.cid > this.prevMaxCid || this.lastWrittenTick + 1 !== this.tick)) this.writeTick();
      else if (!this.tickWritten) {
        this.lastWrittenTick = this.tick;
        this.tickWritten = true;
      }
    } else if (!this.tickWritten) {
      this.writeTick();
    }
    this.write(m);
  }

  private writeTick(): void {
    encodeMessage({ kind: 'TICK_SKIP', dt: this.tick - this.lastWrittenTick - 1 }, this.w);
    this.tickWritten = true;
    this.lastWrittenTick = this.tick;
  }

  /** The file so far. */
  finish(): Uint8Array {
    return this.w.finish();
  }
}

/** The header as JSON; a header the reader would refuse (nested too deep, not serialisable) is a typed error. */
function stringifyHeader(header: TeehistorianHeader): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(header);
  } catch (e) {
    throw new TeehistorianError('BAD_HEADER', `header cannot be written as JSON: ${(e as Error).message}`, 0, 'header.json', { cause: e });
  }
  if (text === undefined || jsonDepth(text) > MAX_HEADER_DEPTH) {
    throw new TeehistorianError('BAD_HEADER', `header is not a JSON object nested at most ${MAX_HEADER_DEPTH} deep`, 0, 'header.json');
  }
  return text;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Writes a header and messages as they are. */
export function writeTeehistorian(header: HeaderInput, messages: Iterable<TeehistorianMessage>): Uint8Array {
  const writer = new TeehistorianWriter(header);
  for (const m of messages) writer.write(m);
  return writer.finish();
}

/** Writes messages with explicit ticks, deriving TICK_SKIP as DDNet's server does. */
export function writeTeehistorianTicked(header: HeaderInput, messages: Iterable<{ tick: number; message: TeehistorianMessage }>, options: TeehistorianWriterOptions = {}): Uint8Array {
  const writer = new TeehistorianWriter(header, options);
  for (const { tick, message } of messages) writer.writeAt(tick, message);
  return writer.finish();
}
