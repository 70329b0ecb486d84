// A chat bot: answers "!ping" with "pong <name>" for SECONDS seconds (default 60), then leaves.
// Run: node examples/bots/chat-bot.mjs HOST:PORT [SECONDS]
import { connect } from '@twcodec/net/node';

const [host = '127.0.0.1', port = '8303'] = (process.argv[2] ?? '127.0.0.1:8303').split(':');
const seconds = Number(process.argv[3] ?? 60);

const bot = await connect({ host, port: Number(port), name: 'pingbot' });
await bot.ready();
bot.game.on('chat', (e) => {
  if (e.text === '!ping' && e.clientId !== bot.game.ownClientId) {
    bot.say(`pong ${e.name ?? e.clientId}`);
    console.log(`answered ${e.name}`);
  }
});
setTimeout(() => bot.disconnect(), seconds * 1000);
