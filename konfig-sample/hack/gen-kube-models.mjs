#!/usr/bin/env node
// gen-kube-models.mjs: turns hack/kube-api.def (a hand-written description of the Kubernetes
// API types this repository uses) into KCL schemas under base/pkg/kube/, one schema per file,
// in the shape Konfig's OpenAPI generator produces: typed attributes, `?` for optional ones,
// and a numpy-style docstring listing every attribute.
//
// Usage: node hack/gen-kube-models.mjs [--check]
//   --check  compare the generated files with the ones on disk and exit 1 if they differ
//
// The definition format (see the top of kube-api.def) is line based:
//   package <dir> as <alias>    following types live in base/pkg/kube/<dir>; other packages
//                               refer to them as <alias>.<Type>
//   doc <name> <text>           a shared attribute description, used as "=<name>"
//   type <Name>                 a schema; `type <Name> kind <apiVersion>` adds apiVersion, kind
//                               and metadata attributes for a top-level API kind
//   > <text>                    the schema's description (several lines are joined)
//   <attr>[?]: <type>  <doc>    an attribute: type and description separated by 2+ spaces
//   check: <expr>, "<message>"  a validation rule, copied into the schema's check block
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const defFile = path.join(here, "kube-api.def");
const outRoot = path.join(root, "base", "pkg", "kube");
const modulePrefix = "base.pkg.kube";
const WIDTH = 100;

function fail(line, msg) {
  console.error(`${defFile}:${line}: ${msg}`);
  process.exit(2);
}

function parse(text) {
  const packages = new Map(); // alias -> {dir, alias, types: []}
  const docs = new Map();
  let pkg = null;
  let type = null;
  text.split("\n").forEach((raw, i) => {
    const n = i + 1;
    const line = raw.replace(/\s+$/, "");
    if (!line.trim() || line.trim().startsWith("#")) return;
    let m;
    if ((m = /^package\s+(\S+)\s+as\s+(\w+)$/.exec(line))) {
      pkg = { dir: m[1], alias: m[2], types: [] };
      if (packages.has(pkg.alias)) fail(n, `package alias ${pkg.alias} defined twice`);
      packages.set(pkg.alias, pkg);
      type = null;
    } else if ((m = /^doc\s+(\w+)\s+(.+)$/.exec(line))) {
      docs.set(m[1], m[2]);
    } else if ((m = /^type\s+(\w+)(?:\s+kind\s+(\S+))?$/.exec(line))) {
      if (!pkg) fail(n, "type outside a package");
      type = { name: m[1], apiVersion: m[2], doc: [], attrs: [], checks: [], line: n };
      if (type.apiVersion) {
        type.attrs.push(
          { name: "apiVersion", optional: false, type: JSON.stringify(type.apiVersion), doc: "=apiVersion", def: JSON.stringify(type.apiVersion) },
          { name: "kind", optional: false, type: JSON.stringify(type.name), doc: "=kind", def: JSON.stringify(type.name) },
          { name: "metadata", optional: true, type: "apis.ObjectMeta", doc: "=metadata" },
        );
      }
      pkg.types.push(type);
    } else if ((m = /^\s+>\s?(.*)$/.exec(line))) {
      if (!type) fail(n, "description outside a type");
      type.doc.push(m[1]);
    } else if ((m = /^\s+check:\s+(.+)$/.exec(line))) {
      if (!type) fail(n, "check outside a type");
      type.checks.push(m[1]);
    } else if ((m = /^\s+(\$?\w+)(\?)?:\s(.+?)(?:\s{2,}(.+))?$/.exec(line))) {
      if (!type) fail(n, "attribute outside a type");
      if (type.attrs.some((a) => a.name === m[1])) fail(n, `attribute ${m[1]} defined twice in ${type.name}`);
      type.attrs.push({ name: m[1], optional: m[2] === "?", type: m[3].trim(), doc: m[4] ?? "" });
    } else {
      fail(n, `cannot read: ${line}`);
    }
  });
  return { packages, docs };
}

function snake(name) {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();
}

