// What the net commands that record or rebuild demos take from @twcodec/net beyond reading captures, loaded by
// those commands only: an import() of the package's index made the bundle put the index (which re-exports the
// live client and the demo writers) in the chunk of the capture decoder, so `net pcap` loaded them all before
// its first datagram (issue 41; bundle.mjs, the net-live chunk).
export { captureDemo, recordDemo } from '@twcodec/net';
