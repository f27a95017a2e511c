/**
 * A TCP proxy between the server and PostgreSQL that breaks the link on demand, the way a
 * database restart or a network fault does, without touching the database server itself:
 * drop every connection at once, refuse new ones for a while, drop only the connections of
 * one application (PostgreSQL's `application_name`, read from each connection's startup message),
 * or black-hole the link (a partition: nothing gets through either way, and nothing is closed,
 * so each side learns of it only from its own timeouts).
 * It counts the connections it turned away per application, so a test can wait until a client
 * has tried (and been refused) a number of times instead of waiting a while.
 */
import { EventEmitter, once } from 'node:events';
import net from 'node:net';

interface Link {
  client: net.Socket;
  upstream: net.Socket | null;
  applicationName: string | null;
}

/** The extended protocol's Sync message ('S', length 4): the server runs what came before it. */
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/** The parameters of a PostgreSQL startup message: length, protocol, then name/value C strings. */
function startupApplicationName(packet: Buffer): string | null {
  if (packet.length < 8 || packet.readInt32BE(4) !== 196608) return null;
  const fields = packet.subarray(8, packet.readInt32BE(0)).toString('utf8').split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2)
    if (fields[i] === 'application_name') return fields[i + 1] ?? null;
  return null;
}

export class FaultProxy {
  private readonly links = new Set<Link>();
  private readonly blocked = new Set<string>();
  private readonly refused = new Map<string, number>();
  private readonly events = new EventEmitter();
  private server: net.Server | null = null;
  private holed = false;
  /** What clients sent into the black hole, for a test to see what they tried. */
  private swallowed: Buffer[] = [];
  /** Black-holes the link once a client has sent this text and the Sync that runs it. */
  private holeAfter: string | null = null;
  port = 0;

  private constructor(
    private readonly upstreamHost: string,
    private readonly upstreamPort: number,
  ) {}

  static async start(upstreamHost: string, upstreamPort: number): Promise<FaultProxy> {
    const proxy = new FaultProxy(upstreamHost, upstreamPort);
    await proxy.accept();
    return proxy;
  }

  /** `url` with its host and port replaced by this proxy's. */
  route(url: string): string {
    const routed = new URL(url);
    routed.hostname = '127.0.0.1';
    routed.port = String(this.port);
    return routed.toString();
  }

  /**
   * The local ports of the proxy's connections to the database: what PostgreSQL sees as their
   * `client_port`, so a test can tell which backends belong to the clients behind this proxy.
   */
  upstreamPorts(): Set<number> {
    const ports = new Set<number>();
    for (const link of this.links) if (link.upstream?.localPort) ports.add(link.upstream.localPort);
    return ports;
  }

  get openConnections(): number {
    return this.links.size;
  }

  /** Listens (again, on the same port once it has one): new connections go through. */
  async accept(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((client) => this.link(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Stops listening: every new connection is refused until `accept()`. Open ones stay. */
  refuse(): void {
    this.server?.close();
    this.server = null;
  }

  /** Cuts the connections of one application, and every new one it makes until `unblock()`. */
  block(applicationName: string): number {
    this.blocked.add(applicationName);
    return this.dropApplication(applicationName);
  }

  unblock(applicationName: string): void {
    this.blocked.delete(applicationName);
  }

  /** How many connections of `applicationName` were turned away while it was blocked. */
  refusals(applicationName: string): number {
    return this.refused.get(applicationName) ?? 0;
  }

  /**
   * Resolves once `count` connections of `applicationName` have been turned away in all, woken
   * by each refusal; `timeoutMs` only guards against a client that stopped trying.
   */
  async waitForRefusals(applicationName: string, count: number, timeoutMs: number): Promise<void> {
    const signal = AbortSignal.timeout(timeoutMs);
    while (this.refusals(applicationName) < count) {
      try {
        await once(this.events, 'refused', { signal });
      } catch {
        throw new Error(
          `${applicationName}: ${this.refusals(applicationName)} of ${count} connections refused before the time limit`,
        );
      }
    }
  }

  /**
   * Stops forwarding anything, either way, on every connection open or new, without closing
   * any: what a network partition does. The server's end may time out and close meanwhile; the
   * client hears nothing of it.
   */
  blackHole(): void {
    this.holed = true;
    this.holeAfter = null;
  }

  /**
   * Black-holes the link right after a client sends a statement containing `text` and the Sync
   * that makes the server run it: the statement runs (taking its locks) and its answer never
   * comes back. Resolves once the link is cut.
   */
  async blackHoleAfter(text: string, timeoutMs: number): Promise<void> {
    this.holeAfter = text;
    await once(this.events, 'holed', { signal: AbortSignal.timeout(timeoutMs) });
  }

  /** Everything clients sent while the link was black-holed, as text. */
  swallowedText(): string {
    return Buffer.concat(this.swallowed).toString('latin1');
  }

  get isBlackHoled(): boolean {
    return this.holed;
  }

  /** The partition heals: connections held in the black hole are closed, new ones go through. */
  restore(): void {
    this.holed = false;
    this.swallowed = [];
    this.holeAfter = null;
    this.dropAll();
  }

  /** Cuts every open connection, as a database restart does. */
  dropAll(): number {
    return this.dropWhere(() => true);
  }

  /** Cuts the open connections of one application only. */
  dropApplication(applicationName: string): number {
    return this.dropWhere((link) => link.applicationName === applicationName);
  }

  close(): void {
    this.refuse();
    this.dropAll();
  }

  private dropWhere(predicate: (link: Link) => boolean): number {
    let dropped = 0;
    for (const link of [...this.links]) {
      if (!predicate(link)) continue;
      link.client.destroy();
      link.upstream?.destroy();
      this.links.delete(link);
      dropped += 1;
    }
    return dropped;
  }

  private link(client: net.Socket) {
    const link: Link = { client, upstream: null, applicationName: null };
    this.links.add(link);
    const end = () => {
      client.destroy();
      link.upstream?.destroy();
      this.links.delete(link);
    };
    client.on('error', end);
    if (this.holed) {
      // A partition: the connection is never answered (the client's connect timeout decides).
      client.on('close', end);
      return;
    }
    const upstream = net.connect(this.upstreamPort, this.upstreamHost);
    link.upstream = upstream;
    let holeAtSync = false;
    const fromClient = (chunk: Buffer) => {
      if (this.holed) {
        this.swallowed.push(chunk);
        return;
      }
      upstream.write(chunk);
      if (this.holeAfter !== null && chunk.includes(this.holeAfter)) {
        holeAtSync = true;
        chunk = chunk.subarray(chunk.indexOf(this.holeAfter));
      }
      if (holeAtSync && chunk.includes(SYNC)) {
        this.blackHole();
        this.events.emit('holed');
      }
    };
    client.once('data', (first: Buffer) => {
      link.applicationName = startupApplicationName(first);
      if (link.applicationName && this.blocked.has(link.applicationName)) {
        end();
        this.refused.set(link.applicationName, this.refusals(link.applicationName) + 1);
        this.events.emit('refused', link.applicationName);
        return;
      }
      fromClient(first);
      client.on('data', fromClient);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!this.holed) client.write(chunk);
    });
    // In a partition neither side hears the other close: each end is left to its own timeouts
    // (`restore()` clears away what is left).
    const gone = () => {
      if (!this.holed) end();
    };
    client.off('error', end);
    client.on('error', gone).on('close', gone);
    upstream.on('error', gone).on('close', gone);
  }
}
