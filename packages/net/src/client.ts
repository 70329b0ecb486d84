// A game client's side of one connection, for Teeworlds 0.6/DDNet and 0.7, without any socket: the caller
// hands it the datagrams the server sent (`receive`) and a function that sends (`send`); the Node entry
// (node.ts) wires it to node:dgram. It does what a client does to get into the game and stay there:
// - the handshake: 0.6/DDNet connect with the TKEN magic, connect_accept carrying DDNet's security token (put at
//   the end of every packet after it), accept; 0.7 a token request, the server's token, connect, accept
//   (as the corpus captures show them byte by byte: ../shared/corpus/net/connless.pcap, teeworlds-0.7-session.pcap);
// - the game handshake: info, ready on map_change (the map is downloaded first only with `downloadMap`, map-request.ts: the server
//   lets a client without it in), start info on con_ready, enter_game (0.7: on sv_ready_to_enter);
// - vital chunks in order by sequence, acknowledged in every packet's header; its own vital chunks kept until
//   acknowledged and sent again after a second, or at once when the server asks (resend flag): transport.ts;
// - snapshots rebuilt from their deltas (snapshot-receiver.ts) and acknowledged in `input` messages, so that the
//   server goes on sending deltas at its full rate;
// - keep-alives when nothing else was sent for half a second; every wait bounded (connect, silence, unacked).
// Timings from Teeworlds/DDNet network_conn.cpp as libtw2's protocol notes describe them (keep-alive after
// half a second, resend after one second) and the captures (a client input every tick or two).
import { type AnyNetMessage, encodeNetMessage, netMessageDef, type NetProtocolDef, SERVER_TICK_SPEED, type UnknownNetMessage } from '@twcodec/netmsg';
import { CLIENT_LIMITS, type ClientClose, type ClientMap, type ClientMessage, type ClientOptions, type ClientSnapshot, type ClientState, type NetClock, type PlayerInput, SYSTEM_CLOCK } from './client-api.js';
import { NetError } from './errors.js';
import { type DecodedPacket, decodePacket, type NetProtocolName, PACKET_PROTOCOLS } from './packet.js';
import { DEFAULT_MAX_MAP_SIZE } from './mapdownload.js';
import { MapRequest } from './map-request.js';
import { Ddnet06Token } from './generated/ddnet-0.6.gen.js';
import { Teeworlds07Token } from './generated/teeworlds-0.7.gen.js';
import { isSnapMessage, type SnapMessage, SnapshotReceiver } from './snapshot-receiver.js';
import { ClientTransport } from './transport.js';
import { aimInput, ClientInput, directionInput, fireInput } from './input.js';
import { ClientRcon } from './rcon.js';
import { ClientGame } from './game.js';

/** The net versions the info message sends and a recorded demo's header carries (schemas/netmsg `net_version`). */
export const NET_VERSIONS: Readonly<Record<NetProtocolName, string>> = { '0.6': PACKET_PROTOCOLS['0.6'].messages.netVersion, '0.7': PACKET_PROTOCOLS['0.7'].messages.netVersion };
/** 0.7's client version in its info message (0x0705, as the 0.7.5 client sends). */
const CLIENT_VERSION_07 = 0x0705;
/**
 * The DDNet version a 0.6 client says it speaks (ClientOptions.ddnetVersion): DDNet 16.4's, whose messages and
 * snapshot items schemas/ describes. DDNet 16.4 src/engine/server/server.cpp: a client whose version is below
 * VERSION_DDNET_OLD sees at most VANILLA_MAX_CLIENTS (16) players, ids mapped (Translate); the version is taken
 * only before the info (NETMSG_CLIENTVER in the pre-auth state), as DDNet's client sends it (SendInfo).
 */
export const DDNET_CLIENT_VERSION = 16040;
/** The zero bytes after the client's token that pad a 0.7 token request or connect to the size schemas/net gives (the token takes 4). */
export const TOKEN_REQUEST_PADDING = Teeworlds07Token.requestSize - 4;

