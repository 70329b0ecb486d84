// The codes of NetError, with what each means: `err.code` is typed from this table, and docs/library.md lists
// it (test/docs/error-codes.test.ts checks). A message or snapshot inside a packet that does not decode is a
// NetError with the code of the net message, snapshot or runtime error it stands for.
import type { NetMessageErrorCode } from '@twcodec/netmsg';
import type { SnapshotErrorCode } from '@twcodec/snapshot';

/** Each error code of the packet layer, captures and the client (besides the codes it hands on) and what it means. */
export const NET_ERROR_CODES = {
  // Packets and chunks.
  UNKNOWN_PROTOCOL: 'a protocol name other than 0.6 or 0.7',
  PACKET_TOO_BIG: 'a packet larger than the protocol allows',
  BAD_CONNLESS_HEADER: 'a connectionless packet without a known header',
  BAD_MAGIC: 'a fixed header field (such as a token magic) with another value',
  BAD_PADDING: 'padding that holds a non-zero byte',
  UNKNOWN_CONTROL: 'a control message the schema does not have',
  MISSING_FIELD: 'a field left out when encoding',
  TRAILING_BYTES: 'bytes after the last chunk of a packet',
  // Capture files (pcap, pcapng) and the datagrams in them.
  UNSUPPORTED_LINK_TYPE: 'a capture of a link type that is not read',
  BAD_BLOCK: 'a pcapng block of a bad length',
  BAD_RECORD: 'a capture record larger than it may be',
  BAD_TIMESTAMP: 'a record timestamp past the year 9999',
  BAD_IP: 'an IPv4 header that does not fit',
  IP_FRAGMENT: 'an IPv4 fragment (not reassembled)',
  BAD_UDP: 'a UDP length that does not fit the IP packet',
  SNAP_PART_RANGE: 'a snapshot part number outside its count',
  SNAP_PART_TOO_BIG: 'a snapshot part larger than a part holds',
  DELTA_TOO_BIG: 'a snapshot delta larger than allowed',
  // Map downloads.
  MAP_TOO_BIG: 'a map larger than the download limit',
  MAP_DATA_OVERFLOW: 'map chunks past the announced size',
  MAP_SIZE_MISMATCH: 'a map download that ends before the announced size',
  MAP_CRC_MISMATCH: 'downloaded map data whose CRC is not the announced one',
  MAP_SHA256_MISMATCH: 'downloaded map data whose SHA-256 is not the announced one',
  // captureDemo: a client's demo from a capture.
  PLAYER_NOT_FOUND: 'no client in the capture with that player name',
  NO_MAP_CHANGE: 'the server never told the client which map to load',
  MAP_MISSING: 'no download of the map in the capture, and none given',
  MAP_MISMATCH: 'the map given is not the one the server announced',
  NO_SNAPSHOTS: 'no snapshot the client received with its CRC right',
  DEMO_TOO_BIG: 'a demo that grows past its limit',
  // The live client (NetClient, recordDemo, server info).
  BAD_PROTOCOL: 'a client protocol other than 0.6 or 0.7',
  BAD_OPTION: 'an option out of range',
  BAD_ADDRESS: 'a host name that does not resolve',
  SOCKET: 'the socket closed or failed',
  PORT_CLOSED: 'the host answered that nothing listens on the UDP port',
  NOT_CONNECTED: 'sending before the server accepted the connection',
  CONNECT_TIMEOUT: 'not in game within the connect timeout',
  TIMEOUT: 'the server fell silent, or did not answer in time',
  CLOSED: 'the connection is closed',
  CLOSED_BY_SERVER: 'the server closed the connection (its reason in the message)',
  BAD_PEER: 'too many datagrams from the server that do not decode',
  BAD_SNAPSHOTS: 'too many snapshots from the server that do not rebuild',
  RESEND_BUFFER_FULL: 'too many vital chunks the server did not acknowledge',
  CHUNK_TOO_BIG: 'a message too large for one chunk',
  NO_MAP: 'the server named no map before the game started',
  ABORTED: 'the recording was stopped before its first snapshot',
  CLIENT_ERROR: 'the client failed (the error is the cause)',
  // The remote console (client.rcon).
  RCON_AUTH_FAILED: 'the server refused the rcon login (a wrong password)',
  RCON_BUSY: 'an rcon login while another is under way',
  NOT_AUTHED: 'an rcon command before the login succeeded',
} as const satisfies Record<string, string>;

export type NetErrorCode = keyof typeof NET_ERROR_CODES | NetMessageErrorCode | SnapshotErrorCode;
