// The details beside the tree: a node's field, bytes, type, value, the schema's description, its validation
// findings, and its pictures (a layer with its tiles, clickable; envelopes; quads). A tiles layer with an
// embedded tileset is drawn again by the worker with its tiles.
import type { LayoutNode } from './layout.js';
import { envelopeSvg, previewElements, quadsCanvas } from './pictures.js';
import { api, page } from './page.js';
import { call } from './worker-client.js';

const details = document.getElementById('details')!;

export function showDetails(node: LayoutNode, offset?: number): void {
  const h = document.createElement('h3');
  h.textContent = node.label;
  const dl = document.createElement('dl');
  const add = (k: string, v: string | undefined) => {
    if (v === undefined) return;
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.className = k;
    dd.textContent = v;
    dl.append(dt, dd);
  };
  add('bytes', `${node.start}–${node.end - 1} (${node.end - node.start} bytes)${node.decoded ? ': those of the chunk or record it is decoded from' : ''}`);
  if (offset !== undefined) add('offset', String(offset));
  if (node.tick !== undefined) add('tick', String(node.tick));
  add('type', node.type);
  add('value', node.value);
  const desc = document.createElement('div');
  desc.className = 'description';
  desc.textContent = node.description ?? '';
  const findings = (node.findings ?? []).map((f) => {
    const p = document.createElement('div');
    p.className = `finding ${f.severity}`;
    p.textContent = `${f.severity} ${f.code} at ${f.path}: ${f.message}`;
    return p;
  });
  const pictures: Element[] = [];
  // A click on a layer's tile: what it holds and means, under the picture.
  const tileEl = document.createElement('div');
  tileEl.className = 'tile-info';
  const onTile = node.tiles
    ? (x: number, y: number) => {
        const current = page.state;
        void call({ op: 'tile', key: node.tiles!.key, x, y }).then((reply) => {
          if (page.state !== current || reply.op !== 'tile') return;
          api.tile = reply.tile;
          tileEl.replaceChildren();
          if (!reply.tile) return;
          const b = document.createElement('strong');
          b.textContent = reply.tile.title;
          tileEl.append(b, ...reply.tile.lines.map((line) => Object.assign(document.createElement('div'), { textContent: line })));
        });
      }
    : undefined;
  if (node.preview) pictures.push(...previewElements(node.preview, details.clientWidth, node.preview.note ?? (node.lazy ? 'The layer in its colour; the tileset drawing follows.' : undefined), 'pixels', node.tiles, onTile));
  if (node.tiles) pictures.push(tileEl);
  if (node.plot) pictures.push(envelopeSvg(node.plot));
  if (node.quads?.length) pictures.push(...quadsCanvas(node.quads));
  details.replaceChildren(h, dl, desc, ...findings, ...pictures);
  // A tiles layer with an embedded tileset: the worker draws it with its tiles.
  if (offset === undefined && node.lazy?.startsWith('layer:') && page.state) {
    const current = page.state;
    void call({ op: 'preview', key: node.lazy }).then((reply) => {
      if (page.state !== current || page.state.selected !== node || reply.op !== 'preview' || !reply.preview) return;
      details.replaceChildren(h, dl, desc, ...findings, ...previewElements(reply.preview, details.clientWidth, reply.preview.note, 'tileset', node.tiles, onTile), ...(node.tiles ? [tileEl] : []));
    });
  }
}

/** No details (another file, or none). */
export function clearDetails(): void {
  details.replaceChildren();
}
