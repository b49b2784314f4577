# The KCL grammar (nearley). Tokens come from src/kcl/lexer.ts, which also produces the layout
# tokens NEWLINE, INDENT and DEDENT.
#
# Shaped for speed and for exactly one parse of every input:
# - binary operators are one flat rule; precedence is applied by ast-build.chain, so an operand
#   is not pushed up through fifteen precedence levels on every token;
# - lists are left-recursive or EBNF, never `x -> x x`;
# - `(item sep)* item?` for every separated list, so a trailing separator has one reading.

@preprocessor typescript

@{%
import * as b from './ast-build.js';
import type * as A from './ast.js';
import { grammarLexer as lexer } from './lexer-instance.js';

const first = (d: any[]) => d[0];
const second = (d: any[]) => d[1];
%}

@lexer lexer

# ------------------------------------------------------------------ module and statements

module -> stmt:* {% (d) => d[0] %}

stmt -> simple_stmt %NEWLINE {% first %}
      | compound_stmt {% first %}

simple_stmt -> assign_stmt {% first %}
             | aug_assign_stmt {% first %}
             | attr_stmt {% first %}
             | unification_stmt {% first %}
             | expr_stmt {% first %}
             | assert_stmt {% first %}
             | import_stmt {% first %}
             | type_alias_stmt {% first %}

compound_stmt -> if_stmt {% first %}
               | schema_stmt {% first %}
               | rule_stmt {% first %}
               | decorator:+ attr_stmt %NEWLINE {% (d) => ({ ...d[1], decorators: d[0], ...b.loc(d[0][0].loc, d[1]) }) %}

assign_stmt -> assign_targets test
  {% (d): A.AssignStmt => ({ type: 'Assign', targets: d[0], value: d[1], ...b.loc(d[0][0].loc, d[1]) }) %}

assign_targets -> target "=" {% (d) => [d[0]] %}
                | assign_targets target "=" {% (d) => [...d[0], d[1]] %}

target -> %name target_part:* {% (d) => b.target(d[0], d[1]) %}

target_part -> "." %name {% (d) => ({ part: { attr: d[1].value }, end: d[1] }) %}
             | "[" test "]" {% (d) => ({ part: { index: d[1] }, end: d[2] }) %}

aug_assign_stmt -> target aug_op test
  {% (d): A.AugAssignStmt => ({ type: 'AugAssign', target: d[0], op: d[1].text.slice(0, -1), value: d[2], ...b.loc(d[0].loc, d[2]) }) %}

aug_op -> "+=" {% first %} | "-=" {% first %} | "*=" {% first %} | "/=" {% first %} | "//=" {% first %}
        | "%=" {% first %} | "**=" {% first %} | "<<=" {% first %} | ">>=" {% first %} | "&=" {% first %}
        | "|=" {% first %} | "^=" {% first %}

# `name: T`, `name?: T = value`, `"key": T`: schema attributes and typed module declarations
attr_stmt -> attr_name "?":? ":" type (attr_op test):?
  {% (d): A.AttrStmt => ({
       type: 'Attr', name: d[0].value, nameLoc: b.loc(d[0]), optional: d[1] !== null, annotation: d[3],
       op: d[4]?.[0].text, value: d[4]?.[1], decorators: [],
       ...b.loc(d[0], b.lastOf(d[3].loc, d[4])),
     }) %}

attr_op -> "=" {% first %} | "|=" {% first %}

attr_name -> %name {% first %}
           | %string {% (d) => ({ ...d[0], value: b.stringLit(d[0]).value }) %}

unification_stmt -> target ":" schema_expr
  {% (d): A.UnificationStmt => ({ type: 'Unification', target: d[0], value: d[2], ...b.loc(d[0].loc, d[2]) }) %}

expr_stmt -> test {% (d): A.ExprStmt => ({ type: 'ExprStmt', value: d[0], ...b.loc(d[0]) }) %}

