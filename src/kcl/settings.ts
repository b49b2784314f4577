/**
 * kcl settings files (`-Y kcl.yaml`): `kcl_cli_configs` (files, flags) and `kcl_options` (`-D`
 * values), as kcl and kusion read them. Mistakes point at the line of the settings file.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML, { isMap, isScalar, isSeq, type Node, type YAMLError } from 'yaml';
import { KclError, kclError, type ErrorKind, type Position } from '../diagnostics/diagnostics.js';
import { findRoot } from './loader.js';
import type { RunOptions } from './run.js';

export interface Settings {
  files: string[];
  options: [string, string][];
  sortKeys?: boolean;
  showHidden?: boolean;
  disableNone?: boolean;
  pathSelectors?: string[];
  overrides?: string[];
}

/** 1-based line and column of a node of a parsed YAML file. */
export function positionOf(file: string, text: string, node: Node | null | undefined): Position {
  const offset = node?.range?.[0] ?? 0;
  const before = text.slice(0, offset).split('\n');
  return { file, line: before.length, column: before[before.length - 1].length + 1 };
}

/** The last parse of each YAML file, by path: a watch-mode recompile reads a stack's stack.yaml,
 * project.yaml and kcl.yaml again, and parsing them (a cold `yaml` library in the first
 * recompiles) cost more than reading them. Reused only for the same text, so it is exact. */
const yamlCache = new Map<string, { text: string; doc: YAML.Document }>();

/**
 * Reads a YAML file whose syntax errors become diagnostics at their line; `what` names the file's
 * role in the message ("settings file", "stack.yaml"). The document may be one an earlier call
 * returned for the same text: callers read it and never change it.
 */
export function parseYamlFile(file: string, what: string): { doc: YAML.Document; text: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw kclError('CannotFindModule', `cannot read the ${what} ${file}`);
  }
  const cached = yamlCache.get(file);
  const doc = cached?.text === text ? cached.doc : YAML.parseDocument(text);
  if (doc.errors[0]) throw yamlSyntaxError(file, doc.errors[0], `the ${what}`, 'EvaluationError');
  yamlCache.set(file, { text, doc });
  return { doc, text };
}

/** A YAML syntax error as a diagnostic at its line: `malformed YAML in <where>: <reason>`. */
export function yamlSyntaxError(file: string, error: YAMLError, where: string, kind: ErrorKind): KclError {
  const at = error.linePos?.[0];
  const position: Position = at ? { file, line: at.line, column: at.col } : { file, line: 1, column: 1 };
  const reason = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  return kclError(kind, `malformed YAML in ${where}: ${reason}`, position);
}

/** kcl's words for a settings file it cannot use, its reason on the same line; the place in the
 * file follows as a note, where kcl shows none. */
function settingsError(file: string, reason: string, position: Position): KclError {
  return kclError(
    'EvaluationError',
    `Failed to load '${path.basename(file)}', invalid setting file format: ${reason}`,
    undefined,
    {
      related: [{ position, message: reason }],
    },
  );
}

export function readSettings(file: string): Settings {
  let parsed: { doc: YAML.Document; text: string };
  try {
    parsed = parseYamlFile(file, 'settings file');
  } catch (e) {
    if (!(e instanceof KclError) || !e.diagnostic.position) throw e;
    throw settingsError(file, e.diagnostic.message, e.diagnostic.position);
  }
  const { doc, text } = parsed;
  const at = (node: Node | null | undefined) => positionOf(file, text, node);
  const invalid = (node: Node | null | undefined, expected: string) => settingsError(file, expected, at(node));
  const settings: Settings = { files: [], options: [] };
  const top = doc.contents;
  if (top === null || (isScalar(top) && top.value === null)) return settings;
  if (!isMap(top)) throw invalid(top, 'expected a mapping with kcl_cli_configs and kcl_options');
  const dir = path.dirname(file);
  const cli = top.get('kcl_cli_configs', true);
  if (cli && !(isScalar(cli) && cli.value === null)) {
    if (!isMap(cli)) throw invalid(cli, 'kcl_cli_configs must be a mapping');
    const files = cli.get('files', true) ?? cli.get('file', true);
    if (files && !(isScalar(files) && files.value === null)) {
      if (!isSeq(files)) throw invalid(files, 'kcl_cli_configs.file must be a list of file names');
      // `${KCL_MOD}` is the root of the Konfig repository: the folder holding kcl.mod
      const root = findRoot(dir);
      for (const item of files.items) {
        if (!isScalar(item) || typeof item.value !== 'string')
          throw invalid(item as Node, 'kcl_cli_configs.file must be a list of file names');
        const resolved = path.resolve(dir, item.value.replaceAll('${KCL_MOD}', root));
        if (!fs.existsSync(resolved)) {
          throw kclError(
            'CannotFindModule',
            `the file '${item.value}' named in ${path.basename(file)} does not exist (looked for ${resolved})`,
            at(item),
          );
        }
        // a stack's entries are files: a directory there (say a `main.k/` made by mistake)
        // would otherwise stand for whatever .k files it holds, often none, and compile silently
        if (fs.statSync(resolved).isDirectory()) {
          throw kclError(
            'CannotFindModule',
            `the entry '${item.value}' named in ${path.basename(file)} is a directory, not a kcl file (${resolved})`,
            at(item),
          );
        }
        settings.files.push(resolved);
      }
    }
    const flag = (key: string) => {
      const v = cli.get(key);
      return typeof v === 'boolean' ? v : undefined;
    };
    settings.sortKeys = flag('sort_keys');
    settings.showHidden = flag('show_hidden');
    settings.disableNone = flag('disable_none');
    const list = (key: string) => {
      const v = cli.get(key, true);
      return isSeq(v) ? v.items.map((i) => String(isScalar(i) ? i.value : i)) : undefined;
    };
    settings.pathSelectors = list('path_selector');
    settings.overrides = list('overrides');
  }
  const options = top.get('kcl_options', true);
  if (options && !(isScalar(options) && options.value === null)) {
    if (!isSeq(options)) throw invalid(options, 'kcl_options must be a list of {key, value}');
    for (const o of options.items) {
      const key = isMap(o) ? o.get('key') : undefined;
      if (!isMap(o) || typeof key !== 'string') throw invalid(o as Node, 'each kcl_options entry needs a string key');
      const value: unknown = o.toJS(doc).value;
      settings.options.push([key, typeof value === 'string' ? value : JSON.stringify(value)]);
    }
  }
  return settings;
}

/**
 * The run options of several `-Y` settings files read in order, merged as kcl merges them: a
 * later file's file list and flags replace an earlier one's, options accumulate.
 */
export function runOptionsFromSettings(settingsFiles: string[], workDir: string): RunOptions {
  const options: [string, string][] = [];
  const opts: RunOptions = { files: [], options, workDir };
  for (const file of settingsFiles) {
    const s = readSettings(path.resolve(workDir, file));
    if (s.files.length > 0) opts.files = s.files;
    options.push(...s.options);
    opts.sortKeys = s.sortKeys ?? opts.sortKeys;
    opts.showHidden = s.showHidden ?? opts.showHidden;
    opts.disableNone = s.disableNone ?? opts.disableNone;
    opts.pathSelectors = s.pathSelectors ?? opts.pathSelectors;
    opts.overrides = s.overrides ?? opts.overrides;
  }
  return opts;
}
