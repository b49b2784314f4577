# The KCL grammar (nearley). Tokens come from src/kcl/lexer.ts, which also produces the layout
# tokens NEWLINE, INDENT and DEDENT and classifies tokens (binop, augop, number, constant).
#
# Shaped for speed and for exactly one parse of every input:
# - binary operators are one terminal class and one flat left-recursive rule; precedence is
#   applied afterwards by ast-build.chain, so an operand is not pushed up through fifteen
#   precedence levels on every token;
# - alternatives that start with a distinct token are inlined where they are predicted at every
#   operand (atoms, trailers), so each prediction is one Earley item, not a cascade of rules;
# - lists are left-recursive or EBNF, never `x -> x x`;
# - `(item sep)* item?` for every separated list, so a trailing separator has one reading.
# %quantifier, %prefixOp, %anyName and %separator are token tests (src/kcl/lexer-instance.ts).

@preprocessor typescript

@{%
import * as b from './ast-build.js';
import { grammarLexer as lexer, TOKEN_TESTS } from './lexer-instance.js';

// `var … : any` because nearleyc declares every %name it meets as `declare var name: any`
var quantifier: any = TOKEN_TESTS.quantifier;
var prefixOp: any = TOKEN_TESTS.prefixOp;
var anyName: any = TOKEN_TESTS.anyName;
var separator: any = TOKEN_TESTS.separator;
const first = (d: any[]) => d[0];
const second = (d: any[]) => d[1];
%}

@lexer lexer

# ------------------------------------------------------------------ module and statements

module -> stmt:* {% (d) => d[0] %}

stmt -> simple_stmt %NEWLINE {% first %}
      | if_stmt {% first %}
      | schema_stmt {% first %}
      | rule_stmt {% first %}
      | decorator:+ attr_stmt %NEWLINE {% (d) => b.decorated(d[0], d[1]) %}

simple_stmt -> assign_targets test {% (d) => b.assignStmt(d[0], d[1]) %}
             | target %augop test {% (d) => b.augAssignStmt(d[0], d[1], d[2]) %}
             | attr_stmt {% first %}
             | target ":" test_schema {% (d) => b.unificationStmt(d[0], d[2]) %}
             | test {% (d) => b.exprStmt(d[0]) %}
             | "assert" test ("if" test):? ("," test):? {% (d) => b.assertStmt(d[0], d[1], d[2], d[3]) %}
             | "import" import_path ("as" %name):? {% (d) => b.importStmt(d[0], d[1], d[2]) %}
             | "type" %name "=" type {% (d) => b.typeAliasStmt(d[0], d[1], d[3]) %}

assign_targets -> target "=" {% (d) => [d[0]] %}
                | assign_targets target "=" {% (d) => [...d[0], d[1]] %}

target -> %name {% (d) => b.target(d[0], []) %}
        | %name target_part:+ {% (d) => b.target(d[0], d[1]) %}

target_part -> "." %anyName {% (d) => b.targetAttr(d[1]) %}
             | "[" test "]" {% (d) => b.targetIndex(d[1], d[2]) %}

# the value of `a: S {...}` (unification) is a schema instantiation
test_schema -> primary "{" config_inner "}" {% (d) => b.schemaExpr(d[0], d[1], d[2], d[3]) %}

# `name: T`, `name?: T = value`, `"key": T |= value`: schema attributes and typed declarations
attr_stmt -> attr_name "?":? ":" type (attr_op test):? {% (d) => b.attrStmt(d[0], d[1], d[3], d[4]) %}

attr_op -> "=" {% first %} | "|=" {% first %}

attr_name -> %name {% first %}
           | %string {% (d) => b.quotedName(d[0]) %}

import_path -> import_dot:* %name ("." %anyName):* {% (d) => b.importPath(d[0], d[1], d[2]) %}

import_dot -> "." {% () => '.' %} | "..." {% () => '...' %}

if_stmt -> "if" test ":" suite elif_clause:* else_clause:?
  {% (d) => b.ifStmt(d[0], d[1], d[3], d[4], d[5]) %}

