// The teehistorian schema model after loading and checking.

export type ThFieldType = 'int' | 'str' | 'raw' | 'rest' | 'uuid' | 'int_array' | 'str_array';

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
