// The packet-layer schemas: loaded, refused with file:line:col, and the emitted header codecs.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../test/corpus.js';
import { SchemaError } from '../shared/schema-files.js';
import { emitPacketDocs, emitPacketTs } from './emit.js';
import { loadPacketSchemas } from './load.js';

/** Problems of the 0.7 schema with `edit` applied to its text. */
function problems(edit: (text: string) => string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'twcodec-packet-'));
  cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
  const file = join(dir, 'schemas', 'net', 'teeworlds-0.7.yaml');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  try {
    loadPacketSchemas(join(dir, 'schemas'), dir);
  } catch (e) {
    expect(e).toBeInstanceOf(SchemaError);
    return (e as SchemaError).message.split('\n');
  }
  throw new Error('schemas loaded without problems');
}

describe('packet schemas', () => {
  it('loads both protocols', () => {
    const [ddnet, seven] = loadPacketSchemas(join(repoRoot, 'schemas'), repoRoot);
    expect(ddnet!.packet_protocol).toBe('ddnet-0.6');
    expect(seven!.header.size).toBe(7);
    // Not the whole list: a control message added in YAML (test/extension) must not break this test.
    expect(ddnet!.control_messages.map((m) => m.name)).toEqual(expect.arrayContaining(['keep_alive', 'connect', 'connect_accept', 'accept', 'close']));
    expect(ddnet!.control_messages.find((m) => m.name === 'close')?.id).toBe(4);
    expect(emitPacketTs(seven!).text).toContain('export function decodeTeeworlds07PacketHeader');
    expect(emitPacketDocs([ddnet!, seven!])).toContain('#### `iext` info_extended');
  });

  it.each([
    ['an unknown key', (t: string) => t.replace('  size: 7\n', '  size: 7\n  colour: 1\n'), /^schemas\/net\/teeworlds-0\.7\.yaml:\d+:\d+: header: unknown key 'colour'$/],
    ['a bit outside the header', (t: string) => t.replace('{ byte: 6, mask: 0xff, shift: 0 }', '{ byte: 7, mask: 0xff, shift: 0 }'), /teeworlds-0\.7\.yaml:17:218: byte 7 is outside the 7-byte header/],
    ['bits shifted out', (t: string) => t.replace('{ byte: 2, mask: 0xff, shift: 0 }', '{ byte: 2, mask: 0xff, shift: -1 }'), /teeworlds-0\.7\.yaml:\d+:\d+: shifts bits out to the right/],
    ['a control id used twice', (t: string) => t.replace('    id: 5\n', '    id: 4\n'), /control message id 4 is used twice/],
    ['a padding field before another', (t: string) => t.replace("      - { name: response_token, type: token, description: \"The sender's token", "      - { name: pad, type: padding, description: x }\n      - { name: response_token, type: token, description: \"The sender's token"), /a padding field must be the last one/],
  ])('refuses %s with file:line:col', (_name, edit, expected) => {
    expect(problems(edit)).toEqual(expect.arrayContaining([expect.stringMatching(expected)]));
  });
});
