// The hex view of the open file, virtualised (only the rows in view exist): the bytes in hex and as text, the
// selected node's bytes highlighted; hovering a byte shows the field under it in the details.
import { leafAt } from './layout.js';
import { page } from './page.js';
import { showDetails } from './details-view.js';

const ROW_BYTES = 16;
const ROW_HEIGHT = 16;

const hexEl = document.getElementById('hex')!;
const spacer = document.getElementById('hex-spacer')!;

function renderHex(): void {
  if (!page.state) return;
  const { bytes, selected } = page.state;
  const first = Math.floor(hexEl.scrollTop / ROW_HEIGHT);
  const count = Math.ceil(hexEl.clientHeight / ROW_HEIGHT) + 1;
  const rows: HTMLElement[] = [];
  for (let r = first; r < first + count && r * ROW_BYTES < bytes.length; r++) {
    const row = document.createElement('div');
    row.className = 'hexrow';
    row.style.top = `${r * ROW_HEIGHT}px`;
    const addr = document.createElement('span');
    addr.className = 'addr';
    addr.textContent = (r * ROW_BYTES).toString(16).padStart(8, '0');
    row.append(addr);
    // The bytes in hex, then as text (printable ASCII, '.' for the rest), both highlighted with the selection.
    const text = document.createElement('span');
    text.className = 'text';
    const end = Math.min(bytes.length, (r + 1) * ROW_BYTES);
    for (let i = r * ROW_BYTES; i < end; i++) {
      const sel = selected && i >= selected.start && i < selected.end ? ' sel' : '';
      const b = document.createElement('span');
      b.className = `byte${sel}`;
      b.dataset.offset = String(i);
      b.textContent = bytes[i]!.toString(16).padStart(2, '0');
      row.append(b);
      const c = document.createElement('span');
      c.className = `char${sel}`;
      c.dataset.offset = String(i);
      c.textContent = bytes[i]! >= 0x20 && bytes[i]! < 0x7f ? String.fromCharCode(bytes[i]!) : '.';
      text.append(c);
    }
    // A short last row keeps the text column where the others have it.
    if (end - r * ROW_BYTES < ROW_BYTES) text.style.marginLeft = `calc(12px + ${ROW_BYTES - (end - r * ROW_BYTES)} * (2ch + 4px))`;
    row.append(text);
    rows.push(row);
  }
  spacer.replaceChildren(...rows);
}

hexEl.addEventListener('scroll', () => requestAnimationFrame(renderHex));
hexEl.addEventListener('mouseover', (e) => {
  const offset = (e.target as HTMLElement).dataset?.offset;
  if (!page.state || offset === undefined) return;
  const leaf = leafAt(page.state.leaves, Number(offset));
  if (leaf) showDetails(leaf, Number(offset));
});

/** The hex view of a newly opened file of `length` bytes, from the top. */
export function showHex(length: number): void {
  spacer.style.height = `${Math.ceil(length / ROW_BYTES) * ROW_HEIGHT}px`;
  hexEl.scrollTop = 0;
  renderHex();
}

/** No hex view (the file did not decode). */
export function clearHex(): void {
  spacer.style.height = '0';
  spacer.replaceChildren();
}

/** Draws the selection again, scrolled so that the byte at `offset` is in view. */
export function scrollHexTo(offset: number): void {
  const row = Math.floor(offset / ROW_BYTES) * ROW_HEIGHT;
  if (row < hexEl.scrollTop || row > hexEl.scrollTop + hexEl.clientHeight - ROW_HEIGHT) hexEl.scrollTop = Math.max(0, row - ROW_HEIGHT * 2);
  renderHex();
}
