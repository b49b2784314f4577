/**
 * The live object as YAML, as `kubectl get -o yaml` shows it, for reading: the field managers'
 * bookkeeping (metadata.managedFields) left out unless asked for, and a Secret's values masked
 * unless the console was started with --show-secrets. Pure.
 */
import { stringify } from 'yaml';
import { maskSecret } from '../../diff/fields.js';
import type { KubeObject } from '../../model/kube-object.js';
import { asObject, type Attributes } from '../../model/resource.js';

export interface YamlOptions {
  managedFields: boolean;
  showSecrets: boolean;
}

export function liveYaml(o: KubeObject, options: YamlOptions): string {
  let shown = o as Attributes;
  if (!options.managedFields && asObject(o.metadata).managedFields !== undefined) {
    const { managedFields: _hidden, ...metadata } = asObject(o.metadata);
    shown = { ...shown, metadata };
  }
  if (!options.showSecrets) shown = maskSecret(shown);
  return stringify(shown, { lineWidth: 0 });
}
