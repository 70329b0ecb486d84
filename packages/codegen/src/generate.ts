import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { emitMapDocs } from './map/docs.js';
import { emitExplorerTs } from './explorer/emit.js';
import { emitMapTs } from './map/emit.js';
import { emitTileMeaningsTs } from './tiles/emit.js';
import { emitTileMeaningsDocs } from './tiles/docs.js';
import { loadTileMeanings } from './tiles/load.js';
import { emitTeehistorianTs } from './teehistorian/emit.js';
import { emitTeehistorianDocs, loadTeehistorianDocsTemplate } from './teehistorian/docs.js';
import { emitSnapshotEnumsTs, emitSnapshotTs } from './snapshot/emit.js';
import { emitSnapshotDocs } from './snapshot/docs.js';
import { emitSnapshotObjectsTs } from './snapshot/objects.js';
import { loadMapPageTemplate, loadMapSchemas } from './map/load.js';
import { loadSnapshotPage, loadSnapshotSchemas } from './snapshot/load.js';
import { loadTeehistorianSchemas } from './teehistorian/load.js';
import { emitNetTs } from './netmsg/emit.js';
import { emitNetDocs, netDocsPlaceholders } from './netmsg/docs.js';
import { loadNetDocsTemplate, loadNetSchemas } from './netmsg/load.js';
import { emitPacketTs } from './net/emit.js';
import { emitNetworkDocs } from './net/docs.js';
import { emitHuffmanTs } from './net/huffman.js';
import { loadHuffmanSchema, loadNetworkPage, loadPacketSchemas } from './net/load.js';
import { emitDatafileDocs } from './datafile/docs.js';
import { emitDatafileTs } from './datafile/emit.js';
import { loadDatafileSchema } from './datafile/load.js';
import { emitDemoDocs } from './demo/docs.js';
import { emitDemoTs } from './demo/emit.js';
import { loadDemoSchema } from './demo/load.js';

export interface GenerateOptions {
  /** Repository root: schemas/ is read from here. */
  root: string;
  /** Where the map codecs go; default packages/map/src/generated under root. */
  mapOut?: string;
  /** Where the teehistorian codecs go; default packages/teehistorian/src/generated under root. */
  teehistorianOut?: string;
  /** Where the snapshot tables go; default packages/snapshot/src/generated under root. */
  snapshotOut?: string;
  /** Where the net message codecs go; default packages/netmsg/src/generated under root. */
  netOut?: string;
  /** Where the explorer's schema data goes; default packages/explorer/src/generated under root. */
  explorerOut?: string;
  /** Where the packet-layer codecs go; default packages/net/src/generated under root. */
  packetOut?: string;
  /** Where the runtime's generated tables (the network Huffman code) go; default packages/runtime/src/generated under root. */
  runtimeOut?: string;
  /** Where the datafile container's constants go; default packages/datafile/src/generated under root. */
  datafileOut?: string;
  /** Where the demo container's constants go; default packages/demo/src/generated under root. */
  demoOut?: string;
  /** Where the docs go; default docs/formats under root. */
  docsOut?: string;
  /** Only report what would change. */
  check?: boolean;
}

export interface GenerateResult {
  written: string[];
  unchanged: string[];
  removed: string[];
}

