import type { UserConfig } from 'vite';
import type { ItemSchema } from './src/layout.js';
import type { StreamDocs } from './src/streams.js';

export function mapItemSchemas(): ItemSchema[];
export function teehistorianMessageDocs(): Record<string, string>;
export function streamDocs(): StreamDocs;
declare const config: UserConfig;
export default config;
