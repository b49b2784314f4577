/**
 * KCL plugins: `import kcl_plugin.NAME` reads functions the host registered in TypeScript.
 * kdeck's recovery runbooks use this for a CMDB look-up; tests register their own. The plugins
 * KCL itself shipped (project_context) are there unless the host registers one of that name.
 */
import { kclError } from '../diagnostics/diagnostics.js';
import type { BuiltinHost, FunctionValue, ModuleValue, Value } from './eval/values.js';

export type PluginFunction = (args: Value[], kwargs: Map<string, Value>, host: BuiltinHost) => Value;

export const PLUGIN_PREFIX = 'kcl_plugin.';

export class PluginRegistry {
  private readonly plugins = new Map<string, ModuleValue>();

  /** Registers (or replaces) the plugin `kcl_plugin.<name>` with its functions. */
  register(name: string, functions: Record<string, PluginFunction>): this {
    const members = new Map<string, Value>();
    for (const [fn, impl] of Object.entries(functions)) {
      const call: FunctionValue['call'] = ({ args, kwargs }, host) => {
        // a plugin answers from outside the program (a CMDB, the project's files)
        host.reachesOutside();
        return impl(args, kwargs, host);
      };
      const value: FunctionValue = { kind: 'function', name: `${name}.${fn}`, call };
      members.set(fn, value);
    }
    this.plugins.set(name, { kind: 'module', name: `${PLUGIN_PREFIX}${name}`, members });
    return this;
  }

  /** The module for `import kcl_plugin.<name>`, or undefined when it is not registered. */
  find(spec: string): ModuleValue | undefined {
    return this.plugins.get(spec.slice(PLUGIN_PREFIX.length));
  }

  /** The module for `import kcl_plugin.<name>`; an unknown plugin is kcl's compile error. */
  module(spec: string): ModuleValue {
    const plugin = this.find(spec);
    if (!plugin) {
      throw kclError(
        'CannotFindModule',
        `the plugin package \`${spec}\` is not found, please confirm if plugin mode is enabled`,
      );
    }
    return plugin;
  }
}
