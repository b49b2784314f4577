/**
 * The name rules of the API server (RFC 1123 subdomains and labels, RFC 1035 labels) with the
 * messages it gives when a name breaks them.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export type NameRule = 'subdomain' | 'label' | 'dns1035';

/** Problems with a name, in the server's words; empty when the name is fine. */
export function nameProblems(name: string, rule: NameRule): string[] {
  const out: string[] = [];
  switch (rule) {
    case 'subdomain':
      if (name.length > 253) out.push('must be no more than 253 characters');
      if (!DNS1123_SUBDOMAIN.test(name)) {
        out.push(
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        );
      }
      break;
    case 'label':
      if (name.length > 63) out.push('must be no more than 63 characters');
      if (!DNS1123_LABEL.test(name)) {
        out.push(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        );
      }
      break;
    case 'dns1035':
      if (name.length > 63) out.push('must be no more than 63 characters');
      if (!DNS1035_LABEL.test(name)) {
        out.push(
          "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        );
      }
      break;
  }
  return out;
}

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** Problems with a label or annotation key (`prefix/name`). */
export function keyProblems(key: string): string[] {
  const slash = key.indexOf('/');
  const prefix = slash < 0 ? '' : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  const out: string[] = [];
  if (slash >= 0 && (prefix === '' || nameProblems(prefix, 'subdomain').length > 0))
    out.push(
      "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
    );
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME.test(name)) {
    out.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
  }
  return out;
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export function labelValueProblems(v: string): string[] {
  if (v.length <= 63 && LABEL_VALUE.test(v)) return [];
  return [
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  ];
}