assert_stmt -> "assert" test ("if" test):? ("," test):?
  {% (d): A.AssertStmt => ({ type: 'Assert', test: d[1], ifCond: d[2]?.[1], message: d[3]?.[1], ...b.loc(d[0], b.lastOf(d[1], d[2], d[3])) }) %}

import_stmt -> "import" import_path ("as" %name):?
  {% (d): A.ImportStmt => ({ type: 'Import', path: d[1].path, asName: d[2]?.[1].value, ...b.loc(d[0], b.lastOf(d[1].end, d[2])) }) %}

import_path -> import_dots:? %name ("." any_name):*
  {% (d) => ({ path: (d[0] ?? '') + [d[1], ...d[2].map((p: any) => p[1])].map((t: any) => t.value).join('.'), end: b.lastOf(d[1], d[2]) }) %}

import_dots -> import_dot:+ {% (d) => d[0].join('') %}
import_dot -> "." {% () => '.' %} | "..." {% () => '...' %}

type_alias_stmt -> "type" %name "=" type
  {% (d): A.TypeAliasStmt => ({ type: 'TypeAlias', name: d[1].value, value: d[3], ...b.loc(d[0], d[3].loc) }) %}

if_stmt -> "if" test ":" suite elif_clause:* else_clause:?
  {% (d) => b.ifStmt(d[0], d[1], d[3], d[4], d[5]) %}

elif_clause -> "elif" test ":" suite {% (d) => [d[0], d[1], d[2], d[3]] %}
else_clause -> "else" ":" suite {% (d) => d[2] %}

suite -> simple_stmt %NEWLINE {% (d) => [d[0]] %}
       | %NEWLINE %INDENT stmt:+ %DEDENT {% (d) => d[2] %}

decorator -> "@" dotted_name call_suffix:? %NEWLINE
  {% (d): A.Decorator => ({ name: d[1], args: d[2]?.args ?? [], keywords: d[2]?.keywords ?? [], loc: b.loc(d[0], b.lastOf(d[1], d[2]?.end)) }) %}

# ------------------------------------------------------------------ schema, mixin, protocol, rule

schema_stmt -> decorator:* schema_kind %name schema_params:? schema_parent:? schema_for:? ":" %NEWLINE schema_items:?
  {% (d): A.SchemaStmt => ({
       type: 'Schema', kind: d[1].text, name: d[2].value, params: d[3] ?? [], parent: d[4] ?? undefined,
       forProtocol: d[5] ?? undefined, decorators: d[0], ...b.schemaBody(d[8]?.items ?? []),
       ...b.loc(d[0].length ? d[0][0].loc : d[1], d[8]?.end ?? d[7]),
     }) %}

# an empty body is allowed: `schema Empty:` followed by a line at the same level
schema_items -> %INDENT schema_item:+ %DEDENT {% (d) => ({ items: d[1], end: d[2] }) %}

schema_kind -> "schema" {% first %} | "protocol" {% first %} | "mixin" {% first %}

schema_params -> "[" params "]" {% second %}
schema_parent -> "(" dotted_name ")" {% second %}
schema_for -> "for" dotted_name {% second %}

schema_item -> stmt {% first %}
             | mixin_stmt {% first %}
             | index_signature {% first %}
             | check_block {% first %}

mixin_stmt -> "mixin" "[" name_list "]" %NEWLINE
  {% (d): A.MixinStmt => ({ type: 'Mixin', names: d[2], ...b.loc(d[0], d[3]) }) %}

name_list -> (dotted_name sep):* dotted_name:? {% (d) => b.entries(d[0], d[1]) %}

index_signature -> "[" index_key "]" ":" type ("=" test):? %NEWLINE
  {% (d): A.IndexSignature => ({ type: 'IndexSignature', ...d[1], valueType: d[4], value: d[5]?.[1], ...b.loc(d[0], b.lastOf(d[4].loc, d[5])) }) %}

index_key -> (%name ":"):? "...":? type
  {% (d) => ({ keyName: d[0]?.[0].value, anyOther: d[1] !== null, keyType: d[2] }) %}

