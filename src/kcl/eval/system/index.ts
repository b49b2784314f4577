/**
 * KCL's system modules by import name (`import math`), each built on first use and shared by
 * every program: functions that touch files or the program's output take the calling program's
 * context from the host they are called with (see common.ts `outside`), so a module value kept in
 * a cached package works for every later run.
 *
 * `template` (handlebars) is not provided.
 */
import type { ModuleValue } from '../values.js';
import { base32Module } from './base32.js';
import { base64Module } from './base64.js';
import { templateModule } from './template.js';
import { collectionModule } from './collection.js';
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

type ModuleFactory = () => ModuleValue;

function shared(build: () => ModuleValue): ModuleFactory {
  let module: ModuleValue | undefined;
  return () => (module ??= build());
}

export const SYSTEM_MODULES: ReadonlyMap<string, ModuleFactory> = new Map<string, ModuleFactory>([
  ['base32', shared(base32Module)],
  ['base64', shared(base64Module)],
  ['template', shared(templateModule)],
  ['collection', shared(collectionModule)],
  ['crypto', shared(cryptoModule)],
  ['datetime', shared(datetimeModule)],
  ['file', shared(fileModule)],
  ['json', shared(jsonModule)],
  ['manifests', shared(manifestsModule)],
  ['math', shared(mathModule)],
  ['net', shared(netModule)],
  ['regex', shared(regexModule)],
  ['runtime', shared(runtimeModule)],
  ['units', shared(unitsModule)],
  ['yaml', shared(yamlModule)],
]);
