// map fix: map-tools' fixer and what it uses, not the whole of @twcodec/map-tools (importing its index loaded
// every map tool, the PNG writer with fflate's tables among them: start-up, issue 41; docs/performance.md).
export { fixMap } from '@twcodec/map-tools';
