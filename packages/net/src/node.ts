// @twcodec/net/node: the live client and the server-info query on a node:dgram UDP socket. The protocol
// work is in client.ts and info.ts (no Node APIs); this file only owns the socket and the clock.
import { createSocket, type Socket } from 'node:dgram';
import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import type { ClientClose, ClientOptions } from './client-api.js';
import { NetClient } from './client.js';
import { NetError } from './errors.js';
import { type ServerInfo, ServerInfoQuery } from './info.js';
import type { NetProtocolName } from './packet.js';

export * from './index.js';

export interface ConnectOptions extends ClientOptions {
  host: string;
  port: number;
}

/**
 * A UDP socket connected to host:port. Connected, because only then does the kernel hand the socket the ICMP
 * "port unreachable" a host sends back for a closed port (Node emits it as an ECONNREFUSED error, checked on
 * Node 20.20 / Linux against 127.0.0.1): a closed port fails at once with PORT_CLOSED instead of waiting for
 * the timeout and then suggesting another protocol (issue 39). Datagrams from any other address never reach
 * a connected socket.
 */
async function openSocket(host: string, port: number): Promise<{ socket: Socket; address: string }> {
  let address = host;
  if (!isIP(host)) {
    try {
      address = (await lookup(host)).address;
    } catch (e) {
      throw new NetError('BAD_ADDRESS', `cannot resolve ${host}: ${(e as Error).message}`, -1, 'host', { cause: e });
    }
  }
  const socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, () => socket.connect(port, address, () => (socket.off('error', reject), resolve())));
  });
  return { socket, address };
}

/** The error a socket's failure ends the work with: PORT_CLOSED for the ICMP answer of a closed port. */
function socketError(e: Error & { code?: string }, host: string, port: number): NetError {
  if (e.code === 'ECONNREFUSED') return new NetError('PORT_CLOSED', `nothing listens on ${host}:${port} (the host answered that the UDP port is closed)`, -1, 'socket', { cause: e });
  return new NetError('SOCKET', e.message, -1, 'socket', { cause: e });
}

function checkPort(port: number): void {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new NetError('BAD_ADDRESS', `port ${port}: 1 to 65535`, -1, 'port');
}

/**
 * Connects to a server: resolves with the client once the handshake started (listen for `ingame`, or await
 * `client.ready()`); the socket closes when the connection does.
 */
export async function connect(options: ConnectOptions): Promise<NetClient> {
  checkPort(options.port);
  const { socket } = await openSocket(options.host, options.port);
  // node:dgram sends in a later tick (for an unconnected socket after a look-up of the address, even of an IP):
  // a socket closed right after send() drops the datagram (checked on Node 20.20). disconnect() sends the close packet and then closes, so the
  // socket closes only when every send is done; else the server never heard the client leave and kept its slot
  // until its own timeout (DDNet 16.4 still listed `net say`'s player a minute later and refused a fifth
  // connection from the address: "Only 4 players with the same IP are allowed"; conn_timeout 100 and
  // sv_max_clients_per_ip 4 in DDNet 16.4's src/engine/shared/config_variables.h).
  let sending = 0;
  let closing: 'no' | 'when-sent' | 'closed' = 'no';
  const closeSocket = () => {
    if (closing !== 'when-sent' || sending > 0) return;
    closing = 'closed';
    socket.close();
  };
  const client = new NetClient(options, (bytes) => {
    sending++;
    socket.send(bytes, () => {
      sending--;
      closeSocket();
    });
  });
  socket.on('message', (bytes) => client.receive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)));
  socket.on('error', (e) => client.abort(socketError(e, options.host, options.port)));
  client.on('close', () => {
    closing = 'when-sent';
    closeSocket();
  });
  client.start();
  return client;
}

/** How stayConnected connects again after the connection ended: waits doubling from `initialDelay` up to `maxDelay`. */
export interface ReconnectOptions {
  /** Milliseconds before the first new try (default 1000). */
  initialDelay?: number;
  /** The longest wait between tries (default 30000). */
  maxDelay?: number;
  /** Tries in a row that fail before giving up (default: never gives up). */
  maxAttempts?: number;
}

export interface StayConnectedOptions extends ConnectOptions {
  reconnect?: ReconnectOptions;
  /** Stops: the client disconnects and stayConnected resolves. */
  signal?: AbortSignal;
  /** Each new client, before its handshake goes on (subscribe to its events here). */
  onClient(client: NetClient): void;
  /** The connection ended and the next try, the `attempt`-th since the client was last in the game, comes after `delay` ms. */
  onRetry?(close: ClientClose, delay: number, attempt: number): void;
}

