declare module 'virtual:map-item-schemas' {
  import type { ItemSchema } from './layout.js';
  const schemas: ItemSchema[];
  export default schemas;
}
declare module 'virtual:teehistorian-message-docs' {
  const docs: Record<string, string>;
  export default docs;
}
declare module 'virtual:stream-docs' {
  import type { StreamDocs } from './streams.js';
  const docs: StreamDocs;
  export default docs;
}
