// @twcodec/teehistorian/constants: the file's constants from schemas/teehistorian, in a module that imports
// nothing at run time, for tools that tell a teehistorian file by its first bytes without loading the codecs.
export { MAX_CLIENTS, TEEHISTORIAN_UUID, TEEHISTORIAN_UUID_NAME } from './generated/constants.gen.js';