check_block -> "check" ":" %NEWLINE %INDENT check_item:+ %DEDENT {% (d) => d[4] %}

check_item -> test ("if" test):? ("," test):? %NEWLINE
  {% (d): A.CheckItem => ({ test: d[0], ifCond: d[1]?.[1], message: d[2]?.[1], ...b.loc(d[0], b.lastOf(d[0], d[1], d[2])) }) %}

rule_stmt -> decorator:* "rule" %name schema_params:? rule_parents:? schema_for:? ":" %NEWLINE %INDENT check_item:+ %DEDENT
  {% (d): A.RuleStmt => ({
       type: 'Rule', name: d[2].value, params: d[3] ?? [], parents: d[4] ?? [], forProtocol: d[5] ?? undefined,
       decorators: d[0], ...b.ruleChecks(d[9]), ...b.loc(d[0].length ? d[0][0].loc : d[1], d[10]),
     }) %}

rule_parents -> "(" name_list ")" {% second %}

params -> (param ","):* param {% (d) => [...d[0].map((p: any) => p[0]), d[1]] %}

param -> %name (":" type):? ("=" test):?
  {% (d): A.Param => ({ name: d[0].value, annotation: d[1]?.[1], default: d[2]?.[1], loc: b.loc(d[0], b.lastOf(d[0], d[1]?.[1]?.loc, d[2])) }) %}

# ------------------------------------------------------------------ expressions

test -> simple_expr {% first %}
      | simple_expr "if" simple_expr "else" test {% (d) => b.ifExpr(d[0], d[2], d[4]) %}

simple_expr -> binary {% (d) => b.chain(d[0]) %}
             | binary "as" type {% (d) => b.asExpr(b.chain(d[0]), d[2]) %}

# a flat `operand (op operand)*` chain; `is` is kept apart so `a is not b` has one reading
binary -> operand {% (d) => [d[0]] %}
        | binary binop operand {% (d) => [...d[0], d[1], d[2]] %}
        | binary "is" operand_not_negated {% (d) => [...d[0], 'is', d[2]] %}

binop -> "+" {% () => '+' %} | "-" {% () => '-' %} | "*" {% () => '*' %} | "/" {% () => '/' %}
       | "//" {% () => '//' %} | "%" {% () => '%' %} | "**" {% () => '**' %}
       | "<<" {% () => '<<' %} | ">>" {% () => '>>' %} | "&" {% () => '&' %} | "|" {% () => '|' %} | "^" {% () => '^' %}
       | "==" {% () => '==' %} | "!=" {% () => '!=' %} | "<" {% () => '<' %} | "<=" {% () => '<=' %}
       | ">" {% () => '>' %} | ">=" {% () => '>=' %}
       | "and" {% () => 'and' %} | "or" {% () => 'or' %} | "in" {% () => 'in' %}
       | "not" "in" {% () => 'not in' %} | "is" "not" {% () => 'is not' %}
       # kcl reads `a not None` as `a is not None`
       | "not" {% () => 'is not' %}

operand -> primary {% first %}
         | unary_op primary {% (d) => b.unary(d[0], d[1]) %}
         | "not" primary {% (d) => b.unary(d[0], d[1]) %}

operand_not_negated -> primary {% first %}
                     | unary_op primary {% (d) => b.unary(d[0], d[1]) %}

unary_op -> "-" {% first %} | "+" {% first %} | "~" {% first %}

primary -> atom {% first %}
         | primary trailer {% (d) => b.applyTrailer(d[0], d[1]) %}

trailer -> "." any_name {% (d): b.Trailer => ({ kind: 'attr', name: d[1].value, optional: false, end: d[1] }) %}
         | "?" "." any_name {% (d): b.Trailer => ({ kind: 'attr', name: d[2].value, optional: true, end: d[2] }) %}
         | "[" subscript "]" {% (d): b.Trailer => ({ kind: 'index', sub: d[1], optional: false, end: d[2] }) %}
         | "?" "[" subscript "]" {% (d): b.Trailer => ({ kind: 'index', sub: d[2], optional: true, end: d[3] }) %}
         | call_suffix {% (d): b.Trailer => ({ kind: 'call', ...d[0] }) %}

