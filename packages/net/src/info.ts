// Asking a server for its info, without a socket: `ServerInfoQuery` says what to send and reads the replies.
// 0.6/DDNet: DDNet's request (the "xe" connless header with an extra token, then `gie3` and the basic token,
// as DDNet 16.4's client sends it in connless.pcap); DDNet 16.4 answers with `iext` and, past the clients one
// packet holds, `iex+` packets; a vanilla server answers `inf3`. 0.7: a token request (a 0.7 control packet),
// the server's token, then the connless `gie3` with both tokens, answered by 0.7's `inf3` (connless.pcap too).
import { packVarInt } from '@twcodec/runtime';
import { randomToken, TOKEN_REQUEST_PADDING } from './client.js';
import { Teeworlds07ControlId, Teeworlds07PacketFlag, Teeworlds07Token } from './generated/teeworlds-0.7.gen.js';
import { NetError } from './errors.js';
import { type DecodedPacket, decodePacket, encodePacket, type NetProtocolName } from './packet.js';

/** One client as the server lists it. */
export interface ServerInfoClient {
  name: string;
  clan: string;
  country: number;
  score: number;
  /** 0.6: whether the client plays (not a spectator); 0.7: the player type (0 player, 1 spectator, 2 bot). */
  isPlayer: boolean;
  playerType?: number;
}

/** A server's info, the same shape for either protocol. */
export interface ServerInfo {
  protocol: NetProtocolName;
  /** Which reply: `info` (inf3), `info_extended` (DDNet's iext with its iex+ packets), `info_07`. */
  form: 'info' | 'info_extended' | 'info_07';
  version: string;
  name: string;
  map: string;
  gameType: string;
  flags: number;
  numPlayers: number;
  maxPlayers: number;
  numClients: number;
  maxClients: number;
  mapCrc?: number;
  mapSize?: number;
  hostname?: string;
  skillLevel?: number;
  clients: ServerInfoClient[];
}

/** Replies kept at most: DDNet's extended info spreads 64 clients over a few packets (packet numbers 1-63). */
const MAX_INFO_PACKETS = 64;

const num = (v: unknown) => {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
};

/**
 * One info request. `requests()` gives the datagrams to send (again, if no answer comes); `receive(bytes)` takes
 * each datagram from the server and returns datagrams to send next; `info` is set once the answer is complete
 * (`done`). The caller bounds the wait: `result()` gives what arrived so far (an extended info whose `iex+`
 * packets did not all come lists fewer clients).
 */
export class ServerInfoQuery {
  readonly protocol: NetProtocolName;
  done = false;
  private info: ServerInfo | undefined;
  private packets = 0;
  /** 0.6: the basic token (a byte) and the extra token (two bytes); 0.7: the client's token and the browser token. */
  private readonly basicToken = randomToken(8);
  private readonly extraToken = randomToken(16);
  private readonly ownToken = randomToken(32);
  private readonly browserToken = randomToken(31);
  private serverToken: number | undefined;
  private seenMore = new Set<number>();

  constructor(protocol: NetProtocolName = '0.6') {
    if (protocol !== '0.6' && protocol !== '0.7') throw new NetError('BAD_PROTOCOL', `protocol ${String(protocol)}: 0.6 or 0.7`, -1, 'protocol');
    this.protocol = protocol;
  }

  /** The datagrams that start (or restart) the query. */
  requests(): Uint8Array[] {
    if (this.protocol === '0.6')
      return [encodePacket({ protocol: '0.6', kind: 'connless', header: { form: 'extended', extra_token: (this.extraToken << 16) >>> 0 }, flags: ['connless'], connless: { kind: 'get_info', token: this.basicToken } })];
    if (this.serverToken === undefined)
      return [encodePacket({ protocol: '0.7', kind: 'control', header: { flags: Teeworlds07PacketFlag.control, ack: 0, num_chunks: 0, token: Teeworlds07Token.none }, flags: ['control'], control: { kind: 'token', id: Teeworlds07ControlId.token, responseToken: this.ownToken, padding: TOKEN_REQUEST_PADDING } })];
    return [encodePacket({ protocol: '0.7', kind: 'connless', header: { form: 'token', token: this.serverToken, response_token: this.ownToken }, flags: ['connless'], connless: { kind: 'get_info', token: this.browserToken } })];
  }

