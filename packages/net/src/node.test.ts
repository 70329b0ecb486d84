// The socket side of @twcodec/net/node's client, against a UDP socket on 127.0.0.1 that plays the server.
import { createSocket } from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { decodePacket } from './index.js';
import { connect } from './node.js';

describe('connect (node:dgram)', () => {
  it('disconnect() reaches the server: the socket closes only after the close packet went out', async () => {
    const server = createSocket('udp4');
    await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
    const received: string[] = [];
    let closed: () => void;
    const closeArrived = new Promise<void>((resolve) => (closed = resolve));
    server.on('message', (bytes) => {
      const packet = decodePacket(new Uint8Array(bytes), { protocol: '0.6' });
      received.push(packet.control?.kind ?? packet.kind);
      if (packet.control?.kind === 'close') closed();
    });
    try {
      const client = await connect({ host: '127.0.0.1', port: server.address().port, protocol: '0.6', name: 'bot', connectTimeout: 2000 });
      // Right after the connect packet, as `net say` does once it is done: before the fix the socket closed in the
      // same tick and node:dgram dropped the close packet, so the server kept the player until its timeout.
      client.disconnect('bye');
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 1000).unref());
      expect(await Promise.race([closeArrived, timeout])).not.toBe('timeout');
      expect(received).toEqual(['connect', 'close']);
    } finally {
      server.close();
    }
  });
});
