/**
 * CRD files beside a stack: as kusion does, every `*.yaml`, `*.yml` and `*.json` file in the
 * `crd/` folder of the stack's parent (the project) is added to the stack's Spec as Kubernetes
 * resources, one per document.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { kclError } from '../diagnostics/diagnostics.js';
import { yamlSyntaxError } from '../kcl/settings.js';
import { resourceFromManifest } from './spec.js';
import { isObject, type Resource } from '../model/resource.js';

const CRD_FILE = /\.(ya?ml|json)$/;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return filesUnder(p);
      return CRD_FILE.test(e.name) ? [p] : [];
    });
}

export function crdResources(stackDir: string): Resource[] {
  const dir = path.join(path.dirname(stackDir), 'crd');
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return [];
  return filesUnder(dir).flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    const docs = YAML.parseAllDocuments(text);
    const resources: Resource[] = [];
    for (const doc of docs) {
      if (doc.errors[0]) throw yamlSyntaxError(file, doc.errors[0], 'a CRD file', 'SpecError');
      const obj: unknown = doc.toJS();
      if (obj === null || obj === undefined) continue;
      if (!isObject(obj))
        throw kclError(
          'SpecError',
          `${file}: a CRD file holds Kubernetes objects, not ${Array.isArray(obj) ? 'a list' : typeof obj}`,
        );
      resources.push(resourceFromManifest(obj, file));
    }
    return resources;
  });
}
