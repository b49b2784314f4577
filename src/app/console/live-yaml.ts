/**
 * The live object as YAML, as `kubectl get -o yaml` shows it, for reading: the field managers'
 * bookkeeping (metadata.managedFields) left out unless asked for, and a Secret's values masked
 * unless the console was started with --show-secrets. Pure.
 */
import { stringify } from 'yaml';
import { maskSecret } from '../../diff/fields.js';
import { withoutManagedFields, type KubeObject } from '../../model/kube-object.js';
import type { Attributes } from '../../model/resource.js';

export interface YamlOptions {
  managedFields: boolean;
  showSecrets: boolean;
}

export function liveYaml(o: KubeObject, options: YamlOptions): string {
  let shown: Attributes = options.managedFields ? o : withoutManagedFields(o);
  if (!options.showSecrets) shown = maskSecret(shown);
  return stringify(shown, { lineWidth: 0 });
}
