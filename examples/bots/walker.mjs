// A bot that walks right and jumps once a second, for SECONDS seconds (default 3), then prints how far it got.
// Run: node examples/bots/walker.mjs HOST:PORT [SECONDS]
import { connect } from '@twcodec/net/node';

const [host = '127.0.0.1', port = '8303'] = (process.argv[2] ?? '127.0.0.1:8303').split(':');
const seconds = Number(process.argv[3] ?? 3);

const bot = await connect({ host, port: Number(port), name: 'walker' });
await bot.ready();
// The own character appears with a snapshot after the client entered the game.
while (!bot.game.character) await new Promise((r) => setTimeout(r, 20));
const start = bot.game.character.x;

bot.move('right');
const jumping = setInterval(() => {
  bot.jump(true);
  // Let go a tick later: a jump happens when the key goes down.
  setTimeout(() => bot.jump(false), 100);
}, 1000);

await new Promise((r) => setTimeout(r, seconds * 1000));
clearInterval(jumping);
console.log(`walked from x=${start} to x=${bot.game.character?.x}`);
bot.disconnect();
