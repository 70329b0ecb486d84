// The units docs/formats/snapshot.md gives the snapshot fields, checked on the server demos (corpus, else the
// fixture): positions are world units (32 per tile) inside the map the demo embeds, pickups sit at tile
// centres, tick fields are tick numbers not after the snapshot's tick, velocities read with their scale
// (1/256 world unit per tick) stay within a few tiles per tick, and angles (1/256 radian) within their range.
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDemo } from '@twcodec/demo';
import { readMap } from '@twcodec/map';
import { DDNET_0_6, snapshotObjects } from '@twcodec/snapshot';
import { demoFiles, readBytes } from '../corpus.js';

const serverDemos = demoFiles().filter((path) => basename(path).includes('_server'));

/** The game layer's size in tiles. */
function gameLayerSize(map: Uint8Array): { width: number; height: number } {
  const layers = readMap(map).groups.flatMap((g) => g.layers) as { kind: string; item?: { flags?: number; width?: number; height?: number } }[];
  const game = layers.find((l) => l.kind === 'tilemap' && ((l.item?.flags ?? 0) & 1) === 1)!;
  return { width: game.item!.width!, height: game.item!.height! };
}

describe(`snapshot units on server demos (${serverDemos.length})`, () => {
  it.each(serverDemos.map((path) => ({ name: basename(path), path })))('$name', ({ path }) => {
    const demo = readDemo(readBytes(path));
    const { width, height } = gameLayerSize(demo.map!);
    const seven = demo.protocol.name === 'teeworlds-0.7';
    let characters = 0;
    let pickups = 0;
    for (const { tick, snapshot } of demo.snapshots()) {
      // Typed as 0.6's: the fields read here have the same names in 0.7.
      const objects = snapshotObjects(snapshot, demo.protocol.snapshots as typeof DDNET_0_6);
      for (const c of objects.items('character')) {
        characters++;
        expect(c.x).toBeGreaterThanOrEqual(0);
        expect(c.x).toBeLessThan(width * 32);
        expect(c.y).toBeGreaterThanOrEqual(0);
        expect(c.y).toBeLessThan(height * 32);
        expect(c.tick).toBeLessThanOrEqual(tick);
        expect(c.attackTick).toBeLessThanOrEqual(tick);
        expect(Math.hypot(c.velX, c.velY)).toBeLessThan(64);
        expect(Math.abs(c.angle)).toBeLessThanOrEqual(seven ? Math.PI + 0.01 : 1.5 * Math.PI + 0.01);
      }
      for (const p of objects.items('pickup')) {
        pickups++;
        expect([p.x % 32, p.y % 32]).toEqual([16, 16]);
      }
      for (const p of objects.items('projectile')) expect(p.startTick).toBeLessThanOrEqual(tick);
    }
    expect(characters).toBeGreaterThan(0);
    expect(pickups).toBeGreaterThan(0);
  });
});
