/**
 * A generated Konfig workspace for the benches: one stack (apps/load/many unless told) of a
 * namespace and, per app, a ConfigMap, a Service and a Deployment that depends on both: 1 + 3 ×
 * apps resources. The stack names no cluster, so `--context` decides. Written to a new
 * temporary folder, whose path is returned.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const GENERATED_STACK = 'apps/load/many';

export interface GeneratedOptions {
  /** The stack folder under the workspace (default apps/load/many). */
  stack?: string;
  namespace?: string;
  /** Replicas of each Deployment (default 1). */
  replicas?: number;
}

export function generatedWorkspace(apps: number, options: GeneratedOptions = {}): string {
  const { stack = GENERATED_STACK, namespace = 'bench', replicas = 1 } = options;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kdeck-bench-'));
  const files: Record<string, string> = {
    'kcl.mod': '[package]\nname = "bench"\n',
    'apps/load/project.yaml': 'name: load\n',
    [`${stack}/stack.yaml`]: `name: ${path.basename(stack)}\n`,
    [`${stack}/kcl.yaml`]: 'kcl_cli_configs:\n  file:\n    - main.k\n',
    [`${stack}/main.k`]: `
_ns = "${namespace}"
_labels = lambda i: int -> {str:str} { {"app" = "app-\${i}"} }
_cm = lambda i: int {
    {id = "v1:ConfigMap:\${_ns}:app-\${i}", type = "Kubernetes", dependsOn = ["v1:Namespace:\${_ns}"], attributes = {apiVersion = "v1", kind = "ConfigMap", metadata = {name = "app-\${i}", namespace = _ns}, data = {index = str(i)}}}
}
_svc = lambda i: int {
    {id = "v1:Service:\${_ns}:app-\${i}", type = "Kubernetes", dependsOn = ["v1:Namespace:\${_ns}"], attributes = {apiVersion = "v1", kind = "Service", metadata = {name = "app-\${i}", namespace = _ns}, spec = {selector = _labels(i), ports = [{port = 80, targetPort = 8080}]}}}
}
_deploy = lambda i: int {
    {
        id = "apps/v1:Deployment:\${_ns}:app-\${i}", type = "Kubernetes"
        dependsOn = ["v1:Namespace:\${_ns}", "v1:ConfigMap:\${_ns}:app-\${i}", "v1:Service:\${_ns}:app-\${i}"]
        attributes = {
            apiVersion = "apps/v1", kind = "Deployment", metadata = {name = "app-\${i}", namespace = _ns}
            spec = {replicas = ${replicas}, selector.matchLabels = _labels(i), template = {metadata.labels = _labels(i), spec.containers = [{name = "main", image = "registry.example/app:\${i}", envFrom = [{configMapRef.name = "app-\${i}"}]}]}}
        }
    }
}
resources = [{id = "v1:Namespace:\${_ns}", type = "Kubernetes", attributes = {apiVersion = "v1", kind = "Namespace", metadata.name = _ns}}] + [r for i in range(${apps}) for r in [_cm(i), _svc(i), _deploy(i)]]
`,
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}
