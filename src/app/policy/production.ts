/**
 * Which contexts are production, decided once per context for both faces: a context whose name
 * or cluster says prod (`prod`, `production`, `eu-prod-1`, `sandbox-prod`) as a word, and every
 * context the workspace lists in `.kdeck/config.yaml`:
 *
 *   production:
 *     contexts: [gke_shop_eu, gke_shop_us]
 *
 * Production is painted in the warning colour, and any change that touches it needs its name
 * typed out (or given with --confirm), never a plain y.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { kclError } from '../../diagnostics/diagnostics.js';
import { parseYamlFile, positionOf } from '../../kcl/settings.js';
import { CONFIG_FILE } from '../../state/config.js';

const PROD = /(^|[^a-z0-9])prod(uction)?([^a-z0-9]|$)/i;

export interface ContextInfo {
  name: string;
  cluster?: string;
}

/** Whether the context's own name, or its cluster's, says production. */
export function namedProduction(context: ContextInfo): boolean {
  return PROD.test(context.name) || (context.cluster !== undefined && PROD.test(context.cluster));
}

export class ProductionPolicy {
  private readonly listed: ReadonlySet<string>;

  constructor(
    private readonly contexts: readonly ContextInfo[],
    listed: readonly string[] = [],
  ) {
    this.listed = new Set(listed);
  }

  isProduction(context: string): boolean {
    if (this.listed.has(context)) return true;
    return namedProduction(this.contexts.find((c) => c.name === context) ?? { name: context });
  }

  /** The production contexts among `contexts`, sorted and without repeats. */
  among(contexts: Iterable<string>): string[] {
    return [...new Set(contexts)].filter((c) => this.isProduction(c)).sort();
  }
}

/** The production policy of the workspace at `root` over these contexts. */
export function workspaceProduction(root: string, contexts: readonly ContextInfo[]): ProductionPolicy {
  return new ProductionPolicy(contexts, listedProductionContexts(root));
}

/** The contexts `.kdeck/config.yaml` lists under `production.contexts` (none without the file). */
export function listedProductionContexts(root: string): string[] {
  const file = path.join(root, CONFIG_FILE);
  if (!fs.existsSync(file)) return [];
  const { doc, text } = parseYamlFile(file, 'kdeck config file');
  const wrong = (node: Node | null | undefined, message: string) =>
    kclError('WorkspaceError', `${message} in ${CONFIG_FILE}`, positionOf(file, text, node));
  const top = doc.contents;
  if (!isMap(top)) return [];
  const production = top.get('production', true);
  if (production === undefined || (isScalar(production) && production.value === null)) return [];
  if (!isMap(production)) throw wrong(production, 'production must be a mapping (contexts: [...])');
  for (const pair of production.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    if (key !== 'contexts')
      throw wrong(pair.key as Node, `unknown setting production.${String(key)} (known: contexts)`);
  }
  const contexts = production.get('contexts', true);
  if (contexts === undefined) return [];
  if (!isSeq(contexts)) throw wrong(contexts, 'production.contexts must be a list of context names');
  return contexts.items.map((item) => {
    const value = isScalar(item) ? item.value : undefined;
    if (typeof value !== 'string' || value === '')
      throw wrong(item as Node, 'production.contexts must be a list of context names');
    return value;
  });
}