subscript -> test {% (d) => b.subscriptIndex(d[0]) %}
           | test:? ":" test:? {% (d) => b.subscriptSlice(d[0], d[2], null) %}
           | test:? ":" test:? ":" test:? {% (d) => b.subscriptSlice(d[0], d[2], d[4]) %}

call_suffix -> "(" args ")" {% (d) => ({ ...b.splitArgs(d[1]), end: d[2] }) %}

args -> (arg ","):* arg:? {% (d) => b.entries(d[0], d[1]) %}

arg -> test {% (d): b.Arg => ({ kind: 'pos', value: d[0] }) %}
     | %name "=" test {% (d) => b.keywordArg(d[0], d[2]) %}

atom -> %name {% (d) => b.identifier(d[0]) %}
      | %string {% (d) => b.stringLit(d[0]) %}
      | number {% first %}
      | constant {% first %}
      | "(" test ")" {% (d): A.ParenExpr => ({ type: 'Paren', value: d[1], ...b.loc(d[0], d[2]) }) %}
      | list_expr {% first %}
      | list_comp {% first %}
      | config_expr {% first %}
      | dict_comp {% first %}
      | schema_expr {% first %}
      | quant_expr {% first %}
      | lambda_expr {% first %}

number -> %int {% (d) => b.intLit(d[0]) %}
        | %float {% (d) => b.floatLit(d[0]) %}

constant -> "True" {% (d) => b.constant(d[0]) %} | "False" {% (d) => b.constant(d[0]) %}
          | "None" {% (d) => b.constant(d[0]) %} | "Undefined" {% (d) => b.constant(d[0]) %}

dotted_name -> %name ("." any_name):* {% (d) => b.dotted(d[0], d[1]) %}

# after a dot every word is a name: `pkg.mixin`, `config.type`
any_name -> %name {% first %} | %keyword {% first %}

schema_expr -> dotted_name call_suffix:? config_expr {% (d) => b.schemaExpr(d[0], d[1], d[2]) %}

# `lambda f: (any) -> any {`: the arrow belongs to the function type, so the reading where a
# bare `(any)` leaves it to the lambda is rejected
lambda_expr -> "lambda" params:? ("->" type):? "{" stmt:* "}"
  {% (d, _, reject): A.LambdaExpr | typeof reject => b.arrowTakenByLastParam(d[1], d[2]) ? reject
       : ({ type: 'Lambda', params: d[1] ?? [], returnType: d[2]?.[1], body: d[4], ...b.loc(d[0], d[5]) }) %}

quant_expr -> quant_op %name ("," %name):? "in" quant_target "{" test ("if" test):? "}"
  {% (d): A.QuantExpr => ({
       type: 'QuantExpr', op: d[0].text, targets: d[2] ? [d[1].value, d[2][1].value] : [d[1].value],
       iter: d[4], test: d[6], ifCond: d[7]?.[1], ...b.loc(d[0], d[8]),
     }) %}

quant_op -> "all" {% first %} | "any" {% first %} | "map" {% first %} | "filter" {% first %}

quant_target -> %name {% (d) => b.identifier(d[0]) %}
              | %string {% (d) => b.stringLit(d[0]) %}
              | list_expr {% first %}
              | list_comp {% first %}
              | config_expr {% first %}
              | dict_comp {% first %}
              | quant_target trailer {% (d) => b.applyTrailer(d[0], d[1]) %}

sep -> "," {% first %} | %NEWLINE {% first %}

# ------------------------------------------------------------------ lists

list_expr -> "[" list_items "]" {% (d): A.ListExpr => ({ type: 'ListExpr', items: d[1], ...b.loc(d[0], d[2]) }) %}

list_items -> (list_item sep):* list_item:? {% (d) => b.entries(d[0], d[1]) %}

list_item -> test {% first %}
           | starred {% first %}
           | list_if {% first %}

