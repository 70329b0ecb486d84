// Types of test/net-hostile-server.mjs (plain JavaScript, runnable with node alone).
export interface HostileServer {
  port: number;
  stop(): void;
}
export function startHostileServer(mode: 'keyframes' | 'chat' | 'ticks', port?: number, options?: { mapName?: string }): Promise<HostileServer>;
