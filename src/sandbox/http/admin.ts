/**
 * The sandbox's own endpoints, under `/__sandbox/` (the cluster's bearer token required):
 *   GET    /__sandbox/          the cluster: name, nodes, faults, resourceVersion
 *   GET    /__sandbox/faults    the faults in force
 *   PUT    /__sandbox/faults    replace them (JSON, the shape of FaultSettings)
 *   PATCH  /__sandbox/faults    change some of them
 *   DELETE /__sandbox/faults    clear them all
 *   POST   /__sandbox/compact   forget the watch history (older resourceVersions get 410)
 * They answer even while the cluster plays dead (`unresponsive`), so a demo can bring it back.
 */
import { ApiError, badRequest, methodNotAllowed, resourceNotFound } from '../api/errors.js';
import { noFaults, parseFaultSettings, type Faults } from '../faults.js';
import type { AdminHandler } from './server.js';
import type { Reply } from './handlers.js';

export interface AdminTarget {
  name: string;
  faults: Faults;
  describe(): Record<string, unknown>;
  compact(): void;
}

function decode(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw badRequest('the body must be JSON');
  }
}

function settings(v: unknown, base = noFaults()) {
  try {
    return parseFaultSettings(v, base);
  } catch (e) {
    throw new ApiError(422, 'Invalid', e instanceof Error ? e.message : String(e));
  }
}

export function adminHandler(t: AdminTarget): AdminHandler {
  return (method, path, body): Reply => {
    const [what, ...rest] = path;
    if (rest.length > 0) throw resourceNotFound();
    if (what === undefined) {
      if (method !== 'GET') throw methodNotAllowed();
      return { status: 200, body: t.describe() };
    }
    if (what === 'compact') {
      if (method !== 'POST') throw methodNotAllowed();
      t.compact();
      return { status: 200, body: { compacted: true } };
    }
    if (what !== 'faults') throw resourceNotFound();
    switch (method) {
      case 'GET':
        return { status: 200, body: t.faults.current };
      case 'PUT':
        t.faults.set(settings(decode(body)));
        return { status: 200, body: t.faults.current };
      case 'PATCH':
        t.faults.set(settings(decode(body), { ...t.faults.current }));
        return { status: 200, body: t.faults.current };
      case 'DELETE':
        t.faults.clear();
        return { status: 200, body: t.faults.current };
      default:
        throw methodNotAllowed();
    }
  };
}
