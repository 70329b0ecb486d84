// Runs in the browser through the published entry points (bundled with browser conditions).
import { Datafile } from '@twcodec/datafile';
import { readMap, readMapAsync, validateMap, writeMap, TilemapFlags } from '@twcodec/map';
import { readTeehistorian, readTeehistorianStream, teehistorianStats } from '@twcodec/teehistorian';
import { readDemo } from '@twcodec/demo';
import { uuidFromName } from '@twcodec/runtime';
import { packMap, renderGameLayer, unpackMap } from '@twcodec/map-tools';

async function bytes(path) {
  return new Uint8Array(await (await fetch(path)).arrayBuffer());
}

async function run() {
  const mapBytes = await bytes('/fixtures/map.map');
  const map = readMap(mapBytes);
  const game = map.groups.flatMap((g) => g.layers).find((l) => l.kind === 'tilemap' && l.item.tilemapFlags & TilemapFlags.Game);
  const rewritten = writeMap(map);
  const packed = packMap(unpackMap(mapBytes));
  const preview = renderGameLayer(map);
  // readMapAsync: large items through DecompressionStream (counted), the same bytes written back.
  const largeBytes = await bytes('/fixtures/large-items.map');
  const PlatformStream = globalThis.DecompressionStream;
  let asyncDecompressionStreams = 0;
  globalThis.DecompressionStream = class extends PlatformStream {
    constructor(format) {
      super(format);
      asyncDecompressionStreams++;
    }
  };
  const asyncMap = await readMapAsync(largeBytes).finally(() => (globalThis.DecompressionStream = PlatformStream));
  const asyncWritten = writeMap(asyncMap);
  const th = await bytes('/fixtures/session.teehistorian');
  const stats = teehistorianStats(th);
  const streamed = [];
  for await (const m of readTeehistorianStream((await fetch('/fixtures/session.teehistorian')).body)) streamed.push(m.kind);
  const demo = readDemo(await bytes('/fixtures/demo.demo'));
  return {
    zlib: Datafile.read(mapBytes).zlib.name,
    runtimeUuid: uuidFromName('teehistorian@ddnet.tw'),
    mapIdentical: rewritten.length === mapBytes.length && rewritten.every((b, i) => b === mapBytes[i]),
    asyncMapIdentical: asyncWritten.length === largeBytes.length && asyncWritten.every((b, i) => b === largeBytes[i]),
    asyncDecompressionStreams,
    mapToolsRoundTrip: packed.length === mapBytes.length && packed.every((b, i) => b === mapBytes[i]),
    previewIsPng: preview[1] === 0x50 && preview[2] === 0x4e && preview[3] === 0x47,
    mapErrors: validateMap(map).filter((i) => i.severity === 'error').length,
    gameLayer: [game.item.width, game.item.height],
    teehistorianMessages: stats.messageCount,
    teehistorianMap: stats.header.map_name,
    streamedMessages: streamed.length,
    syncMessages: [...readTeehistorian(th)].length,
    demoSnapshots: [...demo.snapshots()].length,
  };
}

run().then(
  (result) => {
    window.__result = result;
    document.getElementById('out').textContent = JSON.stringify(result, null, 2);
  },
  (error) => {
    window.__result = { error: String(error?.stack ?? error) };
  },
);
