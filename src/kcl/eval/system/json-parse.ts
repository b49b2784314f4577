/**
 * Strict JSON to KCL values, as kcl's json.decode reads it with serde_json. JSON.parse cannot be
 * used: it loses the difference between `1` (a kcl int) and `1.0` (a float), and the precision of
 * 64-bit ints. Objects keep their key order; a repeated key keeps its first place and last value.
 * Error messages follow serde_json's ("... at line L column C").
 */
import { kclError } from '../../../diagnostics/diagnostics.js';
import { readJsonFloat } from '../../json-number.js';
import { DictValue, type Value } from '../values.js';

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

class JsonParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  parseDocument(): Value {
    this.skipSpace();
    const value = this.value();
    this.skipSpace();
    if (this.pos < this.text.length) this.fail('trailing characters');
    return value;
  }

  private fail(what: string, at = this.pos): never {
    let line = 1;
    let column = 0;
    for (let i = 0; i < at && i < this.text.length; i++) {
      if (this.text[i] === '\n') {
        line++;
        column = 0;
      } else column++;
    }
    if (at < this.text.length) column++;
    throw kclError('EvaluationError', `${what} at line ${line} column ${column}`);
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && ' \t\n\r'.includes(this.text[this.pos])) this.pos++;
  }

  private value(): Value {
    const c = this.text[this.pos];
    if (c === undefined) this.fail('EOF while parsing a value');
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    return this.fail('expected value');
  }

  private object(): Value {
    const out = new DictValue();
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"')
        this.fail(this.pos >= this.text.length ? 'EOF while parsing an object' : 'key must be a string');
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ':')
        this.fail(this.pos >= this.text.length ? 'EOF while parsing an object' : 'expected `:`');
      this.pos++;
      this.skipSpace();
      out.set(key, this.value());
      this.skipSpace();
      const c = this.text[this.pos];
      this.pos++;
      if (c === '}') return out;
      if (c !== ',') this.fail(c === undefined ? 'EOF while parsing an object' : 'expected `,` or `}`', this.pos - 1);
      this.skipSpace();
      if (this.text[this.pos] === '}') this.fail('trailing comma');
    }
  }

  private array(): Value {
    const out: Value[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      out.push(this.value());
      this.skipSpace();
      const c = this.text[this.pos];
      this.pos++;
      if (c === ']') return out;
      if (c !== ',') this.fail(c === undefined ? 'EOF while parsing a list' : 'expected `,` or `]`', this.pos - 1);
      this.skipSpace();
      if (this.text[this.pos] === ']') this.fail('trailing comma');
    }
  }

  private string(): string {
    const text = this.text;
    let out = '';
    this.pos++;
    for (;;) {
      const c = text[this.pos];
      if (c === undefined) this.fail('EOF while parsing a string');
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c < ' ') this.fail('control character (\\u0000-\\u001F) found while parsing a string');
      if (c !== '\\') {
        out += c;
        this.pos++;
        continue;
      }
      const e = text[this.pos + 1];
      this.pos += 2;
      const simple: Record<string, string> = {
        '"': '"',
        '\\': '\\',
        '/': '/',
        b: '\b',
        f: '\f',
        n: '\n',
        r: '\r',
        t: '\t',
      };
      if (e !== undefined && e in simple) out += simple[e];
      else if (e === 'u') out += this.unicodeEscape();
      else this.fail(e === undefined ? 'EOF while parsing a string' : 'invalid escape', this.pos - 1);
    }
  }

  /** `\uXXXX`, pairing surrogates; serde_json refuses a lone one. */
  private unicodeEscape(): string {
    const unit = (): number => {
      const hex = this.text.slice(this.pos, this.pos + 4);
      if (!/^[0-9A-Fa-f]{4}$/.test(hex)) this.fail('invalid escape');
      this.pos += 4;
      return parseInt(hex, 16);
    };
    const first = unit();
    if (first >= 0xdc00 && first <= 0xdfff) this.fail('lone leading surrogate in hex escape');
    if (first < 0xd800 || first > 0xdbff) return String.fromCharCode(first);
    if (!this.text.startsWith('\\u', this.pos)) this.fail('unexpected end of hex escape');
    this.pos += 2;
    const second = unit();
    if (second < 0xdc00 || second > 0xdfff) this.fail('lone leading surrogate in hex escape');
    return String.fromCharCode(first, second);
  }

  /** Ints stay ints while they fit 64 bits; anything with a fraction or exponent is a float. */
  private number(): Value {
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos));
    if (!m) this.fail('invalid number');
    if (/^-?0\d/.test(this.text.slice(this.pos))) this.fail('invalid number', this.pos + 1);
    this.pos += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = BigInt(m[0]);
      if (n >= I64_MIN && n <= I64_MAX) return n;
    }
    const x = readJsonFloat(m[0]);
    if (x === undefined) this.fail('number out of range', this.pos - m[0].length);
    return x;
  }
}

export function parseJson(text: string): Value {
  return new JsonParser(text).parseDocument();
}
