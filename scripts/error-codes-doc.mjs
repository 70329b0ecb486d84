// The error codes of each package, as docs/library.md lists them ("Error codes"), made from the packages'
// `*_ERROR_CODES` tables (built: run after `npm run build`). `node scripts/error-codes-doc.mjs --write` puts
// them into docs/library.md between its markers; test/docs/error-codes.test.ts checks that the docs agree.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Each package's table, the error class that carries its codes, and the tables whose codes it hands on. */
export const ERROR_CODE_TABLES = [
  { pkg: '@twcodec/runtime', table: 'RUNTIME_ERROR_CODES', type: 'RuntimeErrorCode', classes: 'BinaryError (and CodecError for UUIDs and Huffman data)', handsOn: [] },
  { pkg: '@twcodec/datafile', table: 'DATAFILE_ERROR_CODES', type: 'DatafileErrorCode', classes: 'DatafileError, InflateLimitError', handsOn: [] },
  { pkg: '@twcodec/map', table: 'MAP_ERROR_CODES', type: 'MapErrorCode', classes: 'MapError (also from @twcodec/map-tools)', handsOn: ['@twcodec/datafile', '@twcodec/runtime'] },
  { pkg: '@twcodec/netmsg', table: 'NET_MESSAGE_ERROR_CODES', type: 'NetMessageErrorCode', classes: 'NetMessageError', handsOn: ['@twcodec/runtime'] },
  { pkg: '@twcodec/snapshot', table: 'SNAPSHOT_ERROR_CODES', type: 'SnapshotErrorCode', classes: 'SnapshotError', handsOn: ['@twcodec/runtime'] },
  { pkg: '@twcodec/demo', table: 'DEMO_ERROR_CODES', type: 'DemoErrorCode', classes: 'DemoError', handsOn: ['@twcodec/netmsg', '@twcodec/snapshot'] },
  { pkg: '@twcodec/teehistorian', table: 'TEEHISTORIAN_ERROR_CODES', type: 'TeehistorianErrorCode', classes: 'TeehistorianError', handsOn: ['@twcodec/runtime', '@twcodec/netmsg'] },
  { pkg: '@twcodec/net', table: 'NET_ERROR_CODES', type: 'NetErrorCode', classes: 'NetError', handsOn: ['@twcodec/netmsg', '@twcodec/snapshot'] },
];

export const START = '<!-- error-codes: made by scripts/error-codes-doc.mjs from the *_ERROR_CODES tables; do not edit -->';
export const END = '<!-- error-codes: end -->';

/** The markdown of the codes, package by package. */
export async function errorCodesMarkdown() {
  const parts = [];
  for (const { pkg, table, type, classes, handsOn } of ERROR_CODE_TABLES) {
    const codes = (await import(pkg))[table];
    const also = handsOn.length ? ` It also hands on the codes of ${handsOn.map((p) => `\`${p}\``).join(' and ')}.` : '';
    parts.push(`#### ${pkg}`, '', `${classes}: \`err.code\` is a \`${type}\` (\`${table}\`).${also}`, '', '| Code | Meaning |', '| --- | --- |');
    for (const [code, meaning] of Object.entries(codes)) parts.push(`| \`${code}\` | ${meaning.replace(/\|/g, '\\|')} |`);
    parts.push('');
  }
  return parts.join('\n');
}

/** `docs` with its error codes section replaced by `section`. */
export function withSection(docs, section) {
  const start = docs.indexOf(START);
  const end = docs.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/library.md has no ${START} ... ${END} section`);
  return `${docs.slice(0, start + START.length)}\n\n${section}\n${docs.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = fileURLToPath(new URL('../docs/library.md', import.meta.url));
  const docs = readFileSync(file, 'utf8');
  const next = withSection(docs, await errorCodesMarkdown());
  if (process.argv.includes('--write')) writeFileSync(file, next);
  else process.stdout.write(next === docs ? 'docs/library.md is current\n' : 'docs/library.md differs: run with --write\n');
}
