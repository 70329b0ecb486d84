// The seven YAML-only extensions of issue 37, made in a scratch copy's schemas/: each is a fixture under
// fixtures/schema-extension/ put where a maintainer would put it (a new file, or lines appended to or
// inserted into a list). Nothing else is edited: what the checks then find comes from the schemas alone.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { fixturesDir } from '../corpus.js';
import { appendToBlock, editSchema, insertAfterLine } from './scratch.js';

const fixture = (path: string) => readFileSync(join(fixturesDir, 'schema-extension', path), 'utf8');
/** Appends a fixture to the end of a top-level block (its last list) of a schema file. */
const append = (key: string, path: string) => (text: string) => appendToBlock(text, key, fixture(path));

/** What the extensions add, by the names and values the checks look for. */
export const ADDED = {
  mapItem: { name: 'spawn_weights', uuidName: 'mapitemtype-spawn-weights@example.org' },
  tile: { id: 8, name: 'bounce_pad', colour: [0xff, 0x00, 0xfe] as const },
  snapshotObject: { name: 'race_timer', uuidName: 'race-timer@netobj.example.org' },
  message06: { name: 'sv_lucky_draw', uuidName: 'lucky-draw@netmsg.example.org' },
  message07: { name: 'sv_round_timer', id: 40 },
  teehistorian: { name: 'player-lucky', uuidName: 'teehistorian-player-lucky@example.org' },
  control: { name: 'lucky_ping', id: 6 },
  connless: { name: 'lucky_info', magic: 'luk1' },
  weapon: { name: 'plasma_gun', value: 6 },
  /** Bit 2 in 0.6 (after teams, flags), bit 4 in 0.7 (after teams, flags, survival, race). */
  gameFlag: { name: 'lucky', value06: 4, value07: 16 },
} as const;

/** Makes the seven extensions in the scratch copy at `root`. */
export function applyExtensions(root: string): void {
  // 1. A UUID map item: a new file.
  writeFileSync(join(root, 'schemas', 'map', 'items', 'spawn_weights.yaml'), fixture('map/items/spawn_weights.yaml'));
  // 2. A snapshot object: appended to DDNet's UUID items.
  editSchema(root, 'snapshot/ddnet-0.6.yaml', append('uuid_items', 'snapshot/race_timer.yaml'));
  // 3. A 0.6 UUID net message and a 0.7 net message: appended to each protocol's messages.
  editSchema(root, 'netmsg/ddnet-0.6.yaml', append('messages', 'netmsg/ddnet-0.6-uuid-message.yaml'));
  editSchema(root, 'netmsg/teeworlds-0.7.yaml', append('messages', 'netmsg/teeworlds-0.7-message.yaml'));
  // 4. A teehistorian extension message: appended to the extensions.
  editSchema(root, 'teehistorian/extensions.yaml', append('extensions', 'teehistorian/extension.yaml'));
  // 5. A tile id: into the tile list, and accepted by the game layer.
  const tile = parse(fixture('map/tile.yaml')) as { tile: string; valid: string };
  editSchema(root, 'map/tile-meanings.yaml', (text) => insertAfterLine(insertAfterLine(text, '{ id: 7, name: jump,', `${tile.tile}\n`), '- { tile: freeze }', `${tile.valid}\n`));
  // 6. A control message and a connectionless message (connless.messages, the block's last list) of the 0.6
  // packet layer.
  editSchema(root, 'net/ddnet-0.6.yaml', (text) => append('connless', 'net/ddnet-0.6-connless.yaml')(append('control_messages', 'net/ddnet-0.6-control.yaml')(text)));
  // 7. A weapon and a game flag: one more name at the end of each protocol's `weapon` and `game_flags` lists.
  const enums = parse(fixture('snapshot/enums.yaml')) as { weapon: string; game_flag: string };
  for (const protocol of ['ddnet-0.6', 'teeworlds-0.7']) {
    editSchema(root, `snapshot/${protocol}.yaml`, (text) =>
      text
        .replace(/(\{ name: weapon, [^\n]*kind: enum, [^\n]*values: \[[^\]]*)\]/, `$1, ${enums.weapon}]`)
        .replace(/(\{ name: game_flags, [^\n]*kind: flags, [^\n]*values: \[[^\]]*)\]/, `$1, ${enums.game_flag}]`),
    );
  }
}
