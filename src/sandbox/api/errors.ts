/**
 * Failures as the API server reports them: a metav1 Status with the HTTP code, reason, message
 * and details a real server gives, so clients (kubectl, client-node) print what they print
 * against a real cluster.
 */

export interface StatusCause {
  reason?: string;
  message: string;
  field?: string;
  type?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** Which object a failure is about: `kind` is the plural resource name, as real errors give it. */
export interface Subject {
  resource: string;
  group: string;
  name: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
    /** A continue token offered with a 410 on an expired list continuation. */
    readonly continueToken?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toStatus(): Status {
    const metadata = this.continueToken === undefined ? {} : { continue: this.continueToken };
    const s: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata,
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details !== undefined) s.details = this.details;
    return s;
  }
}

/** `deployments.apps`, or `pods` for the core group: how messages name a resource. */
export function qualified(resource: string, group: string): string {
  return group === '' ? resource : `${resource}.${group}`;
}

function subjectDetails(s: Subject): StatusDetails {
  const d: StatusDetails = { name: s.name };
  if (s.group !== '') d.group = s.group;
  d.kind = s.resource;
  return d;
}

export function notFound(s: Subject): ApiError {
  return new ApiError(404, 'NotFound', `${qualified(s.resource, s.group)} "${s.name}" not found`, subjectDetails(s));
}

export function alreadyExists(s: Subject): ApiError {
  return new ApiError(
    409,
    'AlreadyExists',
    `${qualified(s.resource, s.group)} "${s.name}" already exists`,
    subjectDetails(s),
  );
}

export function conflict(
  s: Subject,
  why = 'the object has been modified; please apply your changes to the latest version and try again',
): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(s.resource, s.group)} "${s.name}": ${why}`,
    subjectDetails(s),
  );
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

export function resourceNotFound(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function methodNotAllowed(): ApiError {
  return new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

export function unsupportedMediaType(accepted: readonly string[]): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    {},
  );
}

export function unauthorized(): ApiError {
  return new ApiError(401, 'Unauthorized', 'Unauthorized');
}

export function forbidden(s: Subject, why: string, causes?: StatusCause[]): ApiError {
  const details = subjectDetails(s);
  if (causes) details.causes = causes;
  return new ApiError(403, 'Forbidden', `${qualified(s.resource, s.group)} "${s.name}" is forbidden: ${why}`, details);
}

export function internalError(why: string): ApiError {
  return new ApiError(500, 'InternalError', `Internal error occurred: ${why}`, { causes: [{ message: why }] });
}

export function tooManyRequests(
  retryAfterSeconds: number,
  message = 'Too many requests, please try again later.',
): ApiError {
  return new ApiError(
    429,
    'TooManyRequests',
    message,
    { retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

export function expired(message: string, continueToken?: string): ApiError {
  return new ApiError(410, 'Expired', message, undefined, {}, continueToken);
}

export function tooLargeResourceVersion(asked: number, current: number): ApiError {
  return new ApiError(504, 'Timeout', `Timeout: Too large resource version: ${asked}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

export function requestTooLarge(limit: number): ApiError {
  return new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

/** One invalid field; `invalid` gathers several into the 422 a real server sends. */
export interface FieldError {
  type:
    | 'FieldValueInvalid'
    | 'FieldValueRequired'
    | 'FieldValueNotSupported'
    | 'FieldValueForbidden'
    | 'FieldValueDuplicate'
    | 'FieldValueTooLong'
    | 'FieldValueTooMany';
  field: string;
  detail: string;
  value?: unknown;
}

const TYPE_TEXT: Record<FieldError['type'], string> = {
  FieldValueInvalid: 'Invalid value',
  FieldValueRequired: 'Required value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
};

function fieldErrorText(e: FieldError): string {
  const head = TYPE_TEXT[e.type];
  if (e.value === undefined || e.type === 'FieldValueRequired' || e.type === 'FieldValueForbidden')
    return e.detail === '' ? head : `${head}: ${e.detail}`;
  const shown = typeof e.value === 'string' ? JSON.stringify(e.value) : (JSON.stringify(e.value) ?? String(e.value));
  return e.detail === '' ? `${head}: ${shown}` : `${head}: ${shown}: ${e.detail}`;
}

export function invalid(kind: string, group: string, name: string, errors: readonly FieldError[]): ApiError {
  const parts = errors.map((e) => `${e.field}: ${fieldErrorText(e)}`);
  const list = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  const details: StatusDetails = { name };
  if (group !== '') details.group = group;
  details.kind = kind;
  details.causes = errors.map((e) => ({ reason: e.type, message: fieldErrorText(e), field: e.field }));
  return new ApiError(
    422,
    'Invalid',
    `${kind}${group === '' ? '' : `.${group}`} "${name}" is invalid: ${list}`,
    details,
  );
}

export function successStatus(details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details !== undefined) s.details = details;
  return s;
}
