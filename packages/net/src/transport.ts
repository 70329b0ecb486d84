// The packet side of a client's connection, apart from what the client does with the game (client.ts): packet
// headers with the ack and the peer's token, vital chunks numbered and kept until the server acknowledges them
// (sent again after a second, or at once when the server asks with the resend flag), the server's vital chunks
// taken in order by sequence, and chunks packed into as few packets as fit. It exists so that the client's
// handshake and game logic read as steps, without sequence arithmetic in between. Facts: Teeworlds/DDNet
// network_conn.cpp as libtw2's protocol notes describe them (resend after one second), schemas/net (headers,
// flags, the sequence field's range), and the corpus captures.
import { type AnyNetMessage, encodeNetMessage, type NetProtocolDef } from '@twcodec/netmsg';
import type { NetClock } from './client-api.js';
import { type DecodedPacket, encodePacket, MAX_PACKET_SIZE, type NetProtocolName, PACKET_PROTOCOLS } from './packet.js';
import { Teeworlds07Token } from './generated/teeworlds-0.7.gen.js';
import { inBackroom } from './tracker.js';

/** A vital chunk sent and not yet acknowledged. */
export interface Unacked {
  sequence: number;
  message: { kind: string };
  firstSent: number;
  lastSent: number;
}

/** One chunk to send: a vital one has its sequence. */
export interface OutgoingChunk {
  message: { kind: string };
  sequence?: number;
}

export class ClientTransport {
  /** 0.6: DDNet's security token (undefined before connect_accept or with a server without them). 0.7: the server's token. */
  peerToken: number | undefined;
  /** When a packet last went out (keep-alives count from it), and when vital chunks were last sent again. */
  lastSend = 0;
  lastResend = 0;
  /** A gap in the server's vital chunks: the next packet carries the resend flag. */
  askResend = false;
  private sequence = 0;
  private ack = 0;
  private readonly unacked: Unacked[] = [];
  /** Vital sequence numbers wrap at this (schemas/net: the sequence field's range). */
  private readonly sequenceModulo: number;

  constructor(
    private readonly protocol: NetProtocolName,
    private readonly table: NetProtocolDef,
    private readonly clock: NetClock,
    private readonly transmit: (bytes: Uint8Array) => void,
  ) {
    this.sequenceModulo = PACKET_PROTOCOLS[protocol].sequenceModulo;
  }

  /** How many vital chunks the server has not acknowledged yet. */
  get unackedCount(): number {
    return this.unacked.length;
  }

  /** The oldest vital chunk not acknowledged, if any. */
  get oldestUnacked(): Unacked | undefined {
    return this.unacked[0];
  }

  /** The sequence of the last vital chunk sent. */
  get lastSequence(): number {
    return this.sequence;
  }

  /** Whether the vital chunk of `sequence` is no longer waiting for its acknowledgement. */
  acknowledged(sequence: number): boolean {
    return !this.unacked.some((u) => u.sequence === sequence);
  }

  /** Numbers vital messages, keeps them until acknowledged, and sends them (in one packet when they fit). */
  sendVital(...messages: { kind: string }[]): void {
    const t = this.clock.now();
    const chunks = messages.map((message) => {
      this.sequence = (this.sequence + 1) % this.sequenceModulo;
      const u: Unacked = { sequence: this.sequence, message, firstSent: t, lastSent: t };
      this.unacked.push(u);
      return { message, sequence: u.sequence };
    });
    this.sendChunks(chunks, false);
  }

  /** The server acknowledged every vital chunk up to `ack`: they need no resending. */
  onAck(ack: number): void {
    while (this.unacked.length && inBackroom(this.unacked[0]!.sequence, ack, this.sequenceModulo)) this.unacked.shift();
  }

  /**
   * Whether a vital chunk of the server's with `sequence` is the next one, to be taken (it is then acknowledged).
   * One had already (a resend) is dropped; after a gap it is dropped too, and the server asked again for the chunks after the last taken.
   */
  takeVital(sequence: number): boolean {
    if (sequence === (this.ack + 1) % this.sequenceModulo) {
      this.ack = sequence;
      return true;
    }
    if (!inBackroom(sequence, this.ack, this.sequenceModulo)) this.askResend = true;
    return false;
  }

  private header(flags: string[], numChunks: number): Pick<DecodedPacket, 'header' | 'flags'> {
    const bits = PACKET_PROTOCOLS[this.protocol].packetFlags;
    const header: Record<string, number> = { flags: flags.reduce((n, f) => n | (bits[f] ?? 0), 0), ack: this.ack, num_chunks: numChunks };
    if (this.protocol === '0.7') header.token = this.peerToken ?? Teeworlds07Token.none;
    return { header, flags };
  }

  private transmitPacket(packet: DecodedPacket): void {
    this.lastSend = this.clock.now();
    this.transmit(encodePacket(packet));
  }

  /** Sends a control packet (0.6: ending with `token` when there is one). */
  sendControl(control: { kind: string; [field: string]: unknown }, token = this.peerToken): void {
    const packet: DecodedPacket = { protocol: this.protocol, kind: 'control', ...this.header(['control'], 0), control: { id: 0, ...control } };
    if (this.protocol === '0.6' && token !== undefined) packet.securityToken = token;
    this.transmitPacket(packet);
  }

  /** Sends chunks (vital ones with their sequence), as few packets as fit MAX_PACKET_SIZE. */
  sendChunks(chunks: readonly OutgoingChunk[], resend: boolean): void {
    const room = MAX_PACKET_SIZE - 64;
    let batch: OutgoingChunk[] = [];
    let size = 0;
    const flush = () => {
      const flags = this.askResend ? ['resend'] : [];
      this.askResend = false;
      const packet: DecodedPacket = {
        protocol: this.protocol,
        kind: 'connection',
        ...this.header(flags, batch.length),
        chunks: batch.map((c) => ({
          flags: c.sequence === undefined ? [] : resend ? ['vital', 'resend'] : ['vital'],
          size: 0,
          ...(c.sequence !== undefined ? { sequence: c.sequence } : {}),
          message: c.message as AnyNetMessage,
        })),
      };
      if (this.protocol === '0.6' && this.peerToken !== undefined) packet.securityToken = this.peerToken;
      this.transmitPacket(packet);
      batch = [];
      size = 0;
    };
    for (const c of chunks) {
      const bytes = encodeNetMessage(this.table, c.message).length + 3;
      if (batch.length && (size + bytes > room || batch.length >= 255)) flush();
      batch.push(c);
      size += bytes;
    }
    flush();
  }

  /** Sends every unacknowledged vital chunk again. */
  resendAll(): void {
    if (!this.unacked.length) return;
    const t = this.clock.now();
    this.lastResend = t;
    for (const u of this.unacked) u.lastSent = t;
    this.sendChunks(this.unacked, true);
  }
}