function wrap(text, indent) {
  const width = WIDTH - indent.length;
  const out = [];
  for (const para of text.split("\\n")) {
    let line = "";
    for (const word of para.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        out.push(indent + line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    out.push(line ? indent + line : "");
  }
  return out;
}

function resolveDoc(doc, docs, where) {
  return doc.replace(/^=(\w+)(.*)$/, (_, key, rest) => {
    if (!docs.has(key)) fail(where, `unknown doc reference =${key}`);
    return docs.get(key) + rest;
  });
}

// Every identifier of the form alias.Type in a type expression.
function referencedAliases(typeExpr) {
  return [...typeExpr.matchAll(/\b([a-z][a-z0-9]*)\.[A-Z]\w*/g)].map((m) => m[1]);
}

function localTypes(typeExpr) {
  return [...typeExpr.replace(/"[^"]*"/g, "").matchAll(/(^|[^.\w])([A-Z]\w*)/g)].map((m) => m[2]);
}

function render(pkg, type, packages, docs) {
  const lines = [];
  const imports = new Set();
  for (const a of type.attrs) {
    for (const alias of referencedAliases(a.type)) {
      if (alias === pkg.alias) fail(type.line, `${type.name}.${a.name}: refer to ${a.type} without the package alias`);
      const target = packages.get(alias);
      if (!target) fail(type.line, `${type.name}.${a.name}: unknown package alias ${alias}`);
      const t = a.type.match(new RegExp(`\\b${alias}\\.(\\w+)`))[1];
      if (!target.types.some((x) => x.name === t)) fail(type.line, `${type.name}.${a.name}: ${alias}.${t} is not defined`);
      imports.add(alias);
    }
    for (const t of localTypes(a.type)) {
      if (!pkg.types.some((x) => x.name === t)) fail(type.line, `${type.name}.${a.name}: ${t} is not defined in ${pkg.dir}`);
    }
  }
  const systemModules = ["regex", "units"].filter((m) => type.checks.some((c) => c.includes(`${m}.`)));
  const moduleName = snake(type.name);
  const pkgPath = `${modulePrefix}.${pkg.dir.replace(/\//g, ".")}`;
  lines.push('"""');
  lines.push(`This is the ${moduleName} module in ${pkgPath} package.`);
  lines.push("This file was generated by hack/gen-kube-models.mjs from hack/kube-api.def. DO NOT EDIT.");
  lines.push("Edit the definition and run `node hack/gen-kube-models.mjs` instead.");
  lines.push('"""');
  for (const m of systemModules) lines.push(`import ${m}`);
  for (const alias of [...imports].sort()) {
    const target = packages.get(alias);
    const mod = `${modulePrefix}.${target.dir.replace(/\//g, ".")}`;
    const last = mod.split(".").pop();
    lines.push(last === alias ? `import ${mod}` : `import ${mod} as ${alias}`);
  }
  lines.push("", "");
  lines.push(`schema ${type.name}:`);
  lines.push('    r"""');
  for (const l of wrap(type.doc.join(" "), "    ")) lines.push(l);
  lines.push("");
  lines.push("    Attributes");
  lines.push("    ----------");
  const attrs = orderAttrs(type.attrs);
  for (const a of attrs) {
    const def = a.def ?? "Undefined";
    const shownType = /^"[^"]*"$/.test(a.type) ? "str" : a.type;
    lines.push(`    ${a.name} : ${shownType}, default is ${def}, ${a.optional ? "optional" : "required"}`);
    const doc = resolveDoc(a.doc, docs, type.line);
    for (const l of wrap(doc || a.name, "        ")) lines.push(l);
  }
  lines.push('    """');
  lines.push("");
  lines.push("");
  attrs.forEach((a, i) => {
    if (i > 0) lines.push("");
    lines.push(`    ${a.name}${a.optional ? "?" : ""}: ${a.type}${a.def !== undefined ? ` = ${a.def}` : ""}`);
  });
  if (type.checks.length) {
    lines.push("", "");
    lines.push("    check:");
    for (const c of type.checks) lines.push(`        ${c}`);
  }
  lines.push("", "");
  return { file: path.join(outRoot, pkg.dir, `${moduleName}.k`), text: lines.join("\n").replace(/\n{3,}$/, "\n\n") };
}

// apiVersion, kind and metadata first (as the API server prints them), the rest alphabetical.
function orderAttrs(attrs) {
  const head = ["apiVersion", "kind", "metadata"];
  const first = head.map((h) => attrs.find((a) => a.name === h)).filter(Boolean);
  const rest = attrs.filter((a) => !first.includes(a)).sort((a, b) => a.name.replace("$", "").localeCompare(b.name.replace("$", "")));
  return [...first, ...rest];
}

function main() {
  const check = process.argv.includes("--check");
  const { packages, docs } = parse(fs.readFileSync(defFile, "utf8"));
  const files = [];
  for (const pkg of packages.values()) for (const t of pkg.types) files.push(render(pkg, t, packages, docs));
  const seen = new Set();
  for (const f of files) {
    if (seen.has(f.file)) fail(0, `two types map to ${f.file}`);
    seen.add(f.file);
  }
  let stale = 0;
  if (check) {
    for (const f of files) {
      const old = fs.existsSync(f.file) ? fs.readFileSync(f.file, "utf8") : null;
      if (old !== f.text) {
        console.error(`stale: ${path.relative(root, f.file)}`);
        stale++;
      }
    }
    process.exit(stale ? 1 : 0);
  }
  fs.rmSync(outRoot, { recursive: true, force: true });
  for (const f of files) {
    fs.mkdirSync(path.dirname(f.file), { recursive: true });
    fs.writeFileSync(f.file, f.text);
  }
  const types = [...packages.values()].reduce((n, p) => n + p.types.length, 0);
  console.log(`generated ${files.length} files (${types} schemas in ${packages.size} packages) under ${path.relative(process.cwd(), outRoot) || "."}`);
}

main();
