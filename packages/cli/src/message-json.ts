// JSON of net messages for the NDJSON commands (teehistorian dump, demo messages, net pcap): a module without
// imports, so that net.ts's command table does not load @twcodec/teehistorian for it.
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** JSON for one message: byte arrays as hex. */
export function messageJson(m: object): string {
  return JSON.stringify(m, (_key, value) => (value instanceof Uint8Array ? hex(value) : value));
}
