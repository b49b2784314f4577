/**
 * One loopback port that speaks both HTTPS and plain HTTP: the first bytes of a connection tell
 * a TLS handshake (0x16) from an HTTP request. kubectl needs https:// (it sends credentials to
 * no other); client-node pays a new TLS handshake per request (version 1.4 makes an agent for
 * each), so in-process clients may prefer http:// on the same port. Both ask for the token.
 * Over TLS the port offers HTTP/2 first, as an API server does (kubectl and kdeck then send
 * every call of a cluster over one connection), and HTTP/1.1 to clients that ask for it.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import http2 from 'node:http2';
import net, { type AddressInfo, type Socket } from 'node:net';
import tls from 'node:tls';
import type { TlsIdentity } from './self-signed.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
/** What to say to a request for a protocol upgrade (exec, attach, port-forward), as raw HTTP. */
type UpgradeAnswer = (req: IncomingMessage) => string;

const TLS_HANDSHAKE = 0x16;

export class LoopbackListener {
  private readonly tcp: net.Server;
  private readonly plain: http.Server;
  /** TLS first, then HTTP/2 or HTTP/1.1 as the client chose (ALPN). */
  private readonly secure: tls.Server;
  private readonly h2: http2.Http2Server;
  private readonly sockets = new Set<Socket>();

  constructor(identity: TlsIdentity, handler: Handler, upgrade: UpgradeAnswer) {
    // HTTP/1.1, plain or over TLS: the same server and limits either way
    this.plain = http.createServer(handler);
    this.plain.on('upgrade', (req: IncomingMessage, socket: Socket) => socket.end(upgrade(req)));
    this.plain.on('clientError', (_err: Error, socket: Socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
    this.plain.requestTimeout = 60_000;
    this.plain.headersTimeout = 30_000;
    this.plain.keepAliveTimeout = 30_000;
    // HTTP/2's compatibility API answers with the same calls as node:http's (the handler sets no
    // connection-level header, which HTTP/2 forbids)
    this.h2 = http2.createServer(
      { settings: { initialWindowSize: 1 << 20 } },
      handler as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void,
    );
    // a large apply's bodies come in without waiting for the connection's window to open again
    this.h2.on('session', (session) => session.setLocalWindowSize(16 << 20));
    this.secure = tls.createServer(
      { cert: identity.cert, key: identity.key, ALPNProtocols: ['h2', 'http/1.1'] },
      (socket) => (socket.alpnProtocol === 'h2' ? this.h2 : this.plain).emit('connection', socket),
    );
    this.secure.on('tlsClientError', (_err, socket) => socket.destroy());
    this.tcp = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => socket.destroy());
      // answers go out at once (node:http does this for its own connections, HTTP/2 does not)
      socket.setNoDelay(true);
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
      // the TLS connections, HTTP/2 sessions or not, end with their sockets
      for (const s of this.sockets) s.destroy();
    });
  }
}
