// An rcon script: logs in and runs each COMMAND, printing the lines the server answered.
// Run: node examples/bots/rcon.mjs HOST:PORT PASSWORD COMMAND...
import { connect } from '@twcodec/net/node';

const [address = '127.0.0.1:8303', password = '', ...commands] = process.argv.slice(2);
const [host = '127.0.0.1', port = '8303'] = address.split(':');

const client = await connect({ host, port: Number(port), name: 'rcon-script' });
try {
  await client.ready();
  await client.rcon.auth(password); // rejects with code RCON_AUTH_FAILED on a wrong password
  console.log(`${client.rcon.commands.size} commands granted so far`);
  for (const command of commands) {
    for (const line of await client.rcon.command(command)) console.log(line);
  }
} finally {
  client.disconnect();
}
