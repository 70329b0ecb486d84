// `twcodec net ...`: network captures and live servers (net.ts does the work, loaded when a net command runs:
// @twcodec/net, and net/node's sockets and DNS, load then).
import { command, type CommandTable, type OptionTable } from '../command.js';

/** The protocols the net commands speak: those @twcodec/net has packet tables for (loaded when checked, with net.ts, which the command loads anyway). */
const PROTOCOLS = async () => (await import('../net.js')).PROTOCOL_NAMES;

/** --protocol of the commands that read a capture: without it, each flow's protocol is told from its packets. */
const CAPTURE_PROTOCOL = (help: string) => ({ protocol: { type: 'string', value: '0.6|0.7', choices: PROTOCOLS, help } }) as const satisfies OptionTable;

/** --protocol of the commands that talk to a live server. */
const LIVE_PROTOCOL = {
  protocol: { type: 'string', value: '0.6|0.7', choices: PROTOCOLS, default: '0.6', help: "the server's protocol: 0.6 (Teeworlds 0.6 and DDNet, the default) or 0.7 (Teeworlds 0.7, and DDNet servers, which take 0.7 clients too)" },
} as const satisfies OptionTable;

/** The options of the commands that join a live server as a player. */
const PLAYER_OPTIONS = {
  ...LIVE_PROTOCOL,
  name: { type: 'string', value: 'NAME', default: 'twcodec', help: 'the player name' },
  timeout: { type: 'string', value: 'SECONDS', default: '10', help: 'give up when not in game after this long, or when the server is silent this long' },
} as const satisfies OptionTable;