  /** Takes a datagram from the server; returns what to send next (the 0.7 info request after the token). */
  receive(bytes: Uint8Array): Uint8Array[] {
    if (this.done || this.packets >= MAX_INFO_PACKETS) return [];
    let p: DecodedPacket;
    try {
      p = decodePacket(bytes, { protocol: this.protocol });
    } catch (e) {
      if (e instanceof NetError) return [];
      throw e;
    }
    if (this.protocol === '0.7' && p.kind === 'control' && p.control?.kind === 'token' && p.header.token === this.ownToken && this.serverToken === undefined) {
      this.serverToken = p.control.responseToken as number;
      return this.requests();
    }
    const m = p.connless;
    if (!m) return [];
    this.packets++;
    if (this.protocol === '0.7') {
      if (m.kind === 'info' && p.protocol === '0.7' && m.token === this.browserToken) this.finish(this.read07(m));
      // A DDNet server without 0.7 support at the moment (sv_sixup 0, or a map without a maps7/ copy) or a request
      // without a response token gets 0.6's inf3 (connless.pcap); its token is the first byte after `gie3`
      // (DDNet 16.4 src/engine/server/server.cpp Run: the first byte of the packed int, not the token).
      else if (m.kind === 'info' && p.protocol === '0.6' && num(m.token) === this.legacyToken()) this.finish(this.read06(m, 'info'));
      return [];
    }
    const extended = ((this.extraToken << 8) | this.basicToken) >>> 0;
    if (m.kind === 'info' && num(m.token) === this.basicToken) this.finish(this.read06(m, 'info'));
    else if (m.kind === 'info_extended' && num(m.token) === extended && !this.info) {
      this.info = this.read06(m, 'info_extended');
      this.checkComplete();
    } else if (m.kind === 'info_extended_more' && num(m.token) === extended) {
      const no = num(m.packetNo);
      if (no < 1 || no >= MAX_INFO_PACKETS || this.seenMore.has(no)) return [];
      this.seenMore.add(no);
      (this.more ??= []).push(...this.clients(m.clients, true));
      this.checkComplete();
    }
    return [];
  }

  private more: ServerInfoClient[] | undefined;

  /** The first byte of the packed browser token: what a DDNet server echoes in a 0.6 reply to a 0.7 request. */
  private legacyToken(): number {
    const packed = new Uint8Array(5);
    packVarInt(this.browserToken, packed, 0);
    return packed[0]!;
  }

  private checkComplete(): void {
    if (!this.info) return;
    if (this.more) (this.info.clients.push(...this.more), (this.more = undefined));
    if (this.info.clients.length >= this.info.numClients) this.done = true;
  }

  /** The info as far as it came (undefined: no answer yet). */
  result(): ServerInfo | undefined {
    this.checkComplete();
    return this.info;
  }

  private finish(info: ServerInfo): void {
    this.info = info;
    this.done = true;
  }

  private clients(list: unknown, is06: boolean): ServerInfoClient[] {
    return ((list as Record<string, unknown>[] | undefined) ?? []).map((c) =>
      is06
        ? { name: String(c.name), clan: String(c.clan), country: num(c.country), score: num(c.score), isPlayer: num(c.isPlayer) !== 0 }
        : { name: String(c.name), clan: String(c.clan), country: num(c.country), score: num(c.score), isPlayer: num(c.playerType) === 0, playerType: num(c.playerType) },
    );
  }

  private read06(m: Record<string, unknown>, form: 'info' | 'info_extended'): ServerInfo {
    const info: ServerInfo = {
      protocol: '0.6',
      form,
      version: String(m.version),
      name: String(m.name),
      map: String(m.map),
      gameType: String(m.gameType),
      flags: num(m.flags),
      numPlayers: num(m.numPlayers),
      maxPlayers: num(m.maxPlayers),
      numClients: num(m.numClients),
      maxClients: num(m.maxClients),
      clients: this.clients(m.clients, true),
    };
    if (form === 'info_extended') Object.assign(info, { mapCrc: num(m.mapCrc) >>> 0, mapSize: num(m.mapSize) });
    return info;
  }

  private read07(m: Record<string, unknown>): ServerInfo {
    return {
      protocol: '0.7',
      form: 'info_07',
      version: String(m.version),
      name: String(m.name),
      hostname: String(m.hostname),
      map: String(m.map),
      gameType: String(m.gameType),
      flags: num(m.flags),
      skillLevel: num(m.skillLevel),
      numPlayers: num(m.numPlayers),
      maxPlayers: num(m.maxPlayers),
      numClients: num(m.numClients),
      maxClients: num(m.maxClients),
      clients: this.clients(m.clients, false),
    };
  }
}
