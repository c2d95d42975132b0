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
    let text = source.slice(i, open);
    let start = open + 2;
    if (source.startsWith('- ', start) || source.startsWith('-\t', start) || source.startsWith('-\n', start)) {
      text = text.replace(/\s+$/, '');
      start += 1;
    }
    if (text) tokens.push({ kind: 'text', value: text, offset: i });
    const close = findClose(source, start);
    if (close < 0) throw new TemplateError(`unclosed action at offset ${open}`);
    let end = close;
    let trimAfter = false;
    if (source[close - 1] === '-' && /\s/.test(source[close - 2] ?? '')) {
      end = close - 1;
      trimAfter = true;
    }
    tokens.push({ kind: 'action', value: source.slice(start, end).trim(), offset: open });
    i = close + 2;
    if (trimAfter) while (i < source.length && /\s/.test(source[i] ?? '')) i++;
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

function lexAction(text: string, offset: number): Lexeme[] {
  const out: Lexeme[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (/\s/.test(c)) {
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw new TemplateError(`unterminated string at offset ${offset}`);
      out.push({ t: 'str', v: JSON.parse(text.slice(i, j + 1)) });
      i = j + 1;
    } else if (c === '`') {
      const j = text.indexOf('`', i + 1);
      if (j < 0) throw new TemplateError(`unterminated raw string at offset ${offset}`);
      out.push({ t: 'str', v: text.slice(i + 1, j) });
      i = j + 1;
    } else if ('|()'.includes(c)) {
      out.push({ t: 'op', v: c });
      i++;
    } else if (c === ':' && text[i + 1] === '=') {
      out.push({ t: 'op', v: ':=' });
      i += 2;
    } else if (c === '=') {
      out.push({ t: 'op', v: '=' });
      i++;
    } else {
      const m = /^[^\s|()"`]+/.exec(text.slice(i));
      const word = m?.[0] ?? c;
      if (word.startsWith('.')) out.push({ t: 'field', v: word });
      else if (word.startsWith('$')) out.push({ t: 'var', v: word });
      else if (/^[-+]?\d/.test(word)) out.push({ t: 'num', v: word });
      else out.push({ t: 'word', v: word });
      i += word.length;
    }
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

/** Parses a template into a node list; throws TemplateError. */
export function parseTemplate(source: string): Node[] {
  const tokens = tokenize(source);
  let i = 0;
  type Stop = 'end' | 'else' | 'eof';
  const list = (): { nodes: Node[]; stop: Stop; token?: Token } => {
    const nodes: Node[] = [];
    while (i < tokens.length) {
      const token = tokens[i++] as Token;
      if (token.kind === 'text') {
        nodes.push({ type: 'text', text: token.value });
        continue;
      }
      const body = token.value;
      if (body.startsWith('/*')) {
        if (!body.endsWith('*/')) throw new TemplateError(`unclosed comment at offset ${token.offset}`);
        continue;
      }
      const keyword = /^(if|else|end|range|with)\b/.exec(body)?.[1];
      if (keyword === 'end') return { nodes, stop: 'end', token };
      if (keyword === 'else') return { nodes, stop: 'else', token };
      if (keyword === 'if' || keyword === 'with' || keyword === 'range') {
        nodes.push(block(keyword, body.slice(keyword.length), token.offset));
        continue;
      }
      nodes.push({ type: 'action', pipe: parsePipeline(body, token.offset) });
    }
    return { nodes, stop: 'eof' };
  };
  const block = (keyword: 'if' | 'with' | 'range', rest: string, offset: number): Node => {
    const pipe = parsePipeline(rest, offset);
    const first = list();
    let otherwise: Node[] = [];
    if (first.stop === 'eof') throw new TemplateError(`unexpected EOF: {{${keyword}}} at offset ${offset} has no {{end}}`);
    if (first.stop === 'else') {
      const elseBody = (first.token?.value ?? '').slice(4).trim();
      if (elseBody.startsWith('if ') && keyword === 'if') {
        otherwise = [block('if', elseBody.slice(2), first.token?.offset ?? offset)];
      } else {
        const second = list();
        if (second.stop !== 'end') throw new TemplateError(`{{else}} at offset ${first.token?.offset} has no {{end}}`);
        otherwise = second.nodes;
      }
    }
    if (keyword === 'range') return { type: 'range', pipe, body: first.nodes, otherwise };
    return { type: keyword, pipe, whenTrue: first.nodes, otherwise };
  };
  const top = list();
  if (top.stop !== 'eof') throw new TemplateError(`unexpected {{${top.stop}}} at offset ${top.token?.offset}`);
  return top.nodes;
}
