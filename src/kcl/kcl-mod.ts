/**
 * What a program's kcl.mod says about the KCL it was written for: `kclvm_version` in the
 * `[expected]` section (`kclvm_version = "v0.4.0"`), which repositories of the KCL v0.4 era
 * declare. kdeck keeps the few rules that changed since then for the programs that ask for them;
 * a program that declares nothing gets current kcl's.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The rules that changed between kcl versions. */
export interface VersionRules {
  /** Until v0.4.6 a public `name = S {...}` said again merged its config like `name: S {...}`. */
  repeatedAssignmentsMerge: boolean;
  /** Since v0.4.5 a config entry's value may read the keys set before it (`{a = 1, b = a}`). */
  configKeysInScope: boolean;
  /** Since v0.5 empty lists are printed; before, the planner left them out. */
  emptyListsPrinted: boolean;
  /** Since v0.5 the values of bare expression statements are part of the output. */
  bareExpressionsPrinted: boolean;
  /**
   * Before v0.5 a name no scope defines inside a schema body (an attribute's default, a check)
   * was no error: it read as Undefined. v0.4-era Konfig goldens were made from packages holding
   * `x?: bool = false` (the instances print no `x`) and checks reading `notfieldRef`.
   */
  undefinedSchemaNamesReadUndefined: boolean;
  /**
   * Before v0.5, in a schema body, a name the schema declares read the attribute even inside a
   * config that sets a key of that name (`{type: "Terraform", ext: {t: type}}` reads the
   * attribute `type`): kcl-lang v0.4.6 looked in the schema before the config's scope.
   */
  schemaAttributesBeforeConfigKeys: boolean;
  /**
   * Before v0.5 the required attributes of an instance were checked only where a schema
   * expression or call outside any schema body made it, and from there in the attributes whose
   * values are instances themselves: not in instances a type made from a dict
   * (`ingress: [Ingress] = [{...}]`), nor in those held in a list or dict. kcl-lang v0.4.6 ran
   * its optional check only there; Konfig goldens of v0.4.6 hold such instances with required
   * attributes set to None.
   */
  requiredAttributesCheckedOnlyWhereWritten: boolean;
  /**
   * From v0.4.3 (the first release whose programs ran on the Rust compiler) to v0.5, a
   * main-package file could read `pkg.name` where `pkg` is imported only by a later file of the
   * package (the dotted name got the package of any main file importing it,
   * sema/pre_process/mod.rs), and got what the package held at that moment: each package was
   * compiled to a module of its own (runner/assembler.rs, `no_link`) whose globals are set when
   * an import first runs its code, the main package's files ran one after the other, imports
   * first (codegen walk_module), and an unset global reads as Undefined (runtime ptr_as_ref). A
   * schema expression whose schema reads Undefined gives its config, a plain dict
   * (kclvm_schema_value_new: Undefined | config). Checked in the v0.4.3 to v0.4.6 sources.
   * kcl-py before it ran every import of a package before any of its statements. Konfig's
   * kcl-vault-csi base.k wrote `vaultv1.SecretProviderClass {...}` importing `vaultv1` only
   * in main.k (kcl.mod: v0.4.6), and its goldens hold no SecretProviderClass.
   */
  laterImportsReadUndefined: boolean;
}

type Version = [major: number, minor: number, patch: number];

/** `[expected] kclvm_version`, or undefined when kcl.mod does not say. */
export function expectedKclVersion(root: string): Version | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, 'kcl.mod'), 'utf8');
  } catch {
    return undefined;
  }
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      section = header[1].trim();
      continue;
    }
    const entry = /^kclvm_version\s*=\s*["']v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(line);
    if (section === 'expected' && entry) return [Number(entry[1]), Number(entry[2]), Number(entry[3] ?? 0)];
  }
  return undefined;
}

function before(v: Version, major: number, minor: number, patch: number): boolean {
  return v[0] !== major ? v[0] < major : v[1] !== minor ? v[1] < minor : v[2] < patch;
}

export function versionRules(root: string): VersionRules {
  const v = expectedKclVersion(root);
  return {
    repeatedAssignmentsMerge: v !== undefined && before(v, 0, 4, 6),
    configKeysInScope: !v || !before(v, 0, 4, 5),
    emptyListsPrinted: !v || !before(v, 0, 5, 0),
    bareExpressionsPrinted: !v || !before(v, 0, 5, 0),
    undefinedSchemaNamesReadUndefined: v !== undefined && before(v, 0, 5, 0),
    schemaAttributesBeforeConfigKeys: v !== undefined && before(v, 0, 5, 0),
    requiredAttributesCheckedOnlyWhereWritten: v !== undefined && before(v, 0, 5, 0),
    laterImportsReadUndefined: v !== undefined && !before(v, 0, 4, 3) && before(v, 0, 5, 0),
  };
}