starred -> "*" simple_expr {% (d): A.StarredExpr => ({ type: 'Starred', value: d[1], ...b.loc(d[0], d[1]) }) %}

list_if -> "if" test ":" list_body list_elif:* list_else:?
  {% (d) => b.ifEntry(b.listIf, d[0], d[1], d[3], d[4], d[5]) %}

list_elif -> %NEWLINE:? "elif" test ":" list_body {% (d) => [d[1], d[2], d[4]] %}
list_else -> %NEWLINE:? "else" ":" list_body {% (d) => d[3] %}

list_body -> list_inline_item {% (d) => [d[0]] %}
           | %NEWLINE %INDENT list_items %DEDENT {% (d) => d[2] %}

list_inline_item -> test {% first %} | starred {% first %}

list_comp -> "[" (test | starred) comp_clause:+ "]"
  {% (d): A.ListComp => ({ type: 'ListComp', element: d[1][0], generators: d[2], ...b.loc(d[0], d[3]) }) %}

# a clause may start a new line inside the brackets
comp_clause -> %NEWLINE:? "for" %name ("," %name):* "in" simple_expr comp_if:*
  {% (d) => b.compClause(d[1], [d[2], ...d[3].map((p: any) => p[1])], d[5], d[6]) %}

comp_if -> %NEWLINE:? "if" simple_expr {% (d) => d[2] %}

# ------------------------------------------------------------------ configs

config_expr -> "{" config_items "}" {% (d): A.ConfigExpr => ({ type: 'ConfigExpr', items: d[1], ...b.loc(d[0], d[2]) }) %}

config_items -> (config_item sep):* config_item:? {% (d) => b.entries(d[0], d[1]) %}

config_item -> config_entry {% first %}
             | config_if {% first %}

config_entry -> simple_expr config_op test {% (d) => b.configEntry(d[0], d[1], d[2]) %}
              | "**" simple_expr {% (d) => b.configEntry(null, d[0], d[1]) %}

config_op -> ":" {% first %} | "=" {% first %} | "+=" {% first %}

config_if -> "if" test ":" config_body config_elif:* config_else:?
  {% (d) => b.ifEntry(b.configIf, d[0], d[1], d[3], d[4], d[5]) %}

config_elif -> %NEWLINE:? "elif" test ":" config_body {% (d) => [d[1], d[2], d[4]] %}
config_else -> %NEWLINE:? "else" ":" config_body {% (d) => d[3] %}

config_body -> config_entry {% (d) => [d[0]] %}
             | %NEWLINE %INDENT config_items %DEDENT {% (d) => d[2] %}

dict_comp -> "{" config_entry comp_clause:+ "}"
  {% (d): A.DictComp => ({ type: 'DictComp', entry: d[1], generators: d[2], ...b.loc(d[0], d[3]) }) %}

# ------------------------------------------------------------------ types

type -> type_member ("|" type_member):* {% (d) => b.unionType(d[0], d[1]) %}

type_member -> dotted_name {% (d) => b.namedType(d[0]) %}
             | "[" type:? "]" {% (d): A.TypeNode => ({ type: 'ListType', element: d[1] ?? undefined, loc: b.loc(d[0], d[2]) }) %}
             | "{" type:? ":" type:? "}" {% (d): A.TypeNode => ({ type: 'DictType', key: d[1] ?? undefined, value: d[3] ?? undefined, loc: b.loc(d[0], d[4]) }) %}
             | %string {% (d) => b.literalType(b.stringLit(d[0])) %}
             | number {% (d) => b.literalType(d[0]) %}
             | constant {% (d) => b.literalType(d[0]) %}
             | "(" type_list ")" ("->" type):? {% (d): A.TypeNode => ({ type: 'FunctionType', params: d[1], ret: d[3]?.[1], loc: b.loc(d[0], d[3] ? d[3][1].loc : d[2]) }) %}

type_list -> null {% () => [] %}
           | type ("," type):* {% (d) => [d[0], ...d[1].map((p: any) => p[1])] %}