elif_clause -> "elif" test ":" suite {% (d) => [d[0], d[1], d[2], d[3]] %}
else_clause -> "else" ":" suite {% (d) => d[2] %}

suite -> simple_stmt %NEWLINE {% (d) => [d[0]] %}
       | %NEWLINE %INDENT stmt:+ %DEDENT {% (d) => d[2] %}

decorator -> "@" dotted_name %NEWLINE {% (d) => b.decorator(d[0], d[1], null) %}
           | "@" dotted_name "(" args ")" %NEWLINE {% (d) => b.decorator(d[0], d[1], [d[3], d[4]]) %}

# ------------------------------------------------------------------ schema, mixin, protocol, rule

schema_stmt -> decorator:* schema_kind %name schema_params:? schema_parent:? schema_for:? ":" %NEWLINE schema_items:?
  {% (d) => b.schemaStmt(d[0], d[1], d[2], d[3], d[4], d[5], d[7], d[8]) %}

# an empty body is allowed: `schema Empty:` followed by a line at the same level
schema_items -> %INDENT schema_item:+ %DEDENT {% (d) => ({ items: d[1], end: d[2] }) %}

schema_kind -> "schema" {% first %} | "protocol" {% first %} | "mixin" {% first %}

schema_params -> "[" params "]" {% second %}
schema_parent -> "(" dotted_name ")" {% second %}
schema_for -> "for" dotted_name {% second %}

schema_item -> stmt {% first %}
             | "mixin" "[" name_list "]" %NEWLINE {% (d) => b.mixinStmt(d[0], d[2], d[3]) %}
             | "[" index_key "]" ":" type ("=" test):? %NEWLINE
  {% (d) => b.indexSignature(d[0], d[1][0]?.[0] ?? null, d[1][1] !== null, d[1][2], d[4], d[5]) %}
             | "check" ":" %NEWLINE %INDENT check_item:+ %DEDENT {% (d) => d[4] %}

name_list -> (dotted_name %separator):* dotted_name:? {% (d) => b.entries(d[0], d[1]) %}

index_key -> (%name ":"):? "...":? type

check_item -> test ("if" test):? ("," test):? %NEWLINE {% (d) => b.checkItem(d[0], d[1], d[2]) %}

rule_stmt -> decorator:* "rule" %name schema_params:? rule_parents:? schema_for:? ":" %NEWLINE %INDENT check_item:+ %DEDENT
  {% (d) => b.ruleStmt(d[0], d[1], d[2], d[3], d[4], d[5], d[9], d[10]) %}

rule_parents -> "(" name_list ")" {% second %}

params -> (param ","):* param {% (d) => [...d[0].map((p: any) => p[0]), d[1]] %}

# a parameter's type cannot end in a bare `(A, B)` function type: in `lambda f: (A) -> B {` the
# arrow belongs to the function type, never to the lambda
param -> %name (":" param_type):? ("=" test):? {% (d) => b.param(d[0], d[1]?.[1] ?? null, d[2]?.[1] ?? null) %}

# ------------------------------------------------------------------ expressions

test -> simple_expr {% first %}
      | simple_expr "if" simple_expr "else" test {% (d) => b.ifExpr(d[0], d[2], d[4]) %}

# `as` binds loosest of the binary operators, as in kcl's parser: `x as str if c else None`
# reads as `(x as str) if c else None`
simple_expr -> binary {% (d) => b.chain(d[0]) %}
             | binary "as" type {% (d) => b.asExpr(b.chain(d[0]), d[2]) %}

# a flat `operand (op operand)*` chain, folded by precedence in ast-build.chain; an operand is a
# primary with or without a prefix operator, spelled out in each rule rather than a rule of its
# own, which would complete once more for every operand
binary -> primary {% (d) => [d[0]] %}
        | %prefixOp primary {% (d) => [b.unary(d[0], d[1])] %}
        | binary %binop primary {% (d) => [...d[0], d[1].text, d[2]] %}
        | binary %binop %prefixOp primary {% (d) => [...d[0], d[1].text, b.unary(d[2], d[3])] %}
        # kcl reads `a not None` as `a is not None`
        | binary "not" primary {% (d) => [...d[0], 'is not', d[2]] %}
        | binary "not" %prefixOp primary {% (d) => [...d[0], 'is not', b.unary(d[2], d[3])] %}

