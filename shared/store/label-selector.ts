/**
 * Kubernetes label selectors in their string form (`a=b,c!=d,e in (x,y),f notin (z),g,!h`):
 * parsing into LabelSelectorTerm[] and matching against an object's labels.
 */

import { BadRequestError } from '../errors/index.js';
import type { LabelSelectorTerm } from '../ports/object-store.js';

const KEY = String.raw`(?:[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?`;
const VALUE = `(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?)?`;
const EXISTS = new RegExp(`^(${KEY})$`);
const DOES_NOT_EXIST = new RegExp(`^!\\s*(${KEY})$`);
const EQUALITY = new RegExp(`^(${KEY})\\s*(==|=|!=)\\s*(${VALUE})$`);
const SET = new RegExp(`^(${KEY})\\s+(in|notin)\\s*\\(([^()]*)\\)$`);
const VALUE_ONLY = new RegExp(`^${VALUE}$`);
const MAX_NAME_PART = 63;
const MAX_PREFIX = 253;

/** Parses a selector string; an empty string selects everything. Throws BadRequestError when malformed. */
export function parseLabelSelector(selector: string): LabelSelectorTerm[] {
  const terms: LabelSelectorTerm[] = [];
  for (const raw of splitTopLevel(selector)) {
    const text = raw.trim();
    if (text === '') {
      if (selector.trim() === '') continue;
      throw invalid(selector, 'empty requirement');
    }
    terms.push(parseTerm(text, selector));
  }
  return terms;
}

/** True when every term holds for these labels (AND). */
export function matchesLabelSelector(
  labels: Readonly<Record<string, string>> | undefined,
  terms: readonly LabelSelectorTerm[],
): boolean {
  return terms.every((term) => matchesTerm(labels ?? {}, term));
}

function matchesTerm(labels: Readonly<Record<string, string>>, term: LabelSelectorTerm): boolean {
  const has = Object.hasOwn(labels, term.key);
  const value = labels[term.key];
  switch (term.operator) {
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Equals':
      return has && value === term.values[0];
    case 'NotEquals':
      return !has || value !== term.values[0];
    case 'In':
      return has && value !== undefined && term.values.includes(value);
    case 'NotIn':
      return !has || value === undefined || !term.values.includes(value);
  }
}

function splitTopLevel(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of selector) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (depth < 0) throw invalid(selector, "unbalanced ')'");
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  if (depth !== 0) throw invalid(selector, "unbalanced '('");
  parts.push(current);
  return parts;
}

function parseTerm(text: string, selector: string): LabelSelectorTerm {
  const set = SET.exec(text);
  if (set?.[1] && set[2] && set[3] !== undefined) {
    const values = set[3].split(',').map((v) => v.trim());
    for (const v of values) checkValue(v, selector);
    return { key: checkKey(set[1], selector), operator: set[2] === 'in' ? 'In' : 'NotIn', values };
  }
  const equality = EQUALITY.exec(text);
  if (equality?.[1] && equality[2] && equality[3] !== undefined) {
    const key = checkKey(equality[1], selector);
    const value = checkValue(equality[3], selector);
    return equality[2] === '!='
      ? { key, operator: 'NotEquals', values: [value] }
      : { key, operator: 'Equals', values: [value] };
  }
  const notExists = DOES_NOT_EXIST.exec(text);
  if (notExists?.[1]) return { key: checkKey(notExists[1], selector), operator: 'DoesNotExist', values: [] };
  const exists = EXISTS.exec(text);
  if (exists?.[1]) return { key: checkKey(exists[1], selector), operator: 'Exists', values: [] };
  throw invalid(selector, `cannot parse requirement "${text}"`);
}

function checkKey(key: string, selector: string): string {
  const slash = key.indexOf('/');
  const prefix = slash === -1 ? '' : key.slice(0, slash);
  const name = slash === -1 ? key : key.slice(slash + 1);
  if (prefix.length > MAX_PREFIX) throw invalid(selector, `key prefix longer than ${MAX_PREFIX} characters`);
  if (name.length > MAX_NAME_PART) throw invalid(selector, `key name longer than ${MAX_NAME_PART} characters`);
  return key;
}

function checkValue(value: string, selector: string): string {
  if (value.length > MAX_NAME_PART || !VALUE_ONLY.test(value)) {
    throw invalid(selector, `invalid label value "${value}"`);
  }
  return value;
}

function invalid(selector: string, why: string): BadRequestError {
  return new BadRequestError(`unable to parse requirement in label selector "${selector}": ${why}`);
}
