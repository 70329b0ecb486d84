import type { UserConfig } from 'vite';
import type { ItemSchema } from './src/layout.js';

export function mapItemSchemas(): ItemSchema[];
export function teehistorianMessageDocs(): Record<string, string>;
declare const config: UserConfig;
export default config;
