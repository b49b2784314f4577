#!/usr/bin/env node
// verify.mjs: compiles every stack of this repository with kdeck's KCL compiler and checks
// the output contract that `kdeck compile` relies on, then checks that the front-end models
// reject the mistakes in hack/mistakes/.
//
// Usage: node hack/verify.mjs [--cli path/to/cli.js] [--quiet]
//
// A stack is compiled the way `kdeck compile` will do it: the files of kcl.yaml
// (kcl_cli_configs.file, with ${KCL_MOD} replaced by the repository root) and its
// kcl_options as -D arguments, run from the stack directory.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const args = process.argv.slice(2);
const cli = path.resolve(args.includes("--cli") ? args[args.indexOf("--cli") + 1] : path.join(root, "..", "dist", "cli.js"));
const quiet = args.includes("--quiet");

const CLUSTER_SCOPED = new Set(["Namespace", "ClusterRole", "ClusterRoleBinding", "PersistentVolume", "StorageClass", "PriorityClass", "IngressClass", "CustomResourceDefinition", "Node"]);
const WORKLOADS = new Set(["Deployment", "StatefulSet", "Job", "CronJob"]);

let failures = 0;
const problems = [];
function problem(where, msg) {
  failures++;
  problems.push(`${where}: ${msg}`);
}

function kcl(cwd, files, options) {
  const argv = [cli, "kcl", "run", ...files];
  for (const [k, v] of options) argv.push("-D", `${k}=${v}`);
  return spawnSync(process.execPath, argv, { cwd, encoding: "utf8" });
}

function findStacks(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (!entry.isDirectory()) continue;
    if (fs.existsSync(path.join(p, "stack.yaml"))) out.push(p);
    else out.push(...findStacks(p));
  }
  return out.sort();
}

function idOf(obj) {
  const m = obj.metadata ?? {};
  return CLUSTER_SCOPED.has(obj.kind)
    ? `${obj.apiVersion}:${obj.kind}:${m.name}`
    : `${obj.apiVersion}:${obj.kind}:${m.namespace}:${m.name}`;
}

function podTemplate(obj) {
  if (obj.kind === "CronJob") return obj.spec?.jobTemplate?.spec?.template;
  return obj.spec?.template;
}

function matches(selector, labels) {
  return Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);
}

