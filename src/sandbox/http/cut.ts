/**
 * Dropping a request as a broken connection would: over HTTP/1.1 its socket goes, over HTTP/2
 * its stream is reset and the connection's other streams go on, as with an API server. (Ended
 * without an error, an HTTP/2 stream would look to the client like a complete answer.)
 */
import type { ServerResponse } from 'node:http';

export function cut(res: ServerResponse): void {
  res.destroy(new Error('connection dropped by the sandbox'));
}
