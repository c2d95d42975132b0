/**
 * A parser for the part of Go's text/template that Cluster API's ClusterClasses use: text,
 * `{{ }}` actions with `{{-`/`-}}` trimming, comments, pipelines with `|`, `if`/`else if`/`else`,
 * `range`, `with`, parenthesised pipelines, fields (`.a.b`, `$.a`), variables (`$x := …`) and
 * string, number, bool and nil literals. Errors name the template position.
 */

export type Operand =
  | { type: 'field'; root: 'dot' | 'root' | 'var'; name?: string; path: string[] }
  | { type: 'literal'; value: unknown }
  | { type: 'ident'; name: string }
  | { type: 'pipe'; pipe: Pipeline };

export interface Command {
  args: Operand[];
}

export interface Pipeline {
  declare?: string;
  commands: Command[];
}

export type Node =
  | { type: 'text'; text: string }
  | { type: 'action'; pipe: Pipeline }
  | { type: 'if' | 'with'; pipe: Pipeline; whenTrue: Node[]; otherwise: Node[] }
  | { type: 'range'; pipe: Pipeline; body: Node[]; otherwise: Node[] };

export class TemplateError extends Error {}

interface Token {
  kind: 'text' | 'action';
  value: string;
  offset: number;
}

const TRIM_LEFT = /^-[ \t\n]/;

/** The action opening at `open`: its token, whether it trims the text before it, and where the text after it starts. */
function readAction(source: string, open: number): { token: Token; trimBefore: boolean; next: number } {
  const trimBefore = TRIM_LEFT.test(source.slice(open + 2, open + 4));
  const start = open + 2 + (trimBefore ? 1 : 0);
  const close = findClose(source, start);
  if (close < 0) throw new TemplateError(`unclosed action at offset ${open}`);
  const trimAfter = source[close - 1] === '-' && /\s/.test(source[close - 2] ?? '');
  const token: Token = { kind: 'action', value: source.slice(start, trimAfter ? close - 1 : close).trim(), offset: open };
  let next = close + 2;
  if (trimAfter) next = source.length - source.slice(next).replace(/^\s+/, '').length;
  return { token, trimBefore, next };
}

/** Splits the source into text and action tokens, applying trim markers. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('{{', i);
    if (open < 0) {
      tokens.push({ kind: 'text', value: source.slice(i), offset: i });
      break;
    }
    const action = readAction(source, open);
    const text = action.trimBefore ? source.slice(i, open).replace(/\s+$/, '') : source.slice(i, open);
    if (text) tokens.push({ kind: 'text', value: text, offset: i });
    tokens.push(action.token);
    i = action.next;
  }
  return tokens;
}

/** The `}}` closing an action, skipping quoted strings. */
function findClose(source: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < source.length - 1; i++) {
    const c = source[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === '`') quote = c;
    else if (c === '}' && source[i + 1] === '}') return i;
  }
  return -1;
}

type Lexeme = { t: 'str' | 'num' | 'word' | 'field' | 'var' | 'op'; v: string };

