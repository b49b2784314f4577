/**
 * The KCL abstract syntax tree. Every node carries its source span (1-based line and column of
 * its first and last character); the file lives on the Module so nodes stay small.
 */

export interface Loc {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

interface NodeBase extends Loc {
  type: string;
}

// ---------------------------------------------------------------- types

export type TypeNode =
  | { type: 'AnyType'; loc: Loc }
  | { type: 'NamedType'; name: string[]; loc: Loc }
  | { type: 'ListType'; element?: TypeNode; loc: Loc }
  | { type: 'DictType'; key?: TypeNode; value?: TypeNode; loc: Loc }
  | {
      type: 'LiteralType';
      value: string | number | bigint | boolean | null;
      /** The unit suffix of a number multiplier literal (`1Ki`). */
      suffix?: string;
      text: string;
      loc: Loc;
    }
  | { type: 'UnionType'; members: TypeNode[]; loc: Loc }
  | { type: 'FunctionType'; params: TypeNode[]; ret?: TypeNode; loc: Loc };

// ---------------------------------------------------------------- expressions

export type BinaryOp =
  | '+'
  | '-'
  | '*'
  | '/'
  | '//'
  | '%'
  | '**'
  | '<<'
  | '>>'
  | '&'
  | '|'
  | '^'
  | 'and'
  | 'or'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'in'
  | 'not in'
  | 'is'
  | 'is not';

export type UnaryOp = '+' | '-' | '~' | 'not';

export type ConfigOp = ':' | '=' | '+=';

export interface Identifier extends NodeBase {
  type: 'Identifier';
  /** Dotted names such as `a.b.c` are one identifier with several parts. */
  names: string[];
}

export interface StringPart {
  /** Literal text, or an interpolated expression with an optional format spec (`#json`, `#yaml`). */
  text?: string;
  expr?: Expr;
  spec?: string;
}

export interface StringLit extends NodeBase {
  type: 'StringLit';
  value: string;
  /** Present only when the string has `${...}` interpolation. */
  parts?: StringPart[];
  raw: string;
}

export interface NumberLit extends NodeBase {
  type: 'NumberLit';
  /** With a suffix, the number as written before it (`1` of `1Ki`). */
  value: bigint | number;
  /** The unit suffix of `1Ki`, `2M`, … when there is one: the literal is a number multiplier. */
  suffix?: string;
}

export interface NameConstant extends NodeBase {
  type: 'NameConstant';
  value: true | false | null | 'Undefined';
}

export interface ListExpr extends NodeBase {
  type: 'ListExpr';
  items: ListItem[];
}

export type ListItem = Expr | StarredExpr | ListIfItem;

export interface StarredExpr extends NodeBase {
  type: 'Starred';
  value: Expr;
}

export interface ListIfItem extends NodeBase {
  type: 'ListIfItem';
  cond: Expr;
  body: ListItem[];
  orelse?: ListItem[] | ListIfItem;
}

export interface ConfigEntry extends NodeBase {
  type: 'ConfigEntry';
  /** Undefined key means `**expr` unpacking. */
  key?: Expr;
  op: ConfigOp;
  value: Expr;
}

export interface ConfigIfEntry extends NodeBase {
  type: 'ConfigIfEntry';
  cond: Expr;
  body: ConfigItem[];
  orelse?: ConfigItem[] | ConfigIfEntry;
}

export type ConfigItem = ConfigEntry | ConfigIfEntry;

export interface ConfigExpr extends NodeBase {
  type: 'ConfigExpr';
  items: ConfigItem[];
}

export interface CompClause extends NodeBase {
  type: 'CompClause';
  targets: string[];
  targetLocs: Loc[];
  iter: Expr;
  ifs: Expr[];
}

export interface ListComp extends NodeBase {
  type: 'ListComp';
  element: Expr | StarredExpr;
  generators: CompClause[];
}

export interface DictComp extends NodeBase {
  type: 'DictComp';
  entry: ConfigEntry;
  generators: CompClause[];
}

export interface QuantExpr extends NodeBase {
  type: 'QuantExpr';
  op: 'all' | 'any' | 'map' | 'filter';
  targets: string[];
  iter: Expr;
  test: Expr;
  ifCond?: Expr;
}

export interface BinaryExpr extends NodeBase {
  type: 'Binary';
  op: BinaryOp;
  left: Expr;
  right: Expr;
}

/** A comparison run such as `a < b <= c`, evaluated pairwise like kcl (and Python) do. */
export interface CompareExpr extends NodeBase {
  type: 'Compare';
  left: Expr;
  ops: BinaryOp[];
  comparators: Expr[];
}

export interface UnaryExpr extends NodeBase {
  type: 'Unary';
  op: UnaryOp;
  operand: Expr;
}

export interface AsExpr extends NodeBase {
  type: 'As';
  value: Expr;
  target: TypeNode;
}

export interface IfExpr extends NodeBase {
  type: 'IfExpr';
  cond: Expr;
  body: Expr;
  orelse: Expr;
}

export interface SelectorExpr extends NodeBase {
  type: 'Selector';
  value: Expr;
  attr: string;
  optional: boolean;
}

export interface SubscriptExpr extends NodeBase {
  type: 'Subscript';
  value: Expr;
  index?: Expr;
  lower?: Expr;
  upper?: Expr;
  step?: Expr;
  isSlice: boolean;
  optional: boolean;
}

export interface Keyword {
  name: string;
  value: Expr;
  loc: Loc;
}

export interface CallExpr extends NodeBase {
  type: 'Call';
  func: Expr;
  args: Expr[];
  keywords: Keyword[];
}

export interface SchemaExpr extends NodeBase {
  type: 'SchemaExpr';
  /** Usually a (dotted) name; any other expression fails at evaluation as "not a schema". */
  name: Expr;
  args: Expr[];
  keywords: Keyword[];
  config: ConfigExpr | DictComp;
}

export interface Param {
  name: string;
  annotation?: TypeNode;
  default?: Expr;
  loc: Loc;
}

export interface LambdaExpr extends NodeBase {
  type: 'Lambda';
  params: Param[];
  returnType?: TypeNode;
  body: Stmt[];
}

export interface ParenExpr extends NodeBase {
  type: 'Paren';
  value: Expr;
}

export type Expr =
  | Identifier
  | StringLit
  | NumberLit
  | NameConstant
  | ListExpr
  | ConfigExpr
  | ListComp
  | DictComp
  | QuantExpr
  | BinaryExpr
  | CompareExpr
  | UnaryExpr
  | AsExpr
  | IfExpr
  | SelectorExpr
  | SubscriptExpr
  | CallExpr
  | SchemaExpr
  | LambdaExpr
  | ParenExpr;

// ---------------------------------------------------------------- statements

export interface Decorator {
  name: Identifier;
  args: Expr[];
  keywords: Keyword[];
  loc: Loc;
}

export interface ImportStmt extends NodeBase {
  type: 'Import';
  path: string;
  asName?: string;
}

export interface TypeAliasStmt extends NodeBase {
  type: 'TypeAlias';
  name: string;
  value: TypeNode;
}

/** An assignment target: a name, optionally followed by `.attr` and `[index]` selectors. */
export interface Target {
  name: string;
  path: ({ attr: string } | { index: Expr })[];
  loc: Loc;
}

export interface AssignStmt extends NodeBase {
  type: 'Assign';
  targets: Target[];
  annotation?: TypeNode;
  value: Expr;
}

export interface AugAssignStmt extends NodeBase {
  type: 'AugAssign';
  target: Target;
  op: BinaryOp;
  value: Expr;
}

/** `name: T` / `name?: T = default` / `"key": T`: a schema attribute, or a typed declaration. */
export interface AttrStmt extends NodeBase {
  type: 'Attr';
  name: string;
  nameLoc: Loc;
  optional: boolean;
  annotation: TypeNode;
  /** `=` sets the default; `|=` unions it with the inherited one. */
  op?: '=' | '|=';
  value?: Expr;
  decorators: Decorator[];
}

export interface UnificationStmt extends NodeBase {
  type: 'Unification';
  target: Target;
  value: SchemaExpr;
}

export interface ExprStmt extends NodeBase {
  type: 'ExprStmt';
  value: Expr;
}

export interface AssertStmt extends NodeBase {
  type: 'Assert';
  test: Expr;
  ifCond?: Expr;
  message?: Expr;
}

export interface IfStmt extends NodeBase {
  type: 'If';
  cond: Expr;
  body: Stmt[];
  orelse: Stmt[];
}

export interface CheckItem extends Loc {
  test: Expr;
  ifCond?: Expr;
  message?: Expr;
}

export interface IndexSignature extends NodeBase {
  type: 'IndexSignature';
  keyName?: string;
  keyType: TypeNode;
  valueType: TypeNode;
  anyOther: boolean;
  value?: Expr;
}

export interface MixinStmt extends NodeBase {
  type: 'Mixin';
  names: Identifier[];
}

export interface SchemaStmt extends NodeBase {
  type: 'Schema';
  name: string;
  nameLoc: Loc;
  kind: 'schema' | 'mixin' | 'protocol';
  params: Param[];
  parent?: Identifier;
  forProtocol?: Identifier;
  decorators: Decorator[];
  doc?: string;
  mixins: Identifier[];
  indexSignature?: IndexSignature;
  body: Stmt[];
  checks: CheckItem[];
}

export interface RuleStmt extends NodeBase {
  type: 'Rule';
  name: string;
  params: Param[];
  parents: Identifier[];
  forProtocol?: Identifier;
  decorators: Decorator[];
  doc?: string;
  checks: CheckItem[];
}

export type Stmt =
  | ImportStmt
  | TypeAliasStmt
  | AssignStmt
  | AugAssignStmt
  | AttrStmt
  | UnificationStmt
  | ExprStmt
  | AssertStmt
  | IfStmt
  | SchemaStmt
  | RuleStmt
  | IndexSignature
  | MixinStmt;

export interface Module {
  file: string;
  /** The docstring opening the file, as written. */
  doc?: string;
  body: Stmt[];
}
