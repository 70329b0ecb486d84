// A map's envelope points: how many the points item holds and their decoding (6-int points with DDNet's bezier
// item, or Teeworlds 0.7's 22-int points), and the envelopes built from them when `map.envelopes` is first used
// (lazy-records.ts). Shared by readMap, which checks the points and defers the envelopes, and writeMap, which
// compares envelopes nobody read against the points items as read.
import {
  decodeEnvelopePointArray,
  decodeEnvelopePointBezier07Array,
  decodeEnvelopePointBezierArray,
  ENVELOPE_POINT_BEZIER_07_INTS,
  ENVELOPE_POINT_BEZIER_INTS,
  ENVELOPE_POINT_INTS,
  type EnvelopeItem,
  type EnvelopePointBezier07,
} from './generated/index.gen.js';
import type { MapEnvelope, MapEnvelopePoint, TwMap } from './model.js';

/**
 * How many envelope points the points item's ints hold (6-int or 22-int points), and whether DDNet's bezier item
 * applies to them (6-int points only, one whole record per point); what envelopePointsFromInts decodes.
 */
export function envelopePointCount(
  layout: TwMap['envelopePointLayout'],
  ints: Int32Array,
  bezierInts: Int32Array | undefined,
): { count: number; bezierUsed: boolean } {
  if (layout === 'teeworlds07') return { count: Math.floor(ints.length / ENVELOPE_POINT_BEZIER_07_INTS), bezierUsed: false };
  const count = Math.floor(ints.length / ENVELOPE_POINT_INTS);
  const bezierUsed = bezierInts !== undefined && bezierInts.length % ENVELOPE_POINT_BEZIER_INTS === 0 && bezierInts.length / ENVELOPE_POINT_BEZIER_INTS === count;
  return { count, bezierUsed };
}

/**
 * The envelope points of a map from the points item's ints (6-int or 22-int points) and, for 6-int points,
 * DDNet's bezier item, which applies only when it has one record per point.
 */
export function envelopePointsFromInts(
  layout: TwMap['envelopePointLayout'],
  ints: Int32Array,
  bezierInts: Int32Array | undefined,
): { points: MapEnvelopePoint[]; bezierUsed: boolean } {
  if (layout === 'teeworlds07') return { points: decodeEnvelopePointBezier07Array(ints).map(withBezier07), bezierUsed: false };
  const points: MapEnvelopePoint[] = decodeEnvelopePointArray(ints);
  if (!bezierInts || !envelopePointCount(layout, ints, bezierInts).bezierUsed) return { points, bezierUsed: false };
  const tangents = decodeEnvelopePointBezierArray(bezierInts);
  for (let i = 0; i < tangents.length; i++) points[i]!.bezier = tangents[i];
  return { points, bezierUsed: true };
}

/**
 * What a map's envelopes are built from until `map.envelopes` is first used (see lazy-records.ts): the
 * envelope items readMap decoded and checked, and copies of the points items' ints as it read them.
 */
export interface PendingEnvelopes {
  items: EnvelopeItem[];
  layout: TwMap['envelopePointLayout'];
  ints: Int32Array;
  /** The bezier item's ints when they apply to the points (one record per 6-int point), else undefined. */
  bezierInts: Int32Array | undefined;
}

/**
 * The envelopes with their points: the points decoded once and sliced per envelope, so that envelopes whose
 * ranges overlap share point objects, and an envelope whose range is outside the points has none (readMap
 * warned ENVELOPE_POINTS_RANGE).
 */
export function envelopesOf({ items, layout, ints, bezierInts }: PendingEnvelopes): MapEnvelope[] {
  const points = items.length ? envelopePointsFromInts(layout, ints, bezierInts).points : [];
  const envelopes: MapEnvelope[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const inRange = item.startPoint >= 0 && item.numPoints >= 0 && item.startPoint + item.numPoints <= points.length;
    envelopes.push({ item, points: inRange ? points.slice(item.startPoint, item.startPoint + item.numPoints) : [] });
  }
  return envelopes;
}

// A module function, not a closure made per read (see read.ts).
function withBezier07({ time, curveType, values, ...bezier }: EnvelopePointBezier07): MapEnvelopePoint {
  return { time, curveType, values, bezier };
}
