// Decodes off the main thread so that a large demo or teehistorian file keeps the page responsive. The worker
// keeps the decoded file: the page asks it for the insides of a chunk, a layer drawn with its tileset, or the
// overview (timeline, players, positions) when it needs them.
import { CodecError } from '@twcodec/datafile';
import type { TwMap } from '@twcodec/map';
import { TEEHISTORIAN_UUID } from '@twcodec/teehistorian';
import { sha256 } from '@twcodec/runtime';
import schemas from 'virtual:map-item-schemas';
import streamDocs from 'virtual:stream-docs';
import thDocs from 'virtual:teehistorian-message-docs';
import { captureSession } from './capture.js';
import type { Playback } from './playback.js';
import { type GivenImage, type Scene, sceneBuffers, sceneOf } from './scene.js';
import { placeFindings } from './findings.js';
import { damagedLayout, detectKind, type LayoutNode, mapLayout } from './layout.js';
import { attachPreviews, type Preview, renderLayer, tileInfo } from './previews.js';
import { demoSession } from './demo-view.js';
import type { Overview, StreamSession } from './streams.js';
import { teehistorianSession } from './teehistorian-view.js';

export type WorkerRequest =
  | { id: number; op: 'open'; buffer: ArrayBuffer }
  | { id: number; op: 'children'; key: string }
  | { id: number; op: 'preview'; key: string }
  | { id: number; op: 'overview' }
  | { id: number; op: 'tile'; key: string; x: number; y: number }
  | { id: number; op: 'playback'; map?: ArrayBuffer; player?: string; images?: GivenImage[] }
  | { id: number; op: 'summaries'; keys: string[] };

/**
 * `damaged`: the file could not be read to its end; the tree holds what was read before (at least its fixed-size
 * start) and a node for the rest.
 */
export type OpenReply = { ok: true; kind: string; root: LayoutNode; ms: number; damaged?: string } | { ok: false; message: string };
export type WorkerReply = { id: number } & (
  | { op: 'open'; reply: OpenReply }
  | { op: 'children'; children: LayoutNode[] }
  | { op: 'preview'; preview: Preview | undefined }
  | { op: 'overview'; overview: Overview | undefined; error?: string }
  | { op: 'tile'; tile: { title: string; lines: string[] } | undefined }
  | { op: 'playback'; playback?: Playback; scene?: Scene; error?: string; ms: number; needsMap?: { name: string; sha256?: string }; players?: string[]; player?: string }
  | { op: 'summaries'; values: (string | undefined)[] }
);

let session: StreamSession | undefined;
/** Images the user gave for maps' external images, by name (kept while the page is open). */
const givenImages = new Map<string, GivenImage>();
let map: TwMap | undefined;

export function describe(bytes: Uint8Array): OpenReply {
  const t0 = performance.now();
  const kind = detectKind(bytes);
  session = undefined;
  map = undefined;
  try {
    let root: LayoutNode;
    if (kind === 'map') {
      root = mapLayout(bytes, schemas);
      try {
        placeFindings(bytes, root);
        map = attachPreviews(bytes, root);
      } catch (e) {
        // The container reads but the map does not (a data item that does not inflate, a broken layer): the
        // byte layout stays, without the pictures and findings that need the whole map.
        return { ok: true, kind, root, ms: performance.now() - t0, damaged: `${errorText(kind, e)}; no pictures or validation findings` };
      }
    } else if (kind === 'demo') root = (session = demoSession(bytes, streamDocs)).root;
    else if (kind === 'teehistorian') root = (session = teehistorianSession(bytes, thDocs, streamDocs)).root;
    else if (kind === 'capture') root = (session = captureSession(bytes, streamDocs)).root;
    else return { ok: false, message: `Not a file this page knows: a map starts with "DATA", a demo with "TWDEMO", a teehistorian file with its UUID ${TEEHISTORIAN_UUID}, a capture (.pcap, .pcapng) with its magic.` };
    const damaged = session?.damaged;
    return { ok: true, kind, root, ms: performance.now() - t0, ...(damaged ? { damaged: `This ${kind} is damaged: ${damaged}` } : {}) };
  } catch (e) {
    // Nothing past the fixed-size start could be read: that start and the error.
    session = undefined;
    map = undefined;
    return { ok: true, kind, root: damagedLayout(bytes, kind, e), ms: performance.now() - t0, damaged: errorText(kind, e) };
  }
}

