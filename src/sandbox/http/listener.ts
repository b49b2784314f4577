/**
 * One loopback port that speaks both HTTPS and plain HTTP: the first bytes of a connection tell
 * a TLS handshake (0x16) from an HTTP request. kubectl needs https:// (it sends credentials to
 * no other); client-node pays a new TLS handshake per request (version 1.4 makes an agent for
 * each), so in-process clients may prefer http:// on the same port. Both ask for the token.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { TlsIdentity } from './self-signed.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
/** What to say to a request for a protocol upgrade (exec, attach, port-forward), as raw HTTP. */
type UpgradeAnswer = (req: IncomingMessage) => string;

const TLS_HANDSHAKE = 0x16;

export class LoopbackListener {
  private readonly tcp: net.Server;
  private readonly plain: http.Server;
  private readonly secure: https.Server;
  private readonly sockets = new Set<Socket>();

  constructor(identity: TlsIdentity, handler: Handler, upgrade: UpgradeAnswer) {
    this.plain = http.createServer(handler);
    this.secure = https.createServer({ cert: identity.cert, key: identity.key }, handler);
    for (const s of [this.plain, this.secure]) {
      s.on('upgrade', (req: IncomingMessage, socket: Socket) => socket.end(upgrade(req)));
      s.requestTimeout = 60_000;
      s.headersTimeout = 30_000;
      s.keepAliveTimeout = 30_000;
      s.on('clientError', (_err, socket) => {
        if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
        else socket.destroy();
      });
    }
    this.tcp = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => socket.destroy());
      // a connection that never says anything is not kept
      socket.setTimeout(30_000, () => socket.destroy());
      this.sniff(socket);
    });
  }

  /** Reads the first bytes (without flowing the stream), puts them back, hands the socket on. */
  private sniff(socket: Socket): void {
    const first = socket.read() as Buffer | null;
    if (first === null) {
      socket.once('readable', () => this.sniff(socket));
      return;
    }
    socket.setTimeout(0);
    socket.unshift(first);
    if (first[0] === TLS_HANDSHAKE) {
      socket.allowHalfOpen = false;
      this.secure.emit('connection', socket);
    } else {
      this.plain.emit('connection', socket);
    }
  }

  /** Listens on 127.0.0.1 (port 0: a free one); resolves to the port. */
  listen(port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (e: Error) => reject(e);
      this.tcp.once('error', onError);
      this.tcp.listen(port, '127.0.0.1', () => {
        this.tcp.off('error', onError);
        resolve((this.tcp.address() as AddressInfo).port);
      });
    });
  }

  /** Stops listening and drops every connection. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.tcp.close(() => resolve());
      this.plain.closeAllConnections();
      this.secure.closeAllConnections();
      for (const s of this.sockets) s.destroy();
    });
  }
}