export const NET_COMMANDS: CommandTable = {
  'net pcap': command({
    args: ['FILE'],
    options: CAPTURE_PROTOCOL('the protocol of flows the capture holds no handshake of (default: told from their packets, else 0.6)'),
    summary: 'NDJSON: one line per UDP datagram of a pcap/pcapng capture: time, source, destination, protocol, header, chunks with their messages',
    details:
      'Messages carry the names and fields of `demo messages` (https://github.com/twcodec/twcodec/blob/main/docs/formats/net-messages.md); control and connectionless packets (server info) are named as in https://github.com/twcodec/twcodec/blob/main/docs/formats/network.md. A datagram that does not decode gets its line with "error" and the rest go on. Each flow takes its protocol from its handshake (0.7 token/connect, 0.6 connect). Vital chunks the receiver already had carry "delivery": "duplicate" (out of order: "out_of_order"); each snapshot a datagram completes (snap parts of a tick, the delta applied to the snapshot of the delta tick) is listed under "snapshots" with its tick, item count and "crcOk"; snapshot parts a real client would drop (a part number outside its count, a part too big) are listed under "errors"; a map download over UDP (DDNet\'s map_details/map_change/map_data, 0.7\'s map_change/map_data) that a datagram completes is listed under "maps" with its name, size, CRC, SHA-256, "crcOk" and "sha256Ok" (a map-change announcing more than 64 MiB, or chunks beyond the announced size, give "error" there). FILE may be - to read standard input, which is read as it comes: `tcpdump -U -w - | twcodec net pcap -` prints each datagram as it is captured.',
    async run(io, [file], options) {
      const { netPcap } = await import('../net.js');
      await netPcap(io, file!, options.protocol);
    },
  }),
  'net info': command({
    args: ['HOST:PORT'],
    options: { ...LIVE_PROTOCOL, timeout: { type: 'string', value: 'SECONDS', default: '3', help: 'how long to wait for the answer' } },
    summary: "JSON: a live server's info (name, map, game type, version, players and their clients)",
    details:
      'Asks as a server browser does: 0.6/DDNet sends DDNet\'s info request and reads DDNet\'s extended info (all clients, over several packets, with the map\'s CRC and size) or a vanilla server\'s inf3; 0.7 gets the server\'s token first, then its info. Fields: protocol, form (info, info_extended, info_07), version, name, map, gameType, flags, numPlayers, maxPlayers, numClients, maxClients, mapCrc and mapSize (DDNet), hostname and skillLevel (0.7), clients [{name, clan, country, score, isPlayer}]. No answer in time: error TIMEOUT; a host that answers that nothing listens on the port (a closed port on this machine or the LAN): PORT_CLOSED at once. The port defaults to 8303.',
    async run(io, [address], options, given) {
      const { netInfo } = await import('../net.js');
      await netInfo(io, address!, options, given);
    },
  }),
  'net say': command({
    args: ['HOST:PORT', 'TEXT'],
    options: { ...PLAYER_OPTIONS, team: { type: 'boolean', help: 'team chat' } },
    summary: 'Joins a live server as a player, says TEXT in the chat, and leaves',
    details:
      'Connects (0.6/DDNet: the TKEN handshake with DDNet\'s security token; 0.7: tokens), enters the game without downloading the map, sends the chat line, waits until the server acknowledged it, and disconnects. Errors: CONNECT_TIMEOUT (not in game in time), TIMEOUT, CLOSED_BY_SERVER (the server\'s reason, e.g. a ban or a full server).',
    async run(io, [address, text], options, given) {
      const { netSay } = await import('../net.js');
      await netSay(io, address!, text!, options, given);
    },
  }),
  'net rcon': command({
    args: ['HOST:PORT', 'COMMAND...'],
    options: {
      ...PLAYER_OPTIONS,
      password: { type: 'string', value: 'PW', required: true, help: "the server's rcon password (sv_rcon_password)" },
      quiet: { type: 'string', value: 'SECONDS', default: '0.3', help: 'a command\'s answer ends when the server sent no line for this long (after the last line, or after it acknowledged the command)' },
    },
    summary: "Joins a live server, logs in to its remote console and prints the lines it answers to COMMAND",
    details:
      "COMMAND... is one console command (its words joined by spaces; several separated by ';' as in the console), e.g. `status` or `change_map ctf1`. The client joins as a player (NAME), logs in with PW, sends the command and prints each rcon line the server sends until it has been quiet for --quiet seconds since the last line, or since it acknowledged the command when it prints nothing (servers mark no end of an answer; DDNet's lines carry its log prefix: time, level, system), then leaves. A wrong password: exit 1 with RCON_AUTH_FAILED and the server's line (DDNet counts the tries and bans after sv_rcon_max_tries). Other errors as for net say.",
    async run(io, [address, ...words], options, given) {
      const { netRcon } = await import('../net.js');
      await netRcon(io, address!, words.join(' '), options, given);
    },
  }),
  'net watch': command({
    args: ['HOST:PORT'],
    options: PLAYER_OPTIONS,
    summary: 'NDJSON: joins a live server as a player and prints its events (chat, join, leave, kill, broadcast, vote, map change) until Ctrl-C',
    details:
      'One JSON line per event, each with "time" (ISO 8601) and "type": chat {clientId, name, team: all|team|whisper, text} (name: the author, when known; clientId -1 is the server), join and leave {clientId, name}, kill {killer, killerName, victim, victimName, weapon, weaponName}, broadcast {text}, vote {phase: start|end, description, reason, seconds}, mapchange {map, crc, size, sha256}; and of the connection: connected {map}, disconnected {cause, reason, retryIn (ms)}. Players already on the server are joins when the client enters. Map changes are followed; after a time-out or the server closing the connection it connects again, waiting 1 s, then 2, 4, ... up to 30 s between tries, and goes on until Ctrl-C (SIGINT) or SIGTERM, which end it with exit 0. The first connection failing (a wrong address, a closed port: PORT_CLOSED, a full server) ends it with exit 1.',
    async run(io, [address], options, given) {
      const { netWatch } = await import('../net.js');
      await netWatch(io, address!, options, given);
    },
  }),
  'net record': command({
    args: ['HOST:PORT', 'OUT'],
    options: { ...PLAYER_OPTIONS, seconds: { type: 'string', value: 'N', default: '10', help: 'how long to record' } },
    summary: 'Joins a live server as a player and records what it receives as a demo',
    details:
      'A client demo as a game client records it: a snapshot at every tick the server sent one (rebuilt from the deltas, CRC checked; DDNet and 0.7.5 servers send one every second tick) and the game messages, for N seconds after entering the game. The map is downloaded over UDP first, as a client without it does, checked against the CRC and SHA-256 the server announced (MAP_CRC_MISMATCH, MAP_SHA256_MISMATCH; more than 64 MiB: MAP_TOO_BIG), and the demo holds it. 0.6/DDNet demos are version 6 (5 when the server sends no SHA-256), 0.7 demos version 4; a map name longer than the header holds (63 bytes) is cut as DDNet cuts it, and a line says so. The demo goes to disk as it is recorded (a temporary file beside OUT, renamed to OUT at the end): memory stays flat. Stopped after the first snapshot by Ctrl-C (SIGINT) or SIGTERM, by the server closing the connection (a kick, a shutdown: CLOSED_BY_SERVER), falling silent (TIMEOUT), sending what ends the connection (BAD_PEER, ...) or changing map (MAP_CHANGED: the demo ends at the change, as the DDNet client ends its recording), OUT holds what was recorded and one line says why and what was written (`wrote N snapshots (ticks A..B) to OUT`), exit 1; before it, and on any other error, nothing is written. A connection that gives up tells the server (a close packet), which frees the slot of the player at once.',
    async run(io, [address, out], options, given) {
      const { netRecord } = await import('../net.js');
      await netRecord(io, address!, out!, options, given);
    },
  }),
  'net demo': command({
    args: ['FILE', 'OUT'],
    options: {
      player: { type: 'string', value: 'NAME', required: true, help: 'the player whose client recorded the demo (the name its start info carries)' },
      map: { type: 'string', value: 'FILE', help: 'the map file, when the capture holds no download of it' },
      ...CAPTURE_PROTOCOL('the protocol of flows the capture holds no handshake of'),
    },
    summary: 'Writes the demo the client playing NAME would have recorded, from a pcap/pcapng capture of its session',
    details:
      "The demo holds the map (from its download in the capture, else --map FILE, checked against the CRC, size and SHA-256 the server announced), every snapshot the client received with its CRC right, at its tick, and the game messages it received, as the client records them: DDNet 16.4 (0.6) from the connection the player controls, its own or its dummy's (told from the order in which the client sends their inputs; around a switch the capture cannot show the exact frame, so a snapshot or two there may be the other connection's), with its tuning at each snapshot; Teeworlds 0.7.5 with the demo-only items (de_client_info, de_game_info, de_tune_params) and messages (de_client_enter/leave) its client adds. Messages that came before the first snapshot are left out, as the clients leave them out (they start a demo once online). Keyframes wait for deltas of an eighth of their size, so the demo stays proportional to the capture; one that would pass 8 times its size is refused (DEMO_TOO_BIG). Prints what it wrote as JSON: client, dummy and server endpoints, map, snapshots, messages and switchTicks (the ticks whose connection is a guess).",
    async run(io, [file, out], options) {
      const { netDemo } = await import('../net.js');
      await netDemo(io, file!, out!, options);
    },
  }),
};