/** Keep-alive after this long without sending; resend an unacknowledged vital chunk after this long. */
const KEEP_ALIVE_MS = 500;
const RESEND_MS = 1000;
/** The handshake packets (connect, token request) are sent again this often until answered. */
const HANDSHAKE_RESEND_MS = 500;
/** How often the client looks at its clocks. */
const TICK_MS = 20;
/** Inputs: one a predicted tick while in game, and at least this often (the ack of the last snapshot goes with them). */
const INPUT_MS = 100;


interface ClientEvents {
  message: ClientMessage;
  snapshot: ClientSnapshot;
  /** The first snapshot arrived: the client is in the game (again after a map change). */
  ingame: void;
  /**
   * The server changed map while the client was in the game (or entering it), and the new map is there
   * (downloaded with ClientOptions.downloadMap): `client.map` is the new one, the client says ready and goes on.
   * DDNet's client stops its demo recorders here (see recordDemo).
   */
  mapchange: ClientMap;
  close: ClientClose;
}

type Listener<T> = (value: T) => void;

/** The close packet's reason when the client gives up: the error's code, as a short word the server logs. */
const closeReasonOf = (code: string) => code.slice(0, 64);

/**
 * The int32 a C++ client's `int` tick arithmetic gives: DDNet 16.4 src/engine/client/client.cpp computes the
 * prediction tick as an int (a 64-bit time cast to int, plus one) and wraps past 2^31 - 1; its SendInput sends
 * no input while that tick is 0 or less.
 */