function checkStack(stackDir) {
  const rel = path.relative(root, stackDir);
  const project = YAML.parse(fs.readFileSync(path.join(stackDir, "..", "project.yaml"), "utf8"));
  const stack = YAML.parse(fs.readFileSync(path.join(stackDir, "stack.yaml"), "utf8"));
  const settings = YAML.parse(fs.readFileSync(path.join(stackDir, "kcl.yaml"), "utf8"));
  const files = settings.kcl_cli_configs.file.map((f) => f.replace("${KCL_MOD}", root));
  const options = (settings.kcl_options ?? []).map((o) => [o.key, o.value]);
  const clusterOption = options.find(([k]) => k === "cluster")?.[1];
  if (stack.cluster && stack.cluster !== clusterOption) problem(rel, `stack.yaml names cluster ${stack.cluster} but kcl.yaml passes ${clusterOption}`);

  const res = kcl(stackDir, files, options);
  if (res.status !== 0) {
    problem(rel, `compile failed (exit ${res.status}):\n${res.stderr}`);
    return null;
  }
  const out = YAML.parse(res.stdout);
  const leaked = Object.keys(out).filter((k) => k !== "resources");
  const resources = out.resources ?? [];
  const ids = new Map();
  for (const r of resources) {
    const where = `${rel} ${r.id}`;
    if (ids.has(r.id)) problem(where, "duplicate id");
    ids.set(r.id, r);
    if (r.type !== "Kubernetes") problem(where, `type is ${r.type}`);
    if (idOf(r.attributes) !== r.id) problem(where, `id does not match attributes (${idOf(r.attributes)})`);
    const extra = Object.keys(r).filter((k) => !["id", "type", "dependsOn", "attributes", "extensions"].includes(k));
    if (extra.length) problem(where, `unexpected keys ${extra}`);
    if (clusterOption && r.extensions?.cluster !== clusterOption) problem(where, `extensions.cluster is ${r.extensions?.cluster}, want ${clusterOption}`);
    if (!clusterOption && r.extensions) problem(where, "extensions without a cluster option");
  }
  const namespaces = new Set(resources.filter((r) => r.attributes.kind === "Namespace").map((r) => r.attributes.metadata.name));
  for (const r of resources) {
    const where = `${rel} ${r.id}`;
    const a = r.attributes;
    for (const d of r.dependsOn ?? []) if (!ids.has(d)) problem(where, `depends on ${d}, which the stack does not render`);
    if (!CLUSTER_SCOPED.has(a.kind)) {
      if (!namespaces.has(a.metadata.namespace)) problem(where, `namespace ${a.metadata.namespace} is not rendered by the stack`);
      else if (!(r.dependsOn ?? []).includes(`v1:Namespace:${a.metadata.namespace}`)) problem(where, "does not depend on its namespace");
    }
    if (a.metadata?.labels?.["app.kubernetes.io/managed-by"] !== "kdeck") problem(where, "missing the managed-by label");
    if (WORKLOADS.has(a.kind)) {
      const tpl = podTemplate(a);
      const podLabels = tpl?.metadata?.labels ?? {};
      if (a.kind === "Deployment" || a.kind === "StatefulSet") {
        if (!matches(a.spec.selector?.matchLabels, podLabels)) problem(where, "selector does not match the pod template labels");
      }
      const spec = tpl.spec;
      const refs = new Set();
      for (const v of spec.volumes ?? []) {
        if (v.configMap) refs.add(`v1:ConfigMap:${a.metadata.namespace}:${v.configMap.name}`);
        if (v.secret) refs.add(`v1:Secret:${a.metadata.namespace}:${v.secret.secretName}`);
      }
      for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
        for (const e of c.env ?? []) {
          if (e.valueFrom?.configMapKeyRef) refs.add(`v1:ConfigMap:${a.metadata.namespace}:${e.valueFrom.configMapKeyRef.name}`);
          if (e.valueFrom?.secretKeyRef) refs.add(`v1:Secret:${a.metadata.namespace}:${e.valueFrom.secretKeyRef.name}`);
        }
        for (const e of c.envFrom ?? []) {
          if (e.configMapRef) refs.add(`v1:ConfigMap:${a.metadata.namespace}:${e.configMapRef.name}`);
          if (e.secretRef) refs.add(`v1:Secret:${a.metadata.namespace}:${e.secretRef.name}`);
        }
        const mounted = new Set((c.volumeMounts ?? []).map((m) => m.name));
        const declared = new Set([...(spec.volumes ?? []).map((v) => v.name), ...(a.spec.volumeClaimTemplates ?? []).map((v) => v.metadata.name)]);
        for (const m of mounted) if (!declared.has(m)) problem(where, `container ${c.name} mounts undeclared volume ${m}`);
      }
      if (spec.serviceAccountName) refs.add(`v1:ServiceAccount:${a.metadata.namespace}:${spec.serviceAccountName}`);
      for (const ref of refs) {
        if (!ids.has(ref)) problem(where, `uses ${ref}, which the stack does not render`);
        else if (!(r.dependsOn ?? []).includes(ref)) problem(where, `uses ${ref} but does not depend on it`);
      }
      if (a.kind === "StatefulSet") {
        const svc = `v1:Service:${a.metadata.namespace}:${a.spec.serviceName}`;
        if (!ids.has(svc)) problem(where, `governing service ${svc} missing`);
        else if (ids.get(svc).attributes.spec.clusterIP !== "None") problem(where, "governing service is not headless");
        if (!(r.dependsOn ?? []).includes(svc)) problem(where, "does not depend on its governing service");
      }
    }
    if (a.kind === "Service") {
      const selected = resources.filter((w) => ["Deployment", "StatefulSet"].includes(w.attributes.kind) && w.attributes.metadata.namespace === a.metadata.namespace && matches(a.spec.selector, podTemplate(w.attributes).metadata.labels));
      if (selected.length !== 1) problem(where, `selects the pods of ${selected.length} workloads`);
      for (const w of selected) {
        const ports = podTemplate(w.attributes).spec.containers.flatMap((c) => c.ports ?? []);
        for (const p of a.spec.ports) {
          const t = p.targetPort ?? p.port;
          if (!ports.some((cp) => cp.containerPort === t || cp.name === t)) problem(where, `port ${p.port} targets ${t}, which ${w.id} does not declare`);
        }
      }
    }
    if (a.kind === "PodDisruptionBudget") {
      const selected = resources.filter((w) => WORKLOADS.has(w.attributes.kind) && w.attributes.metadata.namespace === a.metadata.namespace && matches(a.spec.selector.matchLabels, podTemplate(w.attributes).metadata.labels));
      if (selected.length !== 1) problem(where, `covers the pods of ${selected.length} workloads`);
    }
    if (a.kind === "HorizontalPodAutoscaler") {
      const t = a.spec.scaleTargetRef;
      const target = `${t.apiVersion}:${t.kind}:${a.metadata.namespace}:${t.name}`;
      if (!ids.has(target)) problem(where, `scales ${target}, which the stack does not render`);
      else if (ids.get(target).attributes.spec.replicas !== undefined) problem(where, `${target} sets spec.replicas although it is autoscaled`);
    }
    if (a.kind === "Ingress") {
      for (const rule of a.spec.rules) for (const p of rule.http.paths) {
        const svc = `v1:Service:${a.metadata.namespace}:${p.backend.service.name}`;
        if (!ids.has(svc)) { problem(where, `routes to ${svc}, which the stack does not render`); continue; }
        const port = p.backend.service.port;
        if (!ids.get(svc).attributes.spec.ports.some((sp) => sp.name === port.name || sp.port === port.number)) problem(where, `routes to a port ${JSON.stringify(port)} that ${svc} does not have`);
        if (!(r.dependsOn ?? []).includes(svc)) problem(where, `does not depend on ${svc}`);
      }
    }
    if (a.kind === "RoleBinding") {
      const role = `rbac.authorization.k8s.io/v1:Role:${a.metadata.namespace}:${a.roleRef.name}`;
      if (!(r.dependsOn ?? []).includes(role)) problem(where, `does not depend on ${role}`);
    }
  }
  // dependsOn must form a DAG.
  const state = new Map();
  const visit = (id, trail) => {
    if (state.get(id) === "done") return;
    if (state.get(id) === "active") { problem(rel, `dependency cycle: ${[...trail, id].join(" -> ")}`); return; }
    state.set(id, "active");
    for (const d of ids.get(id)?.dependsOn ?? []) visit(d, [...trail, id]);
    state.set(id, "done");
  };
  for (const id of ids.keys()) visit(id, []);
  return { rel, project: project.name, stack: stack.name, cluster: stack.cluster ?? "", resources, leaked };
}