/** The lexeme starting at `i` and where it ends; whitespace yields none. */
function lexOne(text: string, i: number, offset: number): { lexeme?: Lexeme; end: number } {
  const c = text[i] ?? '';
  if (/\s/.test(c)) return { end: i + 1 };
  if (c === '"') {
    let j = i + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    if (j >= text.length) throw new TemplateError(`unterminated string at offset ${offset}`);
    return { lexeme: { t: 'str', v: JSON.parse(text.slice(i, j + 1)) }, end: j + 1 };
  }
  if (c === '`') {
    const j = text.indexOf('`', i + 1);
    if (j < 0) throw new TemplateError(`unterminated raw string at offset ${offset}`);
    return { lexeme: { t: 'str', v: text.slice(i + 1, j) }, end: j + 1 };
  }
  if ('|()='.includes(c)) return { lexeme: { t: 'op', v: c }, end: i + 1 };
  if (c === ':' && text[i + 1] === '=') return { lexeme: { t: 'op', v: ':=' }, end: i + 2 };
  const word = /^[^\s|()"`]+/.exec(text.slice(i))?.[0] ?? c;
  return { lexeme: { t: wordType(word), v: word }, end: i + word.length };
}

function wordType(word: string): Lexeme['t'] {
  if (word.startsWith('.')) return 'field';
  if (word.startsWith('$')) return 'var';
  return /^[-+]?\d/.test(word) ? 'num' : 'word';
}

function lexAction(text: string, offset: number): Lexeme[] {
  const out: Lexeme[] = [];
  for (let i = 0; i < text.length; ) {
    const { lexeme, end } = lexOne(text, i, offset);
    if (lexeme) out.push(lexeme);
    i = end;
  }
  return out;
}

function fieldPath(word: string, offset: number): string[] {
  if (word === '.') return [];
  const parts = word.slice(1).split('.');
  if (parts.some((p) => !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(p))) throw new TemplateError(`bad field ${word} at offset ${offset}`);
  return parts;
}

class PipelineParser {
  private i = 0;
  constructor(
    private readonly lex: Lexeme[],
    private readonly offset: number,
  ) {}

  parse(): Pipeline {
    const pipe = this.pipeline();
    if (this.i < this.lex.length) throw new TemplateError(`unexpected "${this.lex[this.i]?.v}" at offset ${this.offset}`);
    return pipe;
  }

  private pipeline(): Pipeline {
    let declare: string | undefined;
    const [a, b] = [this.lex[this.i], this.lex[this.i + 1]];
    if (a?.t === 'var' && b?.t === 'op' && (b.v === ':=' || b.v === '=')) {
      declare = a.v;
      this.i += 2;
    }
    const commands: Command[] = [this.command()];
    while (this.lex[this.i]?.t === 'op' && this.lex[this.i]?.v === '|') {
      this.i++;
      commands.push(this.command());
    }
    return declare ? { declare, commands } : { commands };
  }

  private command(): Command {
    const args: Operand[] = [];
    for (let l = this.lex[this.i]; l && !(l.t === 'op' && (l.v === '|' || l.v === ')')); l = this.lex[this.i]) {
      args.push(this.operand());
    }
    if (args.length === 0) throw new TemplateError(`missing value for command at offset ${this.offset}`);
    return { args };
  }

  private operand(): Operand {
    const l = this.lex[this.i++];
    if (!l) throw new TemplateError(`unexpected end of action at offset ${this.offset}`);
    switch (l.t) {
      case 'str':
        return { type: 'literal', value: l.v };
      case 'num': {
        const n = Number(l.v);
        if (Number.isNaN(n)) throw new TemplateError(`bad number ${l.v} at offset ${this.offset}`);
        return { type: 'literal', value: n };
      }
      case 'field':
        return { type: 'field', root: 'dot', path: fieldPath(l.v, this.offset) };
      case 'var': {
        const [name = '$', ...rest] = l.v.split('.');
        if (name === '$') return { type: 'field', root: 'root', path: rest };
        return { type: 'field', root: 'var', name, path: rest };
      }
      case 'word':
        if (l.v === 'true' || l.v === 'false') return { type: 'literal', value: l.v === 'true' };
        if (l.v === 'nil') return { type: 'literal', value: null };
        return { type: 'ident', name: l.v };
      case 'op': {
        if (l.v !== '(') throw new TemplateError(`unexpected "${l.v}" at offset ${this.offset}`);
        const pipe = this.pipeline();
        if (this.lex[this.i++]?.v !== ')') throw new TemplateError(`unclosed "(" at offset ${this.offset}`);
        return { type: 'pipe', pipe };
      }
    }
  }
}

function parsePipeline(text: string, offset: number): Pipeline {
  return new PipelineParser(lexAction(text, offset), offset).parse();
}

type Stop = 'end' | 'else' | 'eof';
type BlockKeyword = 'if' | 'with' | 'range';

class TemplateParser {
  private i = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  parse(): Node[] {
    const top = this.list();
    if (top.stop !== 'eof') throw new TemplateError(`unexpected {{${top.stop}}} at offset ${top.token?.offset}`);
    return top.nodes;
  }

  /** Nodes up to an `{{end}}`, an `{{else}}` or the end of the template. */
  private list(): { nodes: Node[]; stop: Stop; token?: Token } {
    const nodes: Node[] = [];
    for (let token = this.tokens[this.i]; token; token = this.tokens[this.i]) {
      this.i++;
      if (token.kind === 'text') {
        nodes.push({ type: 'text', text: token.value });
        continue;
      }
      const keyword = /^(if|else|end|range|with)\b/.exec(token.value)?.[1];
      if (keyword === 'end' || keyword === 'else') return { nodes, stop: keyword, token };
      const node = this.action(token, keyword);
      if (node) nodes.push(node);
    }
    return { nodes, stop: 'eof' };
  }

  private action(token: Token, keyword: string | undefined): Node | undefined {
    const body = token.value;
    if (body.startsWith('/*')) {
      if (!body.endsWith('*/')) throw new TemplateError(`unclosed comment at offset ${token.offset}`);
      return undefined;
    }
    if (keyword === 'if' || keyword === 'with' || keyword === 'range') return this.block(keyword, body.slice(keyword.length), token.offset);
    return { type: 'action', pipe: parsePipeline(body, token.offset) };
  }

  private block(keyword: BlockKeyword, rest: string, offset: number): Node {
    const pipe = parsePipeline(rest, offset);
    const first = this.list();
    if (first.stop === 'eof') throw new TemplateError(`unexpected EOF: {{${keyword}}} at offset ${offset} has no {{end}}`);
    const otherwise = first.stop === 'else' ? this.elseBranch(keyword, first.token, offset) : [];
    if (keyword === 'range') return { type: 'range', pipe, body: first.nodes, otherwise };
    return { type: keyword, pipe, whenTrue: first.nodes, otherwise };
  }

  /** `{{else}} … {{end}}`, or `{{else if …}}` chaining another if that shares the `{{end}}`. */
  private elseBranch(keyword: BlockKeyword, token: Token | undefined, offset: number): Node[] {
    const elseBody = (token?.value ?? '').slice(4).trim();
    if (keyword === 'if' && elseBody.startsWith('if ')) return [this.block('if', elseBody.slice(2), token?.offset ?? offset)];
    const second = this.list();
    if (second.stop !== 'end') throw new TemplateError(`{{else}} at offset ${token?.offset} has no {{end}}`);
    return second.nodes;
  }
}

/** Parses a template into a node list; throws TemplateError. */
export function parseTemplate(source: string): Node[] {
  return new TemplateParser(tokenize(source)).parse();
}
