/**
 * The `template` system module: Handlebars templates, as kcl renders them with the Rust
 * handlebars crate (HTML-escaping `{{x}}`, raw `{{{x}}}`, `#if`, `#each`, `#with`).
 */
import { createRequire } from 'node:module';
import { expectStr, optionalArg, requiredArg, type Impl, type Signature } from '../args.js';
import type { CallArgs, ModuleValue, Value } from '../values.js';
import { isDict, isNoneOrUndefined } from '../values.js';
import { plainData } from '../../yaml.js';
import { evalError, makeModule, sig } from './common.js';

type Handlebars = typeof import('handlebars');

/**
 * Handlebars is loaded on the first template call, not with the compiler: with source-map it is
 * some fifty of the files a compile would otherwise load, and few programs render a template.
 * `require` because the evaluator is synchronous and handlebars is a CommonJS package.
 */
let loaded: Handlebars | undefined;
function handlebars(): Handlebars {
  if (loaded) return loaded;
  const hb = (createRequire(import.meta.url)('handlebars') as Handlebars).create();
  // kcl's helper for unescaped output, besides `{{{x}}}`
  hb.registerHelper('raw', (v: unknown) => new hb.SafeString(String(v)));
  return (loaded = hb);
}

/** A list that prints as the Rust crate prints it: `[a, b]`. */
class TemplateList extends Array<unknown> {
  override toString(): string {
    return `[${this.map(String).join(', ')}]`;
  }
}

/** Template data whose lists and maps print as kcl's renderer prints them. */
function forTemplate(x: unknown): unknown {
  if (Array.isArray(x)) return TemplateList.from(x.map(forTemplate));
  if (x !== null && typeof x === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) out[k] = forTemplate(v);
    Object.defineProperty(out, 'toString', { value: () => '[object]', enumerable: false });
    return out;
  }
  return x;
}

function execute(call: CallArgs): Value {
  const template = expectStr(requiredArg(call, 0, 'template'), 'execute', 'template');
  const data = optionalArg(call, 1, 'data');
  if (data !== undefined && !isNoneOrUndefined(data) && !isDict(data)) evalError('execute() data must be a dict');
  try {
    return handlebars().compile(template)(data === undefined ? {} : forTemplate(plainData(data)));
  } catch (e) {
    return evalError(`execute() failed to render the template: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function htmlEscape(call: CallArgs): Value {
  return handlebars().Utils.escapeExpression(expectStr(requiredArg(call, 0, 'data'), 'html_escape', 'data'));
}

const DEFINITIONS: ReadonlyArray<readonly [Signature, Impl]> = [
  [sig('execute', ['template', 'data'], 1), execute],
  [sig('html_escape', ['data'], 1), htmlEscape],
];

export function templateModule(): ModuleValue {
  return makeModule('template', DEFINITIONS);
}