function checkMistakes() {
  const dir = path.join(here, "mistakes");
  const results = [];
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".k")).sort()) {
    const text = fs.readFileSync(path.join(dir, f), "utf8");
    const expect = /^# expect: (.+)$/m.exec(text)?.[1];
    if (!expect) { problem(`hack/mistakes/${f}`, "no '# expect:' line"); continue; }
    const files = /^# with-render$/m.test(text) ? [f, path.join(root, "base", "pkg", "render", "render.k")] : [f];
    const res = kcl(dir, files, []);
    const ok = res.status !== 0 && res.stderr.includes(expect);
    if (!ok) problem(`hack/mistakes/${f}`, res.status === 0 ? "compiled without error" : `error does not mention "${expect}":\n${res.stderr}`);
    results.push({ file: f, ok, expect });
  }
  return results;
}

const stacks = findStacks(path.join(root, "appops")).map(checkStack).filter(Boolean);
const mistakes = checkMistakes();

if (!quiet) {
  console.log("stack                          cluster     resources  kinds");
  for (const s of stacks) {
    const kinds = {};
    for (const r of s.resources) kinds[r.attributes.kind] = (kinds[r.attributes.kind] ?? 0) + 1;
    const kindText = Object.entries(kinds).map(([k, n]) => (n > 1 ? `${k}x${n}` : k)).join(", ");
    console.log(`${s.rel.replace("appops/", "").padEnd(30)} ${(s.cluster || "-").padEnd(11)} ${String(s.resources.length).padStart(9)}  ${kindText}`);
  }
  const leaked = [...new Set(stacks.flatMap((s) => s.leaked))];
  if (leaked.length) console.log(`\nnote: top-level keys besides resources in the output: ${leaked.join(", ")} (front-end instances; __settings__ output_type IGNORE is not honoured yet)`);
  console.log(`\nmistakes rejected: ${mistakes.filter((m) => m.ok).length}/${mistakes.length}`);
}
if (failures) {
  console.error(`\n${failures} problem(s):\n${problems.map((p) => `- ${p}`).join("\n")}`);
  process.exit(1);
}
console.log(`\nall ${stacks.length} stacks compile and satisfy the output contract`);