# the atoms are alternatives of primary itself: a rule of their own would complete once more for
# every operand
primary -> %name {% (d) => b.identifier(d[0]) %}
         | %string {% (d) => b.stringLit(d[0]) %}
         | %number {% (d) => b.numberLit(d[0]) %}
         | %constant {% (d) => b.constant(d[0]) %}
         | "(" test ")" {% (d) => b.paren(d[0], d[1], d[2]) %}
         | "[" list_inner "]" {% (d) => b.listOrComp(d[0], d[1], d[2]) %}
         | "{" config_inner "}" {% (d) => b.configOrComp(d[0], d[1], d[2]) %}
         | %quantifier %name ("," %name):? "in" quant_target "{" test ("if" test):? "}"
    {% (d) => b.quantExpr(d[0], d[1], d[2], d[4], d[6], d[7], d[8]) %}
         | "lambda" params:? ("->" type):? "{" stmt:* "}" {% (d) => b.lambdaExpr(d[0], d[1], d[2], d[4], d[5]) %}
         # kcl's braced parameters, told from a body by the arrow after them (see the lexer)
         | "lambda" "{" params:? "}" "->" type "{" stmt:* "}" {% (d) => b.lambdaExpr(d[0], d[2], [d[4], d[5]], d[7], d[8]) %}
         | primary "." %anyName {% (d) => b.selector(d[0], d[2], false) %}
         | primary "?" "." %anyName {% (d) => b.selector(d[0], d[3], true) %}
         | primary "[" subscript "]" {% (d) => b.subscript(d[0], d[2], false, d[3]) %}
         | primary "?" "[" subscript "]" {% (d) => b.subscript(d[0], d[3], true, d[4]) %}
         | primary "(" args ")" {% (d) => b.call(d[0], d[2], d[3]) %}
         | primary "{" config_inner "}" {% (d) => b.schemaExpr(d[0], d[1], d[2], d[3]) %}

subscript -> test {% (d) => b.subscriptIndex(d[0]) %}
           | test:? ":" test:? {% (d) => b.subscriptSlice(d[0], d[2], null) %}
           | test:? ":" test:? ":" test:? {% (d) => b.subscriptSlice(d[0], d[2], d[4]) %}

args -> (arg ","):* arg:? {% (d) => b.entries(d[0], d[1]) %}

arg -> test {% (d): b.Arg => ({ kind: 'pos', value: d[0] }) %}
     | %name "=" test {% (d) => b.keywordArg(d[0], d[2]) %}

dotted_name -> %name ("." %anyName):* {% (d) => b.dotted(d[0], d[1]) %}

quant_target -> %name {% (d) => b.identifier(d[0]) %}
              | %string {% (d) => b.stringLit(d[0]) %}
              | "[" list_inner "]" {% (d) => b.listOrComp(d[0], d[1], d[2]) %}
              | "{" config_inner "}" {% (d) => b.configOrComp(d[0], d[1], d[2]) %}
              | quant_target "." %anyName {% (d) => b.selector(d[0], d[2], false) %}
              | quant_target "?" "." %anyName {% (d) => b.selector(d[0], d[3], true) %}
              | quant_target "[" subscript "]" {% (d) => b.subscript(d[0], d[2], false, d[3]) %}
              | quant_target "(" args ")" {% (d) => b.call(d[0], d[2], d[3]) %}

# ------------------------------------------------------------------ lists

list_inner -> list_items {% (d) => ({ items: d[0] }) %}
            | list_element comp_clause:+ {% (d) => ({ element: d[0], generators: d[1] }) %}