/**
 * Keeps a client in the game until `signal` aborts: connects, and after the connection ended (a time-out, the
 * server closing it, an error) connects again with backoff (ReconnectOptions). Map changes need no new
 * connection: the client follows them. Rejects with the last error when the very first connection fails before
 * the game (a wrong address, a closed port, a refusal) or when `maxAttempts` tries in a row failed.
 */
export async function stayConnected(options: StayConnectedOptions): Promise<void> {
  const { reconnect = {}, signal, onClient, onRetry, ...connectOptions } = options;
  const initialDelay = reconnect.initialDelay ?? 1000;
  const maxDelay = reconnect.maxDelay ?? 30000;
  const maxAttempts = reconnect.maxAttempts ?? Infinity;
  // Tries that failed since the client was last in the game: the first new try after leaving the game waits
  // initialDelay, each one after a failed try twice the wait before (1, 2, 4, ... s by default).
  let failures = 0;
  const retryDelay = (failed: number) => Math.min(maxDelay, initialDelay * 2 ** failed);
  let everIngame = false;
  while (!signal?.aborted) {
    let client: NetClient;
    let close: ClientClose;
    try {
      client = await connect(connectOptions);
    } catch (e) {
      if (!everIngame) throw e;
      close = { cause: 'error', reason: (e as Error).message, ...(e instanceof NetError ? { error: e } : {}) };
      failures++;
      if (failures >= maxAttempts) throw e;
      const delay = retryDelay(failures);
      onRetry?.(close, delay, failures + 1);
      await abortableSleep(delay, signal);
      continue;
    }
    onClient(client);
    let ingame = false;
    client.on('ingame', () => ((ingame = everIngame = true), (failures = 0)));
    const stop = () => client.disconnect('');
    signal?.addEventListener('abort', stop, { once: true });
    close = await new Promise<ClientClose>((resolve) => (client.closeReason ? resolve(client.closeReason) : client.on('close', resolve)));
    signal?.removeEventListener('abort', stop);
    if (signal?.aborted) return;
    if (!everIngame) throw client.closeReason?.error ?? new NetError(close.cause === 'server' ? 'CLOSED_BY_SERVER' : 'CLOSED', close.reason || close.cause, -1, 'connection');
    if (!ingame) failures++;
    if (failures >= maxAttempts) throw close.error ?? new NetError('CLOSED', close.reason || close.cause, -1, 'connection');
    const delay = retryDelay(failures);
    onRetry?.(close, delay, failures + 1);
    await abortableSleep(delay, signal);
  }
}

const abortableSleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export interface ServerInfoOptions {
  /** Milliseconds to wait for the whole answer (default 3000); the request is sent again each second. */
  timeout?: number;
}

/**
 * Asks the server at host:port for its info (0.6/DDNet: DDNet's extended info or vanilla inf3; 0.7: after its
 * token). Rejects with a NetError `TIMEOUT` when no answer comes in time, `PORT_CLOSED` when the host says
 * nothing listens on the port.
 */
export async function serverInfo(host: string, port: number, protocol: NetProtocolName = '0.6', options: ServerInfoOptions = {}): Promise<ServerInfo> {
  checkPort(port);
  const query = new ServerInfoQuery(protocol);
  const timeout = options.timeout ?? 3000;
  const { socket } = await openSocket(host, port);
  const send = (datagrams: Uint8Array[]) => datagrams.forEach((d) => socket.send(d));
  try {
    return await new Promise<ServerInfo>((resolve, reject) => {
      const finish = () => {
        clearInterval(again);
        clearTimeout(limit);
        const info = query.result();
        if (info) resolve(info);
        else reject(new NetError('TIMEOUT', `no server info from ${host}:${port} (${protocol}) within ${timeout} ms`, -1, 'info'));
      };
      const again = setInterval(() => send(query.requests()), 1000);
      const limit = setTimeout(finish, timeout);
      socket.on('message', (bytes) => {
        send(query.receive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)));
        if (query.done) finish();
      });
      socket.on('error', (e) => (clearInterval(again), clearTimeout(limit), reject(socketError(e, host, port))));
      send(query.requests());
    });
  } finally {
    socket.close();
  }
}
