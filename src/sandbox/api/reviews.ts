/**
 * The reviews the API server answers without storing anything — access reviews
 * (authorization.k8s.io), who-am-I and token reviews (authentication.k8s.io) — and the
 * TokenRequest of `kubectl create token`. The sandbox has one identity, its admin, who may do
 * everything (there is no RBAC enforcement); service-account tokens it issues are signed, so a
 * TokenReview can tell them from forgeries.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isMap, type JsonMap } from '../json.js';
import { rfc3339 } from '../time.js';
import type { ApiContext } from './context.js';
import { invalid, notFound } from './errors.js';
import type { KubeObject } from './object.js';
import { apiVersionOf, type ResourceType } from './resources.js';

/** Who every request with the cluster's token is. */
export const SANDBOX_ADMIN = {
  username: 'sandbox-admin',
  groups: ['system:masters', 'system:authenticated'],
};

const DEFAULT_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';
const MIN_EXPIRATION_SECONDS = 600;
const DEFAULT_EXPIRATION_SECONDS = 3600;

/** Each cluster signs its tokens with a key of its own, made when first needed. */
const signingKeys = new WeakMap<ApiContext, Buffer>();

function keyOf(ctx: ApiContext): Buffer {
  let k = signingKeys.get(ctx);
  if (!k) {
    k = randomBytes(32);
    signingKeys.set(ctx, k);
  }
  return k;
}

function b64url(v: unknown): string {
  return Buffer.from(JSON.stringify(v)).toString('base64url');
}

function sign(ctx: ApiContext, headerAndClaims: string): string {
  return createHmac('sha256', keyOf(ctx)).update(headerAndClaims).digest('base64url');
}

/** The claims of a token this cluster issued, or undefined for any other string. */
function verifiedClaims(ctx: ApiContext, token: string): JsonMap | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const want = Buffer.from(sign(ctx, `${parts[0]}.${parts[1]}`));
  const given = Buffer.from(parts[2]!);
  if (want.length !== given.length || !timingSafeEqual(want, given)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    if (!isMap(claims)) return undefined;
    if (typeof claims.exp === 'number' && claims.exp * 1000 < ctx.clock.now()) return undefined;
    return claims;
  } catch {
    return undefined;
  }
}

function answer(r: ResourceType, body: KubeObject, status: JsonMap): KubeObject {
  const metadata: KubeObject['metadata'] = { ...body.metadata, creationTimestamp: undefined };
  const o: KubeObject = { apiVersion: apiVersionOf(r), kind: r.kind, metadata, status };
  if (body.spec !== undefined) o.spec = body.spec;
  return JSON.parse(JSON.stringify(o)) as KubeObject;
}

function accessReview(r: ResourceType, body: KubeObject, self: boolean): KubeObject {
  const spec = isMap(body.spec) ? body.spec : {};
  const hasResource = isMap(spec.resourceAttributes);
  const hasNonResource = isMap(spec.nonResourceAttributes);
  if (hasResource === hasNonResource) {
    throw invalid(r.kind, r.group, '', [
      {
        type: 'FieldValueInvalid',
        field: 'spec.resourceAttributes',
        value: JSON.stringify(spec.resourceAttributes ?? null),
        detail: 'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      },
    ]);
  }
  if (self) return answer(r, body, { allowed: true });
  const groups = Array.isArray(spec.groups) ? spec.groups : [];
  const admin = spec.user === SANDBOX_ADMIN.username || groups.includes('system:masters');
  return answer(
    r,
    body,
    admin ? { allowed: true } : { allowed: false, reason: 'the kdeck sandbox authorizes only its admin' },
  );
}

/** Answers a create on a review type. */
export function answerReview(ctx: ApiContext, r: ResourceType, body: KubeObject): KubeObject {
  switch (r.kind) {
    case 'SelfSubjectAccessReview':
      return accessReview(r, body, true);
    case 'SubjectAccessReview':
    case 'LocalSubjectAccessReview':
      return accessReview(r, body, false);
    case 'SelfSubjectRulesReview':
      return answer(r, body, {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
      });
    case 'SelfSubjectReview':
      return answer(r, body, { userInfo: SANDBOX_ADMIN });
    case 'TokenReview': {
      const token = isMap(body.spec) && typeof body.spec.token === 'string' ? body.spec.token : '';
      const claims = verifiedClaims(ctx, token);
      if (!claims) return answer(r, body, { user: {}, error: 'invalid bearer token' });
      return answer(r, body, {
        authenticated: true,
        user: {
          username: String(claims.sub),
          groups: ['system:serviceaccounts', `system:serviceaccounts:${String(claims.ns)}`, 'system:authenticated'],
        },
        audiences: Array.isArray(claims.aud) ? claims.aud : [],
      });
    }
    default:
      throw notFound({ resource: r.plural, group: r.group, name: '' });
  }
}

/** `POST …/serviceaccounts/<name>/token`: a signed, expiring token for the service account. */
export function requestToken(ctx: ApiContext, namespace: string, name: string, body: unknown): KubeObject {
  const sa = ctx.store.get('/serviceaccounts', namespace, name);
  if (!sa) throw notFound({ resource: 'serviceaccounts', group: '', name });
  const spec = isMap(body) && isMap(body.spec) ? body.spec : {};
  const seconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : DEFAULT_EXPIRATION_SECONDS;
  if (seconds < MIN_EXPIRATION_SECONDS) {
    throw invalid('TokenRequest', 'authentication.k8s.io', name, [
      {
        type: 'FieldValueInvalid',
        field: 'spec.expirationSeconds',
        value: seconds,
        detail: 'may not specify a duration less than 10 minutes',
      },
    ]);
  }
  const audiences =
    Array.isArray(spec.audiences) && spec.audiences.length > 0 ? spec.audiences.map(String) : [DEFAULT_AUDIENCE];
  const now = ctx.clock.now();
  const iat = Math.floor(now / 1000);
  const claims = {
    aud: audiences,
    exp: iat + seconds,
    iat,
    nbf: iat,
    iss: DEFAULT_AUDIENCE,
    sub: `system:serviceaccount:${namespace}:${name}`,
    ns: namespace,
    'kubernetes.io': { namespace, serviceaccount: { name, uid: sa.metadata.uid ?? '' } },
  };
  const unsigned = `${b64url({ alg: 'HS256', typ: 'JWT', kid: 'kdeck-sandbox' })}.${b64url(claims)}`;
  return {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    metadata: { name, namespace },
    spec: {
      audiences,
      expirationSeconds: seconds,
      boundObjectRef: isMap(spec.boundObjectRef) ? spec.boundObjectRef : null,
    },
    status: { token: `${unsigned}.${sign(ctx, unsigned)}`, expirationTimestamp: rfc3339(now + seconds * 1000) },
  };
}