list_items -> (list_item %separator):* list_item:? {% (d) => b.entries(d[0], d[1]) %}

list_item -> list_element {% first %}
           | list_if {% first %}

list_element -> test {% first %}
              | "*" test {% (d) => b.starred(d[0], d[1]) %}

list_if -> "if" test ":" list_body list_elif:* list_else:?
  {% (d) => b.ifEntry(b.listIf, d[0], d[1], d[3], d[4], d[5]) %}

list_elif -> %NEWLINE:? "elif" test ":" list_body {% (d) => [d[1], d[2], d[4]] %}
list_else -> %NEWLINE:? "else" ":" list_body {% (d) => d[3] %}

# an inline body may itself be a one-line `if` (without elif/else, so an else has one owner)
list_body -> list_element {% (d) => [d[0]] %}
           | "if" test ":" list_body {% (d) => [b.listIf(d[1], d[3], undefined, d[0], b.lastOf(d[3]))] %}
           | %NEWLINE %INDENT list_items %DEDENT {% (d) => d[2] %}

# a clause may start a new line inside the brackets
comp_clause -> %NEWLINE:? "for" %name ("," %name):* "in" binary comp_if:*
  {% (d) => b.compClause(d[1], [d[2], ...d[3].map((p: any) => p[1])], b.chain(d[5]), d[6]) %}

comp_if -> %NEWLINE:? "if" binary {% (d) => b.chain(d[2]) %}

# ------------------------------------------------------------------ configs

config_inner -> config_items {% (d) => ({ items: d[0] }) %}
              | config_entry comp_clause:+ {% (d) => ({ entry: d[0], generators: d[1] }) %}

config_items -> (config_item %separator):* config_item:? {% (d) => b.entries(d[0], d[1]) %}

config_item -> config_entry {% first %}
             | config_if {% first %}

config_entry -> binary config_op test {% (d) => b.configEntry(b.chain(d[0]), d[1], d[2]) %}
              | "**" binary {% (d) => b.configEntry(null, d[0], b.chain(d[1])) %}

config_op -> ":" {% first %} | "=" {% first %} | "+=" {% first %}

config_if -> "if" test ":" config_body config_elif:* config_else:?
  {% (d) => b.ifEntry(b.configIf, d[0], d[1], d[3], d[4], d[5]) %}

config_elif -> %NEWLINE:? "elif" test ":" config_body {% (d) => [d[1], d[2], d[4]] %}
config_else -> %NEWLINE:? "else" ":" config_body {% (d) => d[3] %}

config_body -> config_entry {% (d) => [d[0]] %}
             | "if" test ":" config_body {% (d) => [b.configIf(d[1], d[3], undefined, d[0], b.lastOf(d[3]))] %}
             | %NEWLINE %INDENT config_items %DEDENT {% (d) => d[2] %}

# ------------------------------------------------------------------ types

type -> type_member {% first %}
      | type "|" type_member {% (d) => b.unionType(d[0], d[2]) %}

param_type -> closed_type {% first %}
            | type "|" closed_type {% (d) => b.unionType(d[0], d[2]) %}

type_member -> closed_type {% first %}
             | "(" type_list ")" {% (d) => b.functionType(d[0], d[1], d[2], null) %}

closed_type -> dotted_name {% (d) => b.namedType(d[0]) %}
             | "[" type:? "]" {% (d) => b.listType(d[0], d[1], d[2]) %}
             | "{" type:? ":" type:? "}" {% (d) => b.dictType(d[0], d[1], d[3], d[4]) %}
             | %string {% (d) => b.literalType(b.stringLit(d[0])) %}
             | %number {% (d) => b.literalType(b.numberLit(d[0])) %}
             | %constant {% (d) => b.literalType(b.constant(d[0])) %}
             | "(" type_list ")" "->" type {% (d) => b.functionType(d[0], d[1], d[2], d[4]) %}

type_list -> null {% () => [] %}
           | type ("," type):* {% (d) => [d[0], ...d[1].map((p: any) => p[1])] %}
