// `map validate` findings placed at the nodes they are about: the validator speaks of the map model
// (groups[1].layers[2].width), the page of datafile items, so the model path is followed through the items.
import { readMap, validateMap } from '@twcodec/map';
import type { LayoutNode } from './layout.js';

export interface Finding {
  severity: string;
  code: string;
  path: string;
  message: string;
}

const ITEM_OF: Record<string, string> = { images: 'image', envelopes: 'envelope', groups: 'group', sounds: 'sound' };

/** Validates the map and attaches each finding to the deepest node it names (the root when none). */
export function placeFindings(bytes: Uint8Array, root: LayoutNode): Finding[] {
  const findings = validateMap(readMap(bytes)) as Finding[];
  const items = root.children?.find((c) => c.label === 'items')?.children ?? [];
  const ofKind = (kind: string) => items.filter((n) => n.label.startsWith(`${kind} #`));
  for (const f of findings) {
    const m = /^(images|envelopes|groups|sounds)\[(\d+)\](?:\.layers\[(\d+)\])?(?:\.([A-Za-z]+))?/.exec(f.path);
    let node: LayoutNode | undefined;
    if (m) {
      node = ofKind(ITEM_OF[m[1]!]!)[Number(m[2])];
      if (node && m[3] !== undefined) {
        const start = Number(node.children?.find((c) => c.label === 'start_layer')?.value ?? NaN);
        node = ofKind('layer')[start + Number(m[3])];
      }
      const field = m[4]?.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      node = node?.children?.find((c) => c.label === field) ?? node;
    }
    const at = node ?? root;
    (at.findings ??= []).push(f);
    // Ancestors count their descendants' findings, so that a collapsed tree still shows where they are.
    markPath(root, at);
  }
  return findings;
}

function markPath(node: LayoutNode, target: LayoutNode): boolean {
  if (node === target || node.children?.some((c) => markPath(c, target))) {
    node.findingCount = (node.findingCount ?? 0) + 1;
    return true;
  }
  return false;
}
