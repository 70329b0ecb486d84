// A watcher: prints the server's events as JSON lines for SECONDS seconds (default 60), connecting again
// when the connection ends (a time-out, a restart of the server).
// Run: node examples/bots/watcher.mjs HOST:PORT [SECONDS]
import { stayConnected } from '@twcodec/net/node';

const [host = '127.0.0.1', port = '8303'] = (process.argv[2] ?? '127.0.0.1:8303').split(':');
const seconds = Number(process.argv[3] ?? 60);

await stayConnected({
  host,
  port: Number(port),
  name: 'watcher',
  reconnect: { initialDelay: 1000, maxDelay: 30000 },
  signal: AbortSignal.timeout(seconds * 1000),
  onClient(client) {
    client.game.on('*', (event) => console.log(JSON.stringify(event)));
  },
  onRetry(close, delay) {
    console.log(JSON.stringify({ type: 'disconnected', reason: close.reason, retryIn: delay }));
  },
});
