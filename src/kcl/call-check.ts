/**
 * The arguments of a call to a schema the checker knows (`S(...)`, and `S {...}` without
 * arguments), checked before running as kcl's resolver does it (sema's
 * do_arguments_type_check), in its words and order: positional arguments past the parameters,
 * unknown keywords, then too few arguments for the parameters without a default.
 */
import type * as A from './ast.js';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { didYouMeanAny } from './suggestions.js';

/** kcl's UnitUsize: the unit is plural only past one ("0 positional argument"). */
function counted(n: number, unit: string): string {
  return `${n} ${unit}${n > 1 ? 's' : ''}`;
}

export interface SchemaCall {
  /** The schema's name as the call writes it. */
  name: string;
  params: readonly A.Param[];
  /** Where the schema is named in the call. */
  callee: A.Loc;
  args: readonly A.Expr[];
  keywords: readonly A.Keyword[];
}

export function schemaCallProblems(call: SchemaCall, file: string): Diagnostic[] {
  const { name, params, args, keywords } = call;
  const at = (loc: A.Loc) => ({ file, line: loc.line, column: loc.column });
  const problems: Diagnostic[] = [];
  if (args.length > params.length) {
    problems.push({
      kind: 'CompileError',
      message: `"${name}" takes ${counted(params.length, 'positional argument')} but ${args.length} were given`,
      position: at(args[params.length]),
    });
  }
  for (const k of keywords) {
    if (!params.some((p) => p.name === k.name)) {
      const hint = didYouMeanAny(
        k.name,
        params.map((p) => p.name),
      );
      problems.push({
        kind: 'CompileError',
        message: `"${name}" got an unexpected keyword argument '${k.name}'${hint}`,
        position: at(k.loc),
      });
    }
  }
  const required = params.filter((p) => !p.default);
  // kcl counts every positional argument, and the keywords that name a parameter without a default
  const given = args.length + required.filter((p) => keywords.some((k) => k.name === p.name)).length;
  if (given < required.length) {
    problems.push({
      kind: 'CompileError',
      message: `expected ${counted(required.length, 'positional argument')}, found ${given}`,
      position: at(call.callee),
    });
  }
  return problems;
}
