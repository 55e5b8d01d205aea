/**
 * A hand-written parser for the subset of GraphQL the service sends (see
 * server/gitlab/graphql-pipelines.ts): one `query` operation with variable definitions, aliases,
 * fields with arguments (variables, strings, numbers, booleans, null, enum values) and nested
 * selections. No fragments, directives, lists or object literals — a query using them gets a parse
 * error, as a query GitLab's schema does not know would. This is deliberately not a full GraphQL
 * implementation; it exists so the simulator can answer, and refuse, like GitLab does.
 */

/** An argument value as written in the query. */
export type ValueNode =
  | { kind: 'variable'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'enum'; value: string };

/** A field in a selection set. */
export interface FieldNode {
  alias: string | null;
  name: string;
  args: Map<string, ValueNode>;
  selections: FieldNode[];
}

/** A parsed operation. */
export interface OperationNode {
  name: string | null;
  variables: Map<string, { type: string; defaultValue: ValueNode | null }>;
  selections: FieldNode[];
}

/** A syntax error, reported the way graphql-ruby words it. */
export class GraphQLSyntaxError extends Error {}

const PUNCTUATION = new Set(['{', '}', '(', ')', ':', '$', '!', '=', '[', ']', '@', '.']);

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (/[\s,]/.test(c) || c === '\ufeff') {
      i++;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== '"') {
        if (source[j] === '\\') {
          const next = source[j + 1];
          text += next === 'n' ? '\n' : next === 't' ? '\t' : (next ?? '');
          j += 2;
        } else text += source[j++];
      }
      if (j >= source.length) throw new GraphQLSyntaxError('Unterminated string');
      tokens.push(`"${text}`);
      i = j + 1;
    } else if (PUNCTUATION.has(c)) {
      if (c === '.') throw new GraphQLSyntaxError('Fragments are not supported');
      tokens.push(c);
      i++;
    } else if (/[-0-9]/.test(c)) {
      const match = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(source.slice(i));
      if (!match) throw new GraphQLSyntaxError(`Unexpected character "${c}"`);
      tokens.push(`#${match[0]}`);
      i += match[0].length;
    } else if (/[_A-Za-z]/.test(c)) {
      const match = /^[_A-Za-z][_0-9A-Za-z]*/.exec(source.slice(i))!;
      tokens.push(match[0]);
      i += match[0].length;
    } else {
      throw new GraphQLSyntaxError(`Unexpected character "${c}"`);
    }
    if (tokens.length > 20_000) throw new GraphQLSyntaxError('Query too large');
  }
  return tokens;
}

/** Parses one operation; throws GraphQLSyntaxError for anything outside the subset. */
export function parseOperation(source: string): OperationNode {
  const tokens = tokenize(source);
  let at = 0;
  const peek = (): string | undefined => tokens[at];
  const next = (): string => {
    const token = tokens[at++];
    if (token === undefined) throw new GraphQLSyntaxError('Unexpected end of document');
    return token;
  };
  const expect = (token: string): void => {
    const got = next();
    if (got !== token) throw new GraphQLSyntaxError(`Expected "${token}", got "${got}"`);
  };
  const name = (): string => {
    const token = next();
    if (!/^[_A-Za-z]/.test(token)) throw new GraphQLSyntaxError(`Expected a name, got "${token}"`);
    return token;
  };
  const value = (): ValueNode => {
    const token = next();
    if (token === '$') return { kind: 'variable', name: name() };
    if (token.startsWith('"')) return { kind: 'string', value: token.slice(1) };
    if (token.startsWith('#')) return { kind: 'number', value: Number(token.slice(1)) };
    if (token === 'true' || token === 'false') return { kind: 'boolean', value: token === 'true' };
    if (token === 'null') return { kind: 'null' };
    if (/^[_A-Za-z]/.test(token)) return { kind: 'enum', value: token };
    throw new GraphQLSyntaxError(`Unexpected "${token}" in an argument`);
  };
  const selectionSet = (depth: number): FieldNode[] => {
    if (depth > 50) throw new GraphQLSyntaxError('Selections nested too deeply');
    expect('{');
    const fields: FieldNode[] = [];
    while (peek() !== '}') {
      let fieldName = name();
      let alias: string | null = null;
      if (peek() === ':') {
        next();
        alias = fieldName;
        fieldName = name();
      }
      const args = new Map<string, ValueNode>();
      if (peek() === '(') {
        next();
        while (peek() !== ')') {
          const arg = name();
          expect(':');
          args.set(arg, value());
        }
        next();
      }
      if (peek() === '@') throw new GraphQLSyntaxError('Directives are not supported');
      const selections = peek() === '{' ? selectionSet(depth + 1) : [];
      fields.push({ alias, name: fieldName, args, selections });
    }
    next();
    return fields;
  };

  let operationName: string | null = null;
  const variables = new Map<string, { type: string; defaultValue: ValueNode | null }>();
  if (peek() === 'query') {
    next();
    if (peek() !== '(' && peek() !== '{') operationName = name();
    if (peek() === '(') {
      next();
      while (peek() !== ')') {
        expect('$');
        const variable = name();
        expect(':');
        if (peek() === '[') throw new GraphQLSyntaxError('List types are not supported');
        let type = name();
        if (peek() === '!') {
          next();
          type += '!';
        }
        let defaultValue: ValueNode | null = null;
        if (peek() === '=') {
          next();
          defaultValue = value();
        }
        variables.set(variable, { type, defaultValue });
      }
      next();
    }
  } else if (peek() !== '{') {
    throw new GraphQLSyntaxError(`Only queries are supported, got "${peek() ?? ''}"`);
  }
  const selections = selectionSet(0);
  if (at !== tokens.length) throw new GraphQLSyntaxError('Only one operation is supported');
  return { name: operationName, variables, selections };
}
