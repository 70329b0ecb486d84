// What the CLI takes from @twcodec/runtime where it imports it when needed (an error's message, standard input's
// chunks): named imports in a module of their own. An import() of the package itself would make the bundle build
// the runtime's namespace object, an object of a getter for each of its hundred-odd exports, whenever the runtime
// chunk loads, in every map command (start-up, issue 41).
export { CodecError, concatBytes, describeSource, errorAbout } from '@twcodec/runtime';
