// DDNet's legacy 64-client server info (fstd / dtsf, schemas/net/ddnet-0.6.yaml) against a real DDNet-Server 16.4
// on 127.0.0.1: the reply decodes with the schema's fields, uses them all, and encodes back to its bytes.
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePacket, encodePacket } from '../../packages/net/src/packet.js';
import { hasServer, type LiveServer, SERVER_BINARIES, startServer } from '../live-servers.js';

describe.skipIf(!hasServer('0.6'))(`legacy 64-client info from ${SERVER_BINARIES['0.6']} (skipped when not installed)`, () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await startServer('0.6');
  });
  afterAll(() => server?.stop());

  it('answers get_info_64_legacy with info_64_legacy: the 0.6 fields, offset 0, no clients', async () => {
    const socket = createSocket('udp4');
    try {
      const request = encodePacket({ protocol: '0.6', kind: 'connless', header: { form: 'legacy' }, flags: ['connless'], connless: { kind: 'get_info_64_legacy', token: 42 } });
      expect(new TextDecoder().decode(request.subarray(10, 14))).toBe('fstd');
      const reply = await new Promise<Uint8Array>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no reply within 5 s')), 5000);
        socket.on('message', (msg) => {
          clearTimeout(timer);
          resolve(new Uint8Array(msg));
        });
        socket.send(request, server.port, '127.0.0.1');
      });
      const packet = decodePacket(reply);
      expect(packet.connless).toMatchObject({ kind: 'info_64_legacy', token: '42', name: server.name, map: server.map, offset: 0, clients: [] });
      expect(encodePacket(packet)).toEqual(reply);
    } finally {
      socket.close();
    }
  });
});
