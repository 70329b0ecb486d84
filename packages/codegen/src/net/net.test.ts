// The packet-layer schemas: loaded, refused with file:line:col, and the emitted header codecs.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../test/corpus.js';
import { SchemaError } from '../shared/schema-files.js';
import { emitNetworkDocs } from './docs.js';
import { emitPacketTs } from './emit.js';
import { loadHuffmanSchema, loadNetworkPage, loadPacketSchemas } from './load.js';

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
    const page = emitNetworkDocs(loadNetworkPage(join(repoRoot, 'schemas'), repoRoot, [ddnet!, seven!], loadHuffmanSchema(join(repoRoot, 'schemas'), repoRoot)));
    expect(page).toContain('#### `iext` info_extended');
    expect(page).toContain('| `timeout` | 100 | s |');
    // Every field of a list's entries has its own row with its description (the values of player_type).
    for (const p of [ddnet!, seven!])
      for (const m of p.connless.messages)
        for (const f of m.fields.filter((x) => x.type === 'list_rest'))
          for (const x of f.fields!) expect(page).toContain(`| \`${f.name}[].${x.name}\` | `);
    expect(page).toContain('| `clients[].player_type` | variable-width int | 0 player, 1 spectator, 2 bot. |');
  });

  it('emits control ids, control magics and token values from the YAML as named constants (what capture.ts, client.ts and info.ts import)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-packet-'));
    cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
    const edit = (name: string, change: (text: string) => string) => {
      const file = join(dir, 'schemas', 'net', name);
      writeFileSync(file, change(readFileSync(file, 'utf8')));
    };
    edit('ddnet-0.6.yaml', (t) => t.replace('    id: 1\n', '    id: 9\n').replace('value: TKEN, optional: true, description: "DDNet: SECURITY_TOKEN_MAGIC, the client', 'value: TKEX, optional: true, description: "DDNet: SECURITY_TOKEN_MAGIC, the client'));
    edit('teeworlds-0.7.yaml', (t) => t.replace('  request_size: 512\n', '  request_size: 600\n').replace('    id: 5\n', '    id: 6\n').replace('parts: [{ byte: 1, mask: 0xc0, shift: 2 }, { byte: 2, mask: 0xff, shift: 0 }]', 'parts: [{ byte: 1, mask: 0xc0, shift: 3 }, { byte: 2, mask: 0xff, shift: 0 }]'));
    const [ddnet, seven] = loadPacketSchemas(join(dir, 'schemas'), dir);
    const ddnetTs = emitPacketTs(ddnet!).text;
    const sevenTs = emitPacketTs(seven!).text;
    expect(ddnetTs).toMatch(/export const Ddnet06ControlId = \{[^}]*\n  connect: 9,/);
    expect(ddnetTs).toContain("  connect: { tokenMagic: 'TKEX' },");
    // new_connection: what the capture tracker takes for a connection starting again.
    expect(ddnetTs).toContain("{ name: 'connect', id: 9, newConnection: true, fields:");
    expect(ddnetTs).toContain("{ name: 'keep_alive', id: 0, fields:");
    expect(ddnetTs).toContain('export const Ddnet06Token = { none: 0xffffffff } as const;');
    expect(sevenTs).toMatch(/export const Teeworlds07ControlId = \{[^}]*\n  token: 6,/);
    expect(sevenTs).toContain('export const Teeworlds07Token = { none: 0xffffffff, requestSize: 600 } as const;');
    // Sequence numbers wrap at the sequence field's range: 11 bits now (0.6's repeats two bits and holds 10).
    expect(sevenTs).toContain('  sequenceModulo: 2048,');
    expect(ddnetTs).toContain('  sequenceModulo: 1024,');
    const page = emitNetworkDocs(loadNetworkPage(join(dir, 'schemas'), dir, [ddnet!, seven!], loadHuffmanSchema(join(dir, 'schemas'), dir)));
    expect(page).toContain('With the id that is\n600 + 1 data bytes');
  });

  it('refuses net_messages or snapshots naming no protocol of those families, with file:line:col', () => {
    const dir = mkdtempSync(join(tmpdir(), 'twcodec-packet-'));
    cpSync(join(repoRoot, 'schemas'), join(dir, 'schemas'), { recursive: true });
    const file = join(dir, 'schemas', 'net', 'teeworlds-0.7.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('net_messages: teeworlds-0.7', 'net_messages: teeworlds-0.8'));
    expect(() => loadPacketSchemas(join(dir, 'schemas'), dir, { netMessages: ['ddnet-0.6', 'teeworlds-0.7'], snapshots: ['ddnet-0.6', 'teeworlds-0.7'] })).toThrow(
      /schemas\/net\/teeworlds-0\.7\.yaml:\d+:\d+: net_messages: teeworlds-0\.8 is no protocol of schemas\/netmsg/,
    );
    // The emitted table takes the two tables by their constants.
    const [, seven] = loadPacketSchemas(join(repoRoot, 'schemas'), repoRoot);
    expect(emitPacketTs(seven!).text).toMatch(/import \{ [^}]*\bTEEWORLDS_0_7_MESSAGES \} from '@twcodec\/netmsg';/);
  });

  it.each([
    ['an unknown key', (t: string) => t.replace('  size: 7\n', '  size: 7\n  colour: 1\n'), /^schemas\/net\/teeworlds-0\.7\.yaml:\d+:\d+: header: unknown key 'colour'$/],
    ['a bit outside the header', (t: string) => t.replace('{ byte: 6, mask: 0xff, shift: 0 }', '{ byte: 7, mask: 0xff, shift: 0 }'), /teeworlds-0\.7\.yaml:19:218: byte 7 is outside the 7-byte header/],
    ['bits shifted out', (t: string) => t.replace('{ byte: 2, mask: 0xff, shift: 0 }', '{ byte: 2, mask: 0xff, shift: -1 }'), /teeworlds-0\.7\.yaml:\d+:\d+: shifts bits out to the right/],
    ['a token none out of range', (t: string) => t.replace('  none: 0xffffffff\n', '  none: 0x100000000\n'), /teeworlds-0\.7\.yaml:\d+:\d+: token\/none: must be <= 4294967295/],
    ['a control id used twice', (t: string) => t.replace('    id: 5\n', '    id: 4\n'), /control message id 4 is used twice/],
    ['a padding field before another', (t: string) => t.replace("      - { name: response_token, type: token, description: \"The sender's token", "      - { name: pad, type: padding, description: x }\n      - { name: response_token, type: token, description: \"The sender's token"), /a padding field must be the last one/],
  ])('refuses %s with file:line:col', (_name, edit, expected) => {
    expect(problems(edit)).toEqual(expect.arrayContaining([expect.stringMatching(expected)]));
  });
});
