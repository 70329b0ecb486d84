// The teehistorian schema model after loading and checking.

export type ThFieldType = 'int' | 'string' | 'raw' | 'raw_rest' | 'uuid' | 'int_array' | 'string_array';

export interface ThFieldDef {
  name: string;
  type: ThFieldType;
  count?: number;
  description: string;
}

export interface ThMessageDef {
  name: string;
  id: number;
  description: string;
  fields: ThFieldDef[];
}

export interface ThExtensionDef {
  name: string;
  uuid_name: string;
  uuidName: string;
  uuid: string;
  since: string;
  description: string;
  fields: ThFieldDef[];
}

/** A number the reader and writer need besides the messages (exported as NAME). */
export interface ThConstantDef {
  name: string;
  value: number;
  description: string;
}

/** A key of the file's JSON header. */
export interface ThHeaderKeyDef {
  key: string;
  type: string;
  since: string;
  example: string;
  description: string;
}

export interface TeehistorianSchema {
  messages: ThMessageDef[];
  extensions: ThExtensionDef[];
  /** The name whose version-3 UUID starts every file, and that UUID. */
  fileUuidName: string;
  fileUuid: string;
  constants: ThConstantDef[];
  /** The schema file that holds the file's UUID name (for comments of what is generated from it). */
  coreFile: string;
  /** The header's keys, in the order DDNet writes them. */
  headerKeys: ThHeaderKeyDef[];
  /** Where the core file's facts were checked. */
  checked: string[];
}
