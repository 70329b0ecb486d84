// The rcon client (client.rcon, `net rcon`) against real servers on 127.0.0.1 (DDNet-Server 16.4 and
// teeworlds-server 0.7.5, test/live-servers.ts) started with an rcon password: `net rcon ... status` lists a
// connected player, a wrong password exits 1 with one line, the library gets the command list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../packages/net/src/node.js';
import { runCli } from '../cli-run.js';
import { hasServer, type LiveServer, SERVER_BINARIES, startServer } from '../live-servers.js';

for (const protocol of ['0.6', '0.7'] as const) {
  describe.skipIf(!hasServer(protocol))(`rcon on a live ${protocol} server (${SERVER_BINARIES[protocol]}; skipped when not installed)`, () => {
    let server: LiveServer;
    beforeAll(async () => {
      server = await startServer(protocol, { rcon: true });
    });
    afterAll(() => server?.stop());
    const address = () => `127.0.0.1:${server.port}`;

    it('net rcon ... status lists a connected player', async () => {
      const player = await connect({ host: '127.0.0.1', port: server.port, protocol, name: 'listed' });
      try {
        await player.ready();
        const { code, stdout, stderr } = await runCli(['net', 'rcon', address(), '--password', server.rconPassword, '--name', 'admin', '--protocol', protocol, 'status']);
        expect(stderr).toBe('');
        expect(code).toBe(0);
        expect(stdout).toMatch(/name='listed'|name=listed|"listed"/);
      } finally {
        player.disconnect();
      }
    }, 30000);

    it('a wrong password exits 1 with one line', async () => {
      const { code, stdout, stderr } = await runCli(['net', 'rcon', address(), '--password', 'not-the-password', '--protocol', protocol, 'status']);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/refused the rcon password \(it said "Wrong password/);
    }, 30000);

    // Teeworlds 0.7.5 prints nothing for a variable set (nor for change_map, which first ends the round): the
    // answer ends --quiet after the server acknowledged the command. Before, net rcon waited all of --timeout.
    it('a command that prints nothing ends soon after the server has it, not at --timeout', async () => {
      const started = Date.now();
      const { code, stdout, stderr } = await runCli(['net', 'rcon', address(), '--password', server.rconPassword, '--protocol', protocol, '--timeout', '30', 'sv_motd', 'twcodec was here']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      if (protocol === '0.7') expect(stdout).toBe('');
      expect(Date.now() - started).toBeLessThan(15_000);
    }, 45000);

    it('client.rcon: auth, the command list, a command\'s lines; a command before auth is NOT_AUTHED', async () => {
      const client = await connect({ host: '127.0.0.1', port: server.port, protocol, name: 'lib-admin' });
      try {
        await client.ready();
        await expect(client.rcon.command('status')).rejects.toMatchObject({ code: 'NOT_AUTHED' });
        await expect(client.rcon.auth('wrong')).rejects.toMatchObject({ code: 'RCON_AUTH_FAILED' });
        expect(client.rcon.authed).toBe(false);
        await client.rcon.auth(server.rconPassword);
        expect(client.rcon.authed).toBe(true);
        const lines = await client.rcon.command('echo twcodec-echo-line');
        expect(lines.some((l) => l.includes('twcodec-echo-line'))).toBe(true);
        // The command list comes after the login, a few commands a tick (DDNet) or all at once (0.7.5).
        const until = Date.now() + 5000;
        while (!client.rcon.commands.has('change_map') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        expect(client.rcon.commands.get('change_map')).toMatchObject({ name: 'change_map' });
      } finally {
        client.disconnect();
      }
    }, 30000);
  });
}
