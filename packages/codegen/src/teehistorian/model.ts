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

export interface TeehistorianSchema {
  messages: ThMessageDef[];
  extensions: ThExtensionDef[];
}