function errorText(kind: string, e: unknown): string {
  if (e instanceof CodecError) return `This ${kind} is damaged: ${e.message}`;
  return `Could not read this ${kind}: ${(e as Error).message}`;
}

function handle(request: WorkerRequest): WorkerReply {
  const { id } = request;
  switch (request.op) {
    case 'open':
      return { id, op: 'open', reply: describe(new Uint8Array(request.buffer)) };
    case 'children':
      try {
        return { id, op: 'children', children: session?.children(request.key) ?? [] };
      } catch (e) {
        return { id, op: 'children', children: [{ label: 'error', start: 0, end: 0, decoded: true, value: errorText('file', e), description: 'Decoding this part failed.' }] };
      }
    case 'preview':
      return { id, op: 'preview', preview: map ? renderLayer(map, request.key) : undefined };
    case 'tile':
      return { id, op: 'tile', tile: map ? tileInfo(map, request.key, request.x, request.y) : undefined };
    case 'playback': {
      const t0 = performance.now();
      try {
        const given = request.map ? new Uint8Array(request.map) : undefined;
        const made = session?.playback?.({ ...(request.player ? { player: request.player } : {}), ...(given ? { map: given } : {}) });
        if (!made) return { id, op: 'playback', error: 'This file has nothing to play.', ms: 0 };
        const who = { ...(made.players ? { players: made.players } : {}), ...(made.player ? { player: made.player } : {}) };
        if (!made.playback) return { id, op: 'playback', error: made.error ?? 'Nothing to play.', ...(made.needsMap ? { needsMap: made.needsMap } : {}), ...who, ms: performance.now() - t0 };
        let mapBytes = made.map ?? given;
        let scene: Scene | undefined;
        let error: string | undefined = made.error;
        // A teehistorian file names its map and the map's SHA-256: another map is refused.
        if (mapBytes && given && made.needsMap?.sha256) {
          const hash = Array.from(sha256(mapBytes), (b) => b.toString(16).padStart(2, '0')).join('');
          if (hash !== made.needsMap.sha256.toLowerCase()) {
            error = `That is not the map this file was recorded on: its SHA-256 is ${hash}, the header names "${made.needsMap.name}" with SHA-256 ${made.needsMap.sha256}.`;
            mapBytes = undefined;
          }
        }
        try {
          for (const image of request.images ?? []) givenImages.set(image.name, image);
          if (mapBytes) scene = sceneOf(mapBytes, givenImages);
        } catch (e) {
          error = `The map could not be read: ${errorText('map', e)}`;
        }
        const needsMap = made.needsMap && !scene ? { needsMap: made.needsMap } : {};
        return { id, op: 'playback', playback: made.playback, ...(scene ? { scene } : {}), ...(error ? { error } : {}), ...needsMap, ...who, ms: performance.now() - t0 };
      } catch (e) {
        return { id, op: 'playback', error: errorText('file', e), ms: performance.now() - t0 };
      }
    }
    case 'summaries':
      return {
        id,
        op: 'summaries',
        values: request.keys.map((key) => {
          try {
            return session?.summary(key);
          } catch {
            return undefined;
          }
        }),
      };
    case 'overview':
      try {
        return { id, op: 'overview', overview: session?.overview() };
      } catch (e) {
        return { id, op: 'overview', overview: undefined, error: errorText('file', e) };
      }
  }
}

self.onmessage = (event: MessageEvent<WorkerRequest>) => {
  const reply = handle(event.data);
  const transfer: Transferable[] = [];
  if (reply.op === 'preview' && reply.preview) transfer.push(reply.preview.rgba.buffer);
  if (reply.op === 'playback' && reply.scene) transfer.push(...sceneBuffers(reply.scene));
  if (reply.op === 'overview' && reply.overview) for (const t of reply.overview.tracks) transfer.push(t.ticks.buffer, t.x.buffer, t.y.buffer);
  (self as unknown as { postMessage(m: WorkerReply, transfer: Transferable[]): void }).postMessage(reply, transfer);
};
