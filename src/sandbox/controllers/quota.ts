/**
 * The ResourceQuota controller: keeps each quota's status (`hard` as its spec says, `used` as the
 * namespace stands) up to date as objects come and go, so `kubectl describe quota` reads true.
 */
import { deepEqual, isMap } from '../json.js';
import { formatFor } from '../api/quantity.js';
import { quotaUsage } from '../api/quota-usage.js';
import type { Controller } from './manager.js';
import { get, keyOf, typeOf, writeStatus, type ControllerContext } from './runtime.js';

export function quotaController(ctx: ControllerContext): Controller {
  const quotas = typeOf(ctx, '', 'resourcequotas');
  return {
    name: 'resourcequota',
    follows: {
      // any change in a namespace may change what its quotas count
      '*': (e) => {
        const ns = e.object.metadata.namespace;
        return ns === undefined ? [] : ctx.api.store.list('/resourcequotas', ns).map(keyOf);
      },
    },
    initialKeys: () => ctx.api.store.list('/resourcequotas').map(keyOf),
    reconcile(key) {
      const q = get(ctx, quotas, key);
      if (!q || q.metadata.deletionTimestamp) return;
      const hard = isMap(q.spec) && isMap(q.spec.hard) ? q.spec.hard : {};
      const usage = quotaUsage(ctx.api, q.metadata.namespace ?? '', Object.keys(hard));
      const used = Object.fromEntries(Object.keys(hard).map((k) => [k, formatFor(k, usage.get(k) ?? 0)]));
      const status = { hard, used };
      if (!deepEqual(q.status, status)) writeStatus(ctx, quotas, q, status, 'resourcequota-controller');
    },
  };
}
