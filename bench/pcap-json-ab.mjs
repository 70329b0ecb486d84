// The JSON lines of `net pcap` alone, warm, two builds of the CLI alternating in one process (issue 41): the
// capture is decoded and tracked once (this checkout's packages/net), then each build's writeDatagram writes
// every datagram's line into its own JsonBytes, round after round, and the least and median CPU time of each
// are printed. One process and alternating rounds keep the load of a shared machine out of the comparison far
// better than whole processes do. Run with the inlining budget `net pcap` sets (packages/cli/src/net.ts):
//   node --max-inlined-bytecode-size-cumulative=250 bench/pcap-json-ab.mjs CAPTURE DIST_A DIST_B [ROUNDS]
// DIST_A and DIST_B are a build's packages/cli/dist (main's: /path/to/main/packages/cli/dist); a capture cut at
// 10 MB of the bench's built one (head -c) is what docs/performance.md measured.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "./common.mjs";

const [capture, distA, distB, roundsArg] = process.argv.slice(2);
if (!capture || !distA || !distB)
  throw new Error(
    "usage: bench/pcap-json-ab.mjs CAPTURE DIST_A DIST_B [ROUNDS]"
  );
const rounds = Number(roundsArg ?? 15);
const moduleOf = (path) => import(pathToFileURL(resolve(path)).href);
const net = await moduleOf(
  join(repoRoot, "packages", "net", "dist", "index.js")
);
const sides = [];
for (const dir of [distA, distB]) {
  const { JsonBytes } = await moduleOf(join(dir, "fast-json.js"));
  sides.push({
    dir,
    lines: await moduleOf(join(dir, "net-pcap-lines.js")),
    w: new JsonBytes(),
    times: [],
  });
}
const datagrams = [];
const tracked = [];
// Each datagram's route number (CaptureDecoder.route, -1 before it had one), which netPcap passes to
// writeDatagram; builds without that parameter leave it.
const routes = [];
const tracker = new net.ConnectionTracker();
const decoder = new net.CaptureDecoder({}, readFileSync(capture));
try {
  for (let d = decoder.next(); d; d = decoder.next()) {
    datagrams.push(d);
    routes.push(decoder.route ?? -1);
    tracked.push(tracker.feed(d));
  }
} catch {
  // A capture cut by head -c ends in a TRUNCATED record: the datagrams before it are the work.
}
for (let r = 0; r < rounds; r++) {
  for (const side of r & 1 ? [...sides].reverse() : sides) {
    const { lines, w } = side;
    // Builds before the newline parameter wrote the newline apart, and copied the bytes out (takeBytes).
    const withNewline = lines.writeDatagram.length >= 4;
    const take = (w.lendBytes ?? w.takeBytes).bind(w);
    const start = process.cpuUsage();
    for (let i = 0; i < datagrams.length; i++) {
      if (withNewline) lines.writeDatagram(w, datagrams[i], tracked[i], true, routes[i]);
      else {
        lines.writeDatagram(w, datagrams[i], tracked[i]);
        w.byte(10);
      }
      if (w.at > 300_000) take();
    }
    take();
    const used = process.cpuUsage(start);
    side.times.push((used.user + used.system) / 1000);
  }
}
console.log(
  `JSON lines of ${
    datagrams.length
  } datagrams, ${rounds} rounds each, alternating; load ${readFileSync(
    "/proc/loadavg",
    "utf8"
  )
    .split(" ")
    .slice(0, 3)
    .join(" ")}`
);
for (const { dir, times } of sides) {
  times.sort((a, b) => a - b);
  console.log(
    `  ${dir}: least ${times[0].toFixed(1)} ms, median ${times[
      rounds >> 1
    ].toFixed(1)} ms`
  );
}
