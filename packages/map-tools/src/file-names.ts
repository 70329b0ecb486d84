import { MapError } from '@twcodec/map';

// Names from a map (image and sound names) become file names in `map extract` and `map unpack`, and external
// image names are looked up as `<mapres dir>/<name>.png`. A map is untrusted input: these names must never
// reach outside the directory, never be too long for the file system, and never give two items one file.

/**
 * Longest file name base, in UTF-8 bytes. File systems take 255 bytes a name (NAME_MAX on Linux, ext4, NTFS
 * in UTF-16 units, APFS); what is left covers a `-<index>` suffix, the extension and the CLI's temporary name
 * beside the target (`.<name>.<12 hex>.tmp`).
 */
export const MAX_FILE_NAME_BYTES = 100;

const utf8 = new TextEncoder();

/** The longest prefix of `text` of at most `max` UTF-8 bytes, cut between code points. */
function capUtf8(text: string, max: number): string {
  if (utf8.encode(text).length <= max) return text;
  let out = '';
  let bytes = 0;
  for (const c of text) {
    const n = utf8.encode(c).length;
    if (bytes + n > max) break;
    out += c;
    bytes += n;
  }
  return out;
}

/**
 * A file name base safe on every common file system, from an image or sound name: control characters and
 * `<>:"/\|?*` become `_`; leading and trailing spaces and dots are dropped (Windows drops trailing ones, a
 * leading dot hides a file); Windows device names (CON, NUL, COM1, ...) get a `_` before them; at most
 * MAX_FILE_NAME_BYTES UTF-8 bytes. An empty result (or no name) gives `fallback`.
 */
export function safeFileName(name: string | undefined, fallback: string): string {
  const cleaned = (name ?? '').replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_').replace(/^[.\s]+|[.\s]+$/g, '');
  const capped = capUtf8(cleaned, MAX_FILE_NAME_BYTES).replace(/[.\s]+$/, '');
  const base = capped === '' ? fallback : capped;
  return /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(base) ? `_${base}` : base;
}

/**
 * File names `<safe name>.<ext>`, one per name, in order. Unique also where file systems ignore case or
 * Unicode normalisation: a name whose file is taken gets `-<index>` (its index in `names`), and `-<index>-<n>`
 * should that be taken too (by another item's own name), so that no two items ever share a file.
 */
export function uniqueFileNames(names: (string | undefined)[], fallback: string, ext: string): string[] {
  const used = new Set<string>();
  const key = (base: string) => base.normalize('NFC').toLowerCase();
  return names.map((name, index) => {
    const base = safeFileName(name, `${fallback}${index}`);
    let candidate = base;
    for (let n = 1; used.has(key(candidate)); n++) candidate = n === 1 ? `${base}-${index}` : `${base}-${index}-${n}`;
    used.add(key(candidate));
    return `${candidate}.${ext}`;
  });
}

/**
 * The relative path `<name>.png` of an external image in a mapres directory (DDNet loads `mapres/<name>.png`).
 * Refuses a name that would leave the directory or that no file system takes: an absolute path, a `..` or
 * empty path segment, a backslash, a NUL. `index` is the image's index, for the error.
 */
export function mapresFileName(name: string, index: number): string {
  const segments = name.split('/');
  const bad = name.includes('\0') ? 'a NUL' : name.includes('\\') ? 'a backslash' : segments.some((s) => s === '..' || s === '.' || s === '') ? 'a path outside the directory' : undefined;
  if (bad) throw new MapError('mapres.name', `external image ${index} is named ${JSON.stringify(name)}: ${bad}, not a file in the mapres directory`, -1, `images[${index}].name`);
  return `${name}.png`;
}

/**
 * Checks a file reference of a map directory (map.json's `png`, `opus`, `tiles`): a relative `/`-separated
 * path that stays inside the directory and that file systems take (no NUL, no backslash, no `..`).
 */
export function checkDirReference(ref: string, path: string): void {
  const segments = ref.split('/');
  const bad = ref.includes('\0')
    ? 'contains a NUL'
    : ref.includes('\\')
      ? 'contains a backslash (use /)'
      : segments.some((s) => s === '..' || s === '.' || s === '')
        ? 'is outside the directory (absolute, or with an empty, . or .. segment)'
        : undefined;
  if (bad) throw new MapError('mapdir.path', `map.json refers to ${JSON.stringify(ref)}, which ${bad}`, -1, path);
}
