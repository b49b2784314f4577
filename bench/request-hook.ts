/**
 * For the benches that time kdeck from outside: a callback for every request the process sends,
 * HTTP/1.1 (node's diagnostics channel) or HTTP/2 (Node 20 has no channel for it, so the
 * sessions `http2.connect` opens are wrapped), with its method, path and host:port.
 */
import diagnostics from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import http2 from 'node:http2';

export type RequestListener = (method: string, path: string, authority: string) => void;

export function onRequest(listener: RequestListener): () => void {
  const h1 = (message: unknown) => {
    const { request } = message as { request: ClientRequest };
    listener(request.method, request.path, String(request.getHeader('host') ?? ''));
  };
  diagnostics.subscribe('http.client.request.start', h1);
  const connect = http2.connect;
  http2.connect = ((...args: Parameters<typeof connect>) => {
    const session = connect(...args);
    const request = session.request.bind(session);
    session.request = (headers, options) => {
      listener(String(headers?.[':method'] ?? 'GET'), String(headers?.[':path'] ?? ''), new URL(String(args[0])).host);
      return request(headers, options);
    };
    return session;
  }) as typeof connect;
  return () => {
    diagnostics.unsubscribe('http.client.request.start', h1);
    http2.connect = connect;
  };
}