const int32 = (n: number) => n | 0;

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
/** A random token of `bits` bits (the top bits of a random 32-bit number). */
/** A random (version 4) UUID, as DDNet's client makes one per connection for clientver@ddnet.tw. */
const randomUuid = (): string => {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
export const randomToken = (bits = 32) => crypto.getRandomValues(new Uint32Array(1))[0]! >>> (32 - bits);

/**
 * One connection to a server, driven from outside: `start()` sends the first packet, `receive(bytes)` takes
 * each datagram from the server, `send(bytes)` (given to the constructor) sends. Events: `message`,
 * `snapshot`, `ingame`, `close`.
 */
export class NetClient {
  readonly protocol: NetProtocolName;
  state: ClientState;
  /** The map the server named, once it did. */
  map: ClientMap | undefined;
  /** Why the connection ended, once it did. */
  closeReason: ClientClose | undefined;
  /** The clock the client's waits run on (ClientOptions.clock). */
  readonly clock: NetClock;
  /** The remote console: `await client.rcon.auth(password)`, then `await client.rcon.command('status')` (rcon.ts). */
  readonly rcon: ClientRcon;
  /** Typed events and the game state (the own character, the players): `client.game.on('chat', (e) => ...)` (game.ts). */
  readonly game: ClientGame;
  private readonly options: Required<Omit<ClientOptions, 'protocol' | 'clock' | 'token' | 'downloadMap' | 'maxMapSize'>>;
  /** The map download (ClientOptions.downloadMap): the chunks asked for and checked (map-request.ts). */
  private readonly mapRequest: MapRequest | undefined;
  /** DDNet's map_details: the SHA-256 of the map_change that follows. */
  private mapDetails: ClientMap | undefined;
  /** The client sent ready (the map is there, or not wanted): the server's con_ready counts from then on. */
  private saidReady = false;
  private readonly table: NetProtocolDef;
  private readonly listeners: { [K in keyof ClientEvents]: Listener<ClientEvents[K]>[] } = { message: [], snapshot: [], ingame: [], mapchange: [], close: [] };
  /** A new one at each map change: the server starts over from a full snapshot. */
  private snapshots: SnapshotReceiver;
  /** A map_change came while in game: `mapchange` is emitted once the new map is there. */
  private changingMap = false;
  /** From a map change until the server's con_ready: snapshots still in flight are of the old map, and dropped. */
  private reloading = false;
  /** Packets, acks, vital chunks in order and resent (transport.ts); it holds the peer's token. */
  private readonly transport: ClientTransport;
  /** 0.7: the client's own token, which the server puts in its packet headers. */
  private readonly ownToken: number;
  private started = 0;
  private lastRecv = 0;
  private lastHandshake = 0;
  private lastInput = 0;
  private inputTick = -1;
  /** When the last snapshot arrived (the clock's ms): the predicted tick counts on from it. */
  private snapshotAt = 0;
  /** The input that goes out with the next input message (input.ts). */
  private readonly input: ClientInput;
  private badPackets = 0;
  private badSnapshots = 0;
  private timer: unknown;

  constructor(
    options: ClientOptions,
    transmit: (bytes: Uint8Array) => void,
  ) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.ownToken = options.token === undefined ? randomToken() : options.token >>> 0;
    this.protocol = options.protocol ?? '0.6';
    if (this.protocol !== '0.6' && this.protocol !== '0.7') throw new NetError('BAD_PROTOCOL', `protocol ${String(this.protocol)}: 0.6 or 0.7`, -1, 'protocol');
    if (options.downloadMap) this.mapRequest = new MapRequest(this.protocol, options.maxMapSize ?? DEFAULT_MAX_MAP_SIZE, (message) => this.sendMessage(message));
    this.options = { name: options.name, clan: options.clan ?? '', country: options.country ?? -1, password: options.password ?? '', connectTimeout: options.connectTimeout ?? 10000, timeout: options.timeout ?? 10000, ddnetVersion: options.ddnetVersion ?? DDNET_CLIENT_VERSION };
    const v = this.options.ddnetVersion;
    if (!Number.isInteger(v) || v < 0 || v > 0x7fffffff) throw new NetError('BAD_OPTION', `ddnetVersion ${String(v)}: an integer from 0 (none) to 2^31-1`, -1, 'options');
    this.table = PACKET_PROTOCOLS[this.protocol].messages;
    this.snapshots = new SnapshotReceiver(this.protocol);
    this.transport = new ClientTransport(this.protocol, this.table, this.clock, transmit);
    this.input = new ClientInput(this.protocol);
    this.state = this.protocol === '0.7' ? 'token' : 'connecting';
    this.rcon = new ClientRcon(this);
    this.game = new ClientGame(this.protocol);
  }

  on<K extends keyof ClientEvents>(event: K, listener: Listener<ClientEvents[K]>): this {
    (this.listeners[event] as Listener<ClientEvents[K]>[]).push(listener);
    return this;
  }

  off<K extends keyof ClientEvents>(event: K, listener: Listener<ClientEvents[K]>): this {
    const list = this.listeners[event] as Listener<ClientEvents[K]>[];
    const i = list.indexOf(listener);
    if (i >= 0) list.splice(i, 1);
    return this;
  }

  private emit<K extends keyof ClientEvents>(event: K, value: ClientEvents[K]): void {
    for (const listener of [...(this.listeners[event] as Listener<ClientEvents[K]>[])]) listener(value);
  }

  /** Sends the first handshake packet and starts the clock (timeouts, resends, keep-alives, inputs). */
  start(): void {
    if (this.started) return;
    this.started = this.lastRecv = this.clock.now();
    this.sendHandshake();
    this.timer = this.clock.setInterval(() => this.update(), TICK_MS);
  }

  /** Resolves when the client is in the game (its first snapshot); rejects with the reason when it closes first. */
  ready(): Promise<void> {
    if (this.state === 'ingame') return Promise.resolve();
    if (this.closeReason) return Promise.reject(this.closeError(this.closeReason));
    return new Promise((resolve, reject) => {
      const onIngame = () => (cleanup(), resolve());
      const onClose = (c: ClientClose) => (cleanup(), reject(this.closeError(c)));
      const cleanup = () => (this.off('ingame', onIngame), this.off('close', onClose));
      this.on('ingame', onIngame).on('close', onClose);
    });
  }

  /** Resolves when the server acknowledged every vital chunk sent so far; rejects when the connection closes first. */
  flushed(): Promise<void> {
    if (!this.transport.unackedCount) return Promise.resolve();
    if (this.closeReason) return Promise.reject(this.closeError(this.closeReason));
    const last = this.transport.lastSequence;
    return new Promise((resolve, reject) => {
      const check = this.clock.setInterval(() => {
        if (this.closeReason) (this.clock.clearInterval(check), reject(this.closeError(this.closeReason)));
        else if (this.transport.acknowledged(last)) (this.clock.clearInterval(check), resolve());
      }, TICK_MS);
    });
  }

  private closeError(c: ClientClose): NetError {
    return c.error ?? new NetError(c.cause === 'server' ? 'CLOSED_BY_SERVER' : 'CLOSED', c.reason || c.cause, -1, 'connection');
  }

  /** Sends a chat line (0.6: team chat when `team`; 0.7: mode 2). */
  say(text: string, team = false): void {
    if (this.protocol === '0.7') this.sendMessage({ kind: 'cl_say', mode: team ? 2 : 1, target: -1, message: text });
    else this.sendMessage({ kind: 'cl_say', team, message: text });
  }

  /** Sets the input sent from now on (fields not given keep their value). */
  setInput(input: PlayerInput): void {
    this.input.put(input);
    this.lastInput = 0;
  }

  // --- input helpers: each changes one field of the input (setInput) that goes out with the next input message
  // (one each server tick, as DDNet's client sends them; the server keeps applying the last one it
  // got, so a held key is a field left set). Field meanings from DDNet 16.4 src/game/client/components/controls.cpp
  // (wanted weapon is the weapon + 1; the fire field counts presses and releases) and src/game/server/entities/character.cpp;
  // input.ts has the fields' logic.

  /** Runs left (-1 / 'left'), right (1 / 'right') or stops (0 / 'none'). */
  move(direction: 'left' | 'right' | 'none' | -1 | 0 | 1): void {
    this.setInput(directionInput(direction));
  }

  /** Holds (true) or lets go of (false) jump: a jump happens when it is pressed, so let go before jumping again. */
  jump(hold = true): void {
    this.setInput({ jump: hold ? 1 : 0 });
  }

  /** Holds (true) or lets go of (false) the hook. */
  hook(hold = true): void {
    this.setInput({ hook: hold ? 1 : 0 });
  }

  /**
   * Holds (true) or lets go of (false) fire. The input's fire field counts presses and releases (odd: held), as
   * the game client's; the server fires for each press it counts.
   */
  fire(hold = true): void {
    const fire = fireInput(this.input.current.fire, hold);
    if (fire) this.setInput(fire);
  }

  /** Aims at a point relative to the own character (world units, 32 a tile; y grows downwards). */
  aim(x: number, y: number): void {
    this.setInput(aimInput(x, y));
  }

  /** Aims at a point of the world (world units), from the own character's position in the last snapshot (false when there is none). */
  aimAt(worldX: number, worldY: number): boolean {
    const c = this.game.character;
    if (!c) return false;
    this.aim(worldX - c.x, worldY - c.y);
    return true;
  }

  /** Switches to a weapon by its number (0 hammer, 1 gun, 2 shotgun, 3 grenade, 4 laser, 5 ninja). */
  weapon(weapon: number): void {
    this.setInput({ wantedWeapon: (weapon | 0) + 1 });
  }

  /** Sets the player flags (e.g. 1 playing, 2 in menu, 4 chatting, 8 scoreboard, 16 aiming: the player_flags values of the snapshot schema). */
  flags(playerFlags: number): void {
    this.setInput({ playerFlags });
  }

  /** The input that goes out now, by field. */
  get currentInput(): Required<PlayerInput> {
    return this.input.current;
  }

  /** Sends a message by its @twcodec/netmsg kind and fields (vital unless `vital` is false). */
  sendMessage(message: { kind: string; [field: string]: unknown }, vital = true): void {
    if (this.state === 'closed') throw new NetError('CLOSED', 'the connection is closed', -1, 'connection');
    if (this.state === 'token' || this.state === 'connecting') throw new NetError('NOT_CONNECTED', 'the server has not accepted the connection yet (await ready())', -1, 'connection');
    // Encoded now, so that a message the table does not know throws here, at the caller.
    const bytes = encodeNetMessage(this.table, message);
    if (bytes.length > CLIENT_LIMITS.maxChunkBytes) throw new NetError('CHUNK_TOO_BIG', `${bytes.length} bytes, at most ${CLIENT_LIMITS.maxChunkBytes} in one chunk`, -1, message.kind);
    if (!vital) return this.transport.sendChunks([{ message }], false);
    if (this.transport.unackedCount >= CLIENT_LIMITS.maxUnacked) return this.close('error', 'too many unacknowledged chunks', new NetError('RESEND_BUFFER_FULL', `${CLIENT_LIMITS.maxUnacked} vital chunks the server did not acknowledge`, -1, 'connection'));
    this.transport.sendVital(message);
  }

  /** Closes the connection (tells the server, with `reason`). */
  disconnect(reason = ''): void {
    if (this.state === 'closed') return;
    if (this.state !== 'token') this.transport.sendControl({ kind: 'close', ...(reason ? { reason } : {}) });
    this.close('disconnect', reason);
  }

  /**
   * Ends the connection with an error of the caller's (e.g. the socket's). The server is told (a close packet,
   * sent if the transport still can), as with every error and time-out: else it keeps the player's slot until its
   * own time-out (DDNet 16.4: conn_timeout 100 s) and its per-address limit fills.
   */
  abort(error: NetError): void {
    this.close('error', error.message, error);
  }

  private close(cause: ClientClose['cause'], reason: string, error?: NetError): void {
    if (this.state === 'closed') return;
    // Gave up (a time-out, an error): the server hears it, as from disconnect(). Not before the server can hold a
    // slot for it: before its 0.7 token, or a 0.6 connect it never answered (the client answers connect_accept at
    // once); 0.7's connect may have taken a slot whose accept was lost. The server's own close needs no answer.
    if ((cause === 'timeout' || cause === 'error') && this.state !== 'token' && !(this.protocol === '0.6' && this.state === 'connecting')) {
      try {
        this.transport.sendControl({ kind: 'close', reason: closeReasonOf(error?.code ?? cause) });
      } catch {
        // The transport failed (the socket's error that ends the connection): nothing more can be sent.
      }
    }
    this.state = 'closed';
    if (this.timer !== undefined) this.clock.clearInterval(this.timer);
    this.timer = undefined;
    this.closeReason = { cause, reason, ...(error ? { error } : {}) };
    this.rcon.closed(this.closeError(this.closeReason));
    this.emit('close', this.closeReason);
  }

  // --- sending ---

  private sendHandshake(): void {
    this.lastHandshake = this.clock.now();
    if (this.state === 'token') this.transport.sendControl({ kind: 'token', responseToken: this.ownToken, padding: TOKEN_REQUEST_PADDING });
    else if (this.protocol === '0.7') this.transport.sendControl({ kind: 'connect', responseToken: this.ownToken, padding: TOKEN_REQUEST_PADDING });
    else this.transport.sendControl({ kind: 'connect', tokenMagic: true }, Ddnet06Token.none);
  }

  /** The clock's tick: whatever goes wrong in it ends the connection with a typed error (the server told), never a throw from a timer. */
  private update(): void {
    try {
      this.tick();
    } catch (e) {
      this.fail(e);
    }
  }

  /** Ends the connection with `e` (an error where none was expected): a NetError as it is, anything else wrapped. */
  private fail(e: unknown): void {
    const error = e instanceof NetError ? e : new NetError('CLIENT_ERROR', `the client failed: ${(e as Error)?.message ?? String(e)}`, -1, 'connection', { cause: e });
    if (this.state !== 'closed') this.close('error', error.message, error);
  }

  private tick(): void {
    if (this.state === 'closed') return;
    const t = this.clock.now();
    if (this.state !== 'ingame' && t - this.started > this.options.connectTimeout)
      return this.close('timeout', `not in game after ${this.options.connectTimeout} ms (state ${this.state})`, new NetError('CONNECT_TIMEOUT', `not in game after ${this.options.connectTimeout} ms (state ${this.state})`, -1, 'connection'));
    // Before the server answered at all, the connect time-out is the one that counts.
    const answered = this.state !== 'token' && this.state !== 'connecting';
    if (answered && t - this.lastRecv > this.options.timeout) return this.close('timeout', `no packet from the server for ${this.options.timeout} ms`, new NetError('TIMEOUT', `no packet from the server for ${this.options.timeout} ms`, -1, 'connection'));
    if (this.state === 'token' || this.state === 'connecting') {
      if (t - this.lastHandshake >= HANDSHAKE_RESEND_MS) this.sendHandshake();
      return;
    }
    const oldest = this.transport.oldestUnacked;
    if (oldest && t - oldest.firstSent > this.options.timeout) return this.close('timeout', `a vital chunk unacknowledged for ${this.options.timeout} ms`, new NetError('TIMEOUT', `vital chunk ${oldest.sequence} unacknowledged for ${this.options.timeout} ms`, -1, 'connection'));
    if (oldest && t - oldest.lastSent > RESEND_MS) this.transport.resendAll();
    // DDNet 16.4 CClient::Update sends an input each time its predicted tick moves on: once a server tick. The
    // predicted tick here: the last snapshot's tick, the server ticks since it arrived (at most a second's, as
    // DDNet resets a prediction that runs far ahead), and 2 more, the margin DDNet's client keeps on 127.0.0.1.
    const sinceSnapshot = Math.min(SERVER_TICK_SPEED, Math.max(0, Math.floor(((t - this.snapshotAt) * SERVER_TICK_SPEED) / 1000)));
    const predictionTick = int32(this.snapshots.lastTick + 2 + sinceSnapshot);
    if (this.state === 'ingame' && predictionTick > 0 && (this.inputTick !== predictionTick || t - this.lastInput >= INPUT_MS)) {
      this.inputTick = predictionTick;
      this.lastInput = t;
      this.transport.sendChunks([{ message: { kind: 'input', ackGameTick: this.snapshots.lastTick, predictionTick, size: this.input.byteSize, data: this.input.words() } as AnyNetMessage }], false);
    } else if (this.transport.askResend) this.transport.sendChunks([], false);
    else if (t - this.transport.lastSend > KEEP_ALIVE_MS) this.transport.sendControl({ kind: 'keep_alive' });
  }

  // --- receiving ---

  /**
   * Takes one datagram from the server. Datagrams that do not decode or carry the wrong token are dropped (and
   * counted); never throws: what goes wrong beyond that ends the connection with a typed error.
   */
  receive(bytes: Uint8Array): void {
    try {
      this.receivePacket(bytes);
    } catch (e) {
      this.fail(e);
    }
  }

  private receivePacket(bytes: Uint8Array): void {
    if (this.state === 'closed') return;
    let p: DecodedPacket;
    try {
      p = decodePacket(bytes, { protocol: this.protocol, ...(this.protocol === '0.6' && this.state !== 'connecting' ? { securityToken: this.transport.peerToken !== undefined } : {}) });
    } catch (e) {
      if (!(e instanceof NetError)) throw e;
      return this.bad(e);
    }
    if (p.kind === 'connless') return;
    // A packet for another connection (a forged or stale one): DDNet and Teeworlds drop it.
    if (this.protocol === '0.7' && p.header.token !== this.ownToken) return;
    if (this.protocol === '0.6' && this.transport.peerToken !== undefined && p.securityToken !== this.transport.peerToken) return;
    this.lastRecv = this.clock.now();
    if (p.control) return this.onControl(p);
    // Chunks before the connection was accepted belong to no connection of this client.
    if (this.state === 'token' || this.state === 'connecting') return;
    this.transport.onAck(p.header.ack as number);
    // At most once a tick: a server setting the flag on every packet does not multiply what is sent.
    if (p.flags.includes('resend') && this.clock.now() - this.transport.lastResend >= TICK_MS) this.transport.resendAll();
    for (const chunk of p.chunks ?? []) {
      // Had it (a resend), or a gap: dropped (after a gap the transport asks for the chunks again).
      if (chunk.sequence !== undefined && !this.transport.takeVital(chunk.sequence)) continue;
      this.onMessage(chunk.message, chunk.sequence !== undefined);
      if ((this.state as ClientState) === 'closed') return;
    }
  }

  private bad(error: NetError): void {
    if (++this.badPackets > CLIENT_LIMITS.maxBadPackets) this.close('error', error.message, new NetError('BAD_PEER', `more than ${CLIENT_LIMITS.maxBadPackets} datagrams that do not decode, the last: ${error.message}`, -1, 'connection', { cause: error }));
  }

  private onControl(p: DecodedPacket): void {
    const c = p.control!;
    if (c.kind === 'close') return this.close('server', typeof c.reason === 'string' ? c.reason : '');
    if (this.state === 'token' && c.kind === 'token') {
      this.transport.peerToken = c.responseToken as number;
      this.state = 'connecting';
      return this.sendHandshake();
    }
    if (this.state !== 'connecting') return;
    if (this.protocol === '0.6' && c.kind === 'connect_accept') {
      // DDNet: a connect_accept with TKEN carries the token every later packet ends with; a vanilla one has none.
      if (c.tokenMagic === true && p.securityToken !== undefined) this.transport.peerToken = p.securityToken;
      this.transport.sendControl({ kind: 'accept' });
    } else if (!(this.protocol === '0.7' && c.kind === 'accept')) return;
    this.state = 'loading';
    if (this.protocol === '0.7') return this.sendMessage({ kind: 'info', version: NET_VERSIONS['0.7'], password: this.options.password, clientVersion: CLIENT_VERSION_07 });
    const info = { kind: 'info', version: NET_VERSIONS['0.6'], password: this.options.password };
    const ddnetVersion = this.options.ddnetVersion;
    if (ddnetVersion <= 0) return this.sendMessage(info);
    // In one packet with the info, as DDNet 16.4's client sends them (connless.pcap).
    const version = { kind: 'client_ver', connectionId: randomUuid(), ddnetVersion, ddnetVersionStr: `twcodec (DDNet ${Math.floor(ddnetVersion / 1000)}.${Math.floor((ddnetVersion % 1000) / 10)} protocol)` };
    this.transport.sendVital(version, info);
  }

  private onMessage(message: AnyNetMessage | UnknownNetMessage, vital: boolean): void {
    const system = message.kind === 'unknown' ? (message as UnknownNetMessage).system : (netMessageDef(this.table, message.kind)?.system ?? false);
    const m = message as AnyNetMessage;
    if (system && isSnapMessage(m.kind)) return this.onSnap(m as SnapMessage);
    if (system && m.kind.startsWith('rcon_')) this.rcon.message(m);
    if (system && m.kind === 'map_change' && vital && (this.state === 'entering' || this.state === 'ingame')) {
      // The server changed map (rcon change_map, a vote, the map rotation): as DDNet 16.4's client
      // (src/engine/client/client.cpp, NETMSG_MAP_CHANGE: load or download the map, then SendReady) the
      // client loads again, and the server starts it over (con_ready, start info, enter, a full snapshot).
      this.state = 'loading';
      // Back in game within the connect time-out, counted from the change.
      this.started = this.clock.now();
      this.changingMap = true;
      this.reloading = true;
      this.snapshots = new SnapshotReceiver(this.protocol);
      this.inputTick = -1;
    }
    if (system && m.kind === 'map_change' && this.state === 'loading') {
      // 0.7's map_change carries the SHA-256; DDNet sends it in map_details just before, which counts for the
      // map_change of the same name, CRC and size (as in mapdownload.ts).
      const d = this.mapDetails;
      const same = d && d.name === m.mapName && d.crc >>> 0 === (m.mapCrc as number) >>> 0 && d.size === m.mapSize;
      const sha256 = m.mapSha256 instanceof Uint8Array ? hex(m.mapSha256) : same ? d.sha256 : undefined;
      this.map = { name: m.mapName as string, crc: m.mapCrc as number, size: m.mapSize as number, ...(sha256 ? { sha256 } : {}) };
      // A new map: the server's con_ready counts only after the ready that answers this map_change.
      this.saidReady = false;
      if (this.mapRequest && vital) {
        const refused = this.mapRequest.start(m);
        if (refused) this.close('error', refused.message, refused);
      } else this.sayReady();
    } else if (system && m.kind === 'map_details') {
      this.mapDetails = { name: m.mapName as string, crc: m.mapCrc as number, size: m.mapSize as number, ...(m.mapSha256 instanceof Uint8Array ? { sha256: hex(m.mapSha256) } : {}) };
      this.mapRequest?.details(m, vital);
    } else if (system && m.kind === 'map_data' && this.mapRequest?.active) {
      const done = this.mapRequest.data(m, vital);
      if (done && 'error' in done) this.close('error', done.error.message, done.error);
      else if (done) {
        this.map = { ...this.map!, data: done.data };
        this.sayReady();
      }
    } else if (system && m.kind === 'con_ready' && this.state === 'loading' && this.saidReady) {
      // The server answers the client's ready with con_ready; one before it (before the map, or while it
      // downloads) would let the client in without the map: it waits for its ready's answer.
      this.state = 'entering';
      this.reloading = false;
      this.sendMessage(this.startInfo());
      if (this.protocol === '0.6') this.sendMessage({ kind: 'enter_game' });
    } else if (!system && m.kind === 'sv_ready_to_enter' && this.protocol === '0.7' && this.state === 'entering') {
      this.sendMessage({ kind: 'enter_game' });
    }
    if (m.kind !== 'unknown') this.game.message(m, system);
    if ((this.state as ClientState) === 'closed') return;
    this.emit('message', { message, system, data: encodeNetMessage(this.table, message) });
  }

  private sayReady(): void {
    if (this.changingMap) {
      this.changingMap = false;
      this.game.mapChange(this.map!);
      this.emit('mapchange', this.map!);
      if ((this.state as ClientState) === 'closed') return;
    }
    this.saidReady = true;
    this.sendMessage({ kind: 'ready' });
  }

  private startInfo(): { kind: string; [field: string]: unknown } {
    const { name, clan, country } = this.options;
    if (this.protocol === '0.6') return { kind: 'cl_start_info', name, clan, country, skin: 'default', useCustomColor: false, colorBody: 65408, colorFeet: 65408 };
    // The 0.7.5 client's default skin ("standard" body, marking, decoration, hands, feet, eyes), as captured.
    return { kind: 'cl_start_info', name, clan, country, skinPartNames: ['standard', '', '', 'standard', 'standard', 'standard'], useCustomColors: [0, 0, 0, 0, 0, 0], skinPartColors: [0, 0, 0, 0, 0, 0] };
  }

  private onSnap(m: SnapMessage): void {
    if (this.reloading) return;
    const rebuilt = this.snapshots.feed(m);
    if (!rebuilt) return;
    if (!rebuilt.snapshot || !rebuilt.crcOk) {
      if (++this.badSnapshots > CLIENT_LIMITS.maxBadSnapshots) this.close('error', 'snapshots do not rebuild', new NetError('BAD_SNAPSHOTS', `more than ${CLIENT_LIMITS.maxBadSnapshots} snapshots that do not rebuild, the last: ${rebuilt.error ?? `tick ${rebuilt.tick}: CRC mismatch`}`, -1, 'snapshot'));
      return;
    }
    this.badSnapshots = 0;
    this.snapshotAt = this.clock.now();
    if (this.state === 'entering') {
      this.state = 'ingame';
      this.emit('ingame', undefined);
      // A listener may have disconnected.
      if ((this.state as ClientState) === 'closed') return;
    }
    this.game.snapshot(rebuilt.tick, rebuilt.snapshot);
    if ((this.state as ClientState) === 'closed') return;
    this.emit('snapshot', { tick: rebuilt.tick, snapshot: rebuilt.snapshot });
  }
}
