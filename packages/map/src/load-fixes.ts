// What DDNet's map loader silently changes in layer items (src/engine/shared/map.cpp, CMap::Load and
// EnsureTileLayerProperties): one table, so that validateMap reports exactly what fixMapModel (map-tools)
// applies. Field names, flags and kinds come from the generated registry.
import { type LayerItem, LayerFlags, TILEMAP_KINDS, type TilemapKindInfo, type TilemapLayerItem, tilemapKind } from './generated/index.gen.js';

/** One field DDNet changes on load, with what it says about it. */
export interface LoadFixFinding {
  /** The field (camelCase) of the layer item. */
  field: string;
  message: string;
}

/** A change DDNet's loader makes to a layer item: `find` says where, `apply` makes it (a new item when it changes). */
export interface LayerLoadFix {
  /** The validateMap issue code (severity `fixed`). */
  code: string;
  find(item: LayerItem): LoadFixFinding[];
  apply<T extends LayerItem>(item: T): T;
}

/** The kind of a tilemap item, from its flags as DDNet reads them. */
const kindOf = (item: TilemapLayerItem): TilemapKindInfo => TILEMAP_KINDS.find((k) => k.kind === tilemapKind(item.tilemapFlags))!;
/** The kind of a physics tilemap layer item; undefined for other layers and plain tiles layers. */
const physicsKind = (item: LayerItem): TilemapKindInfo | undefined => (item.kind === 'tilemap' && kindOf(item).flag !== 0 ? kindOf(item) : undefined);
/** The name DDNet gives a physics layer (EnsureTileLayerProperties): its kind, capitalised. */
const physicsName = (kind: TilemapKindInfo) => kind.kind.charAt(0).toUpperCase() + kind.kind.slice(1);
const WHITE = { r: 255, g: 255, b: 255, a: 255 };

/** A rule on one field: `wrong` says whether the item needs the change, `fixed` gives the field's new value. */
function fieldFix<K extends string>(
  code: string,
  field: K,
  wrong: (item: LayerItem) => boolean,
  message: (item: LayerItem) => string,
  fixed: (item: LayerItem) => unknown,
): LayerLoadFix {
  return {
    code,
    find: (item) => (wrong(item) ? [{ field, message: message(item) }] : []),
    apply: (item) => (wrong(item) ? { ...item, [field]: fixed(item) } : item),
  };
}

/** DDNet's loader changes, in the order it makes them. */
export const LAYER_LOAD_FIXES: readonly LayerLoadFix[] = [
  fieldFix('LAYER_VERSION', 'layerVersion', (item) => item.layerVersion !== 0, (item) => `unused version ${item.layerVersion} is reset to 0`, () => 0),
  fieldFix(
    'PHYSICS_LAYER_NAME',
    'name',
    (item) => {
      const kind = physicsKind(item);
      return !!kind && (item as TilemapLayerItem).name !== undefined && (item as TilemapLayerItem).name !== physicsName(kind);
    },
    (item) => `name '${(item as TilemapLayerItem).name}' is reset to '${physicsName(physicsKind(item)!)}'`,
    (item) => physicsName(physicsKind(item)!),
  ),
  fieldFix(
    'PHYSICS_LAYER_COLOR',
    'color',
    (item) => {
      const c = (item as TilemapLayerItem).color;
      return !!physicsKind(item) && (c.r !== WHITE.r || c.g !== WHITE.g || c.b !== WHITE.b || c.a !== WHITE.a);
    },
    () => 'colour is reset to white',
    () => ({ ...WHITE }),
  ),
  fieldFix(
    'PHYSICS_LAYER_DETAIL',
    'flags',
    (item) => !!physicsKind(item) && (item.flags & LayerFlags.Detail) !== 0,
    () => 'detail flag is cleared',
    (item) => item.flags & ~LayerFlags.Detail,
  ),
  {
    // Data indices of the other physics kinds are reset to -1.
    code: 'PHYSICS_DATA_UNUSED',
    find(item) {
      if (item.kind !== 'tilemap') return [];
      const kind = kindOf(item);
      return unusedDataFields(item, kind).map((other) => ({ field: other.field, message: `unused ${other.kind} data index ${item[other.field] as number} is reset to -1` }));
    },
    apply(item) {
      if (item.kind !== 'tilemap') return item;
      const unused = unusedDataFields(item, kindOf(item));
      if (!unused.length) return item;
      const out = { ...item } as TilemapLayerItem;
      for (const other of unused) (out[other.field] as number) = -1;
      return out as typeof item;
    },
  },
];

/** The data index fields of physics kinds other than the layer's own that are set. */
function unusedDataFields(item: TilemapLayerItem, kind: TilemapKindInfo): TilemapKindInfo[] {
  return TILEMAP_KINDS.filter((other) => other.property && other.kind !== kind.kind && item[other.field] !== undefined && item[other.field] !== -1);
}
