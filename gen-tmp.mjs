import { writeFileSync } from 'node:fs';
import { syntheticTeehistorian } from './bench/synthetic-teehistorian.mjs';
writeFileSync(process.argv[2], syntheticTeehistorian(Number(process.argv[3]) * 1e6));
