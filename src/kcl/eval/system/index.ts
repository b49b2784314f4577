/**
 * KCL's system modules by import name (`import math`), each built on first use. Modules that
 * touch files or the program's output depend on the context and are built once per context; the
 * others are built once and shared.
 *
 * `template` (handlebars) is not provided.
 */
import type { ModuleValue } from '../values.js';
import { base32Module } from './base32.js';
import { base64Module } from './base64.js';
import { templateModule } from './template.js';
import { collectionModule } from './collection.js';
import type { SystemContext } from './common.js';
import { cryptoModule } from './crypto.js';
import { datetimeModule } from './datetime.js';
import { fileModule } from './file.js';
import { jsonModule } from './json.js';
import { manifestsModule } from './manifests.js';
import { mathModule } from './math.js';
import { netModule } from './net.js';
import { regexModule } from './regex.js';
import { runtimeModule } from './runtime.js';
import { unitsModule } from './units.js';
import { yamlModule } from './yaml.js';

export type { SystemContext } from './common.js';

type ModuleFactory = (ctx: SystemContext) => ModuleValue;

function shared(build: () => ModuleValue): ModuleFactory {
  let module: ModuleValue | undefined;
  return () => (module ??= build());
}

function perContext(build: ModuleFactory): ModuleFactory {
  const modules = new WeakMap<SystemContext, ModuleValue>();
  return (ctx) => {
    let module = modules.get(ctx);
    if (!module) modules.set(ctx, (module = build(ctx)));
    return module;
  };
}

export const SYSTEM_MODULES: ReadonlyMap<string, ModuleFactory> = new Map<string, ModuleFactory>([
  ['base32', shared(base32Module)],
  ['base64', shared(base64Module)],
  ['template', shared(templateModule)],
  ['collection', shared(collectionModule)],
  ['crypto', perContext(cryptoModule)],
  ['datetime', shared(datetimeModule)],
  ['file', perContext(fileModule)],
  ['json', perContext(jsonModule)],
  ['manifests', perContext(manifestsModule)],
  ['math', shared(mathModule)],
  ['net', shared(netModule)],
  ['regex', shared(regexModule)],
  ['runtime', shared(runtimeModule)],
  ['units', shared(unitsModule)],
  ['yaml', perContext(yamlModule)],
]);