/** Regenerates every output from the schemas; files are written only when their text changes. */
export function generate(options: GenerateOptions): GenerateResult {
  const schemas = join(options.root, 'schemas');
  const mapOut = options.mapOut ?? join(options.root, 'packages', 'map', 'src', 'generated');
  const docsOut = options.docsOut ?? join(options.root, 'docs', 'formats');
  const teehistorianOut = options.teehistorianOut ?? join(options.root, 'packages', 'teehistorian', 'src', 'generated');
  const map = loadMapSchemas(schemas, options.root);
  const teehistorian = loadTeehistorianSchemas(schemas, options.root);
  const snapshotOut = options.snapshotOut ?? join(options.root, 'packages', 'snapshot', 'src', 'generated');
  const snapshot = loadSnapshotSchemas(schemas, options.root);
  const netOut = options.netOut ?? join(options.root, 'packages', 'netmsg', 'src', 'generated');
  const net = loadNetSchemas(schemas, options.root, snapshot);

  const outputs = new Map<string, string>();
  for (const file of emitMapTs(map)) outputs.set(join(mapOut, file.path), file.text);
  outputs.set(join(docsOut, 'map.md'), emitMapDocs(map, loadMapPageTemplate(schemas)));
  const physicsLayers = map.enums.find((e) => e.name === 'tilemap_flags')?.values.map((v) => v.name) ?? [];
  const tileMeanings = loadTileMeanings(schemas, options.root, physicsLayers);
  if (tileMeanings) {
    const file = emitTileMeaningsTs(tileMeanings);
    outputs.set(join(mapOut, file.path), file.text);
    outputs.set(join(docsOut, 'map-tiles.md'), emitTileMeaningsDocs(tileMeanings));
  }
  for (const file of emitTeehistorianTs(teehistorian)) outputs.set(join(teehistorianOut, file.path), file.text);
  const inputProtocol = snapshot.find((p) => p.items.some((i) => i.name === 'player_input'));
  const playerInput = inputProtocol && { protocol: inputProtocol.protocol, layout: inputProtocol.items.find((i) => i.name === 'player_input')! };
  outputs.set(join(docsOut, 'teehistorian.md'), emitTeehistorianDocs(teehistorian, loadTeehistorianDocsTemplate(options.root, teehistorian), playerInput));
  for (const file of [...emitSnapshotTs(snapshot), emitSnapshotObjectsTs(snapshot), emitSnapshotEnumsTs(snapshot)]) outputs.set(join(snapshotOut, file.path), file.text);
  outputs.set(join(docsOut, 'snapshot.md'), emitSnapshotDocs(snapshot, loadSnapshotPage(options.root)));
  for (const p of net) {
    const file = emitNetTs(p);
    outputs.set(join(netOut, file.path), file.text);
  }
  outputs.set(join(docsOut, 'net-messages.md'), emitNetDocs(net, loadNetDocsTemplate(options.root, net, netDocsPlaceholders(net))));
  const packetOut = options.packetOut ?? join(options.root, 'packages', 'net', 'src', 'generated');
  const packet = loadPacketSchemas(schemas, options.root, { netMessages: net.map((p) => p.protocol), snapshots: snapshot.map((p) => p.protocol) });
  const explorerOut = options.explorerOut ?? join(options.root, 'packages', 'explorer', 'src', 'generated');
  const explorer = emitExplorerTs(map, teehistorian, snapshot, packet);
  outputs.set(join(explorerOut, explorer.path), explorer.text);
  for (const file of packet.map(emitPacketTs)) outputs.set(join(packetOut, file.path), file.text);
  const runtimeOut = options.runtimeOut ?? join(options.root, 'packages', 'runtime', 'src', 'generated');
  const huffman = loadHuffmanSchema(schemas, options.root);
  const huffmanFile = emitHuffmanTs(huffman);
  outputs.set(join(runtimeOut, huffmanFile.path), huffmanFile.text);
  outputs.set(join(docsOut, 'network.md'), emitNetworkDocs(loadNetworkPage(schemas, options.root, packet, huffman)));
  const datafileOut = options.datafileOut ?? join(options.root, 'packages', 'datafile', 'src', 'generated');
  const datafile = loadDatafileSchema(schemas, options.root);
  if (datafile) {
    const file = emitDatafileTs(datafile);
    outputs.set(join(datafileOut, file.path), file.text);
    outputs.set(join(docsOut, 'datafile.md'), emitDatafileDocs(datafile));
  }
  const demoOut = options.demoOut ?? join(options.root, 'packages', 'demo', 'src', 'generated');
  const demo = loadDemoSchema(schemas, options.root);
  if (demo) {
    const file = emitDemoTs(demo);
    outputs.set(join(demoOut, file.path), file.text);
    outputs.set(join(docsOut, 'demo.md'), emitDemoDocs(demo));
  }

  const result: GenerateResult = { written: [], unchanged: [], removed: [] };
  for (const [path, text] of outputs) {
    if (existsSync(path) && readFileSync(path, 'utf8') === text) {
      result.unchanged.push(path);
      continue;
    }
    result.written.push(path);
    if (!options.check) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }
  // Generated files whose schema is gone.
  for (const dir of [mapOut, teehistorianOut, snapshotOut, netOut, explorerOut, packetOut, runtimeOut, datafileOut, demoOut]) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name.endsWith('.gen.ts') && !outputs.has(path)) {
        result.removed.push(path);
        if (!options.check) rmSync(path);
      }
    }
  }
  return result;
}
