// Path templates, as core/rest/url.go reads them (path-to-regexp 8's
// syntax, as data-client's RestEndpoint takes it): ':name' fills one
// segment, '*name' an array of segments, '{…}' is an optional group
// written only when its tokens are given, and '\' makes the next character
// literal. This is a port of the engine's rules for what JavaScript must
// know with no engine: a resource's list path, and the URL of a request
// started before datafetch.wasm is ready (prestart.mjs). test/node's
// prestart-url test holds it to the engine's answers.

// A token's name: a letter or '_', then letters, digits and '_'.
const TOKEN_START = /[A-Za-z_]/;
const TOKEN_CHAR = /[A-Za-z0-9_]/;
// A scheme then "://" (the colon may be escaped), as https://example.com/
// starts.
const FULL_URL = /^[A-Za-z][A-Za-z0-9+.-]*\\?:\/\//;

/** isFullURL reports whether s starts with a scheme and "://". */
export function isFullURL(s) {
  return FULL_URL.test(s);
}

/**
 * parsePath parses a path template into {parts, tokens, query}: parts are
 * literal strings, {token, wildcard, at} and {group: parts, at} (at is
 * where the part starts in path); tokens lists every token's name; query
 * is whether the literal text holds a '?'. Tokens are looked for only after
 * a full URL's authority, so that a port is not one. Undefined for a path
 * the engine refuses (a token named twice, braces that do not match).
 */
export function parsePath(path) {
  let start = 0;
  if (isFullURL(path)) {
    const authority = path.indexOf('://') + 3;
    const slash = path.indexOf('/', authority);
    start = slash < 0 ? path.length : slash;
  }
  const state = { i: start, tokens: [], query: false };
  const parts = parseParts(path, state, false);
  if (parts === undefined) return undefined;
  if (start > 0) parts.unshift(path.slice(0, start).replace('\\:', ':'));
  return { parts, tokens: state.tokens, query: state.query };
}

function parseParts(src, state, inGroup) {
  const parts = [];
  let lit = '';
  const flush = () => {
    if (lit === '') return;
    parts.push(lit);
    if (lit.includes('?')) state.query = true;
    lit = '';
  };
  while (state.i < src.length) {
    const c = src[state.i];
    const next = src[state.i + 1];
    if (c === '\\' && next !== undefined) {
      lit += next;
      state.i += 2;
    } else if (c === '{') {
      flush();
      const at = state.i++;
      const group = parseParts(src, state, true);
      if (group === undefined) return undefined;
      parts.push({ group, at });
    } else if (c === '}') {
      if (!inGroup) return undefined;
      flush();
      state.i++;
      return parts;
    } else if ((c === ':' || c === '*') && next !== undefined && TOKEN_START.test(next)) {
      flush();
      const at = state.i;
      let j = state.i + 2;
      while (j < src.length && TOKEN_CHAR.test(src[j])) j++;
      const token = src.slice(state.i + 1, j);
      if (state.tokens.includes(token)) return undefined;
      state.tokens.push(token);
      parts.push({ token, wildcard: c === '*', at });
      state.i = j;
    } else {
      lit += c;
      state.i++;
    }
  }
  if (inGroup) return undefined;
  flush();
  return parts;
}

/**
 * listPath is the path of a resource's list, as data-client derives it:
 * path up to its last token (or the optional group holding it), without
 * the '/' before it. A path without a token is its own list path.
 */
export function listPath(path) {
  const template = parsePath(path);
  if (template === undefined) return path;
  for (let i = template.parts.length - 1; i >= 0; i--) {
    const p = template.parts[i];
    if (typeof p === 'object' && (p.token !== undefined || hasTokens(p.group))) {
      const head = path.slice(0, p.at);
      return head.endsWith('/') ? head.slice(0, -1) : head;
    }
  }
  return path;
}

function hasTokens(parts) {
  return parts.some((p) => typeof p === 'object' && (p.token !== undefined || hasTokens(p.group)));
}

/**
 * fillPath returns urlPrefix and the path of template with its tokens
 * filled from values (JSON data; each segment encoded as
 * encodeURIComponent does), or undefined for values the engine refuses: a
 * token missing, not a string, number or boolean (a wildcard's: not a
 * non-empty array of those), holding a lone surrogate, or making a dot
 * segment ("." or "..", escaped or not, which a URL parser would resolve)
 * in the path.
 */
export function fillPath(urlPrefix, template, values) {
  const out = { url: urlPrefix, filled: [] };
  if (!fillParts(out, template.parts, values)) return undefined;
  const { url, filled } = out;
  for (const start of filled) {
    const before = url.slice(0, start);
    if (/[?#]/.test(before)) break;
    const from = before.lastIndexOf('/') + 1;
    const end = url.slice(start).search(/[/?#]/);
    if (isDotSegment(url.slice(from, end < 0 ? url.length : start + end))) return undefined;
  }
  return url;
}

function fillParts(out, parts, values) {
  for (const part of parts) {
    if (typeof part === 'string') {
      out.url += part;
    } else if (part.group !== undefined) {
      const given = part.group.every((p) => typeof p !== 'object' || p.token === undefined || values[p.token] != null);
      if (given && !fillParts(out, part.group, values)) return false;
    } else if (part.wildcard) {
      const segments = values[part.token];
      if (!Array.isArray(segments) || segments.length === 0) return false;
      for (let i = 0; i < segments.length; i++) {
        if (i > 0) out.url += '/';
        if (!fillToken(out, segments[i])) return false;
      }
    } else if (!fillToken(out, values[part.token])) {
      return false;
    }
  }
  return true;
}

function fillToken(out, v) {
  const text = tokenText(v);
  if (text === undefined || !isWellFormed(text)) return false;
  // Checked escaped, as the URL parser reads it: "%2e%2e" is written
  // %252e%252e, a name.
  const enc = encodeURIComponent(text);
  if (isDotSegment(enc) && !/[?#]/.test(out.url)) return false;
  out.filled.push(out.url.length);
  out.url += enc;
  return true;
}

// tokenText is a token's (or query member's) text: strings, numbers and
// booleans as String() writes them (which is the engine's), undefined for
// the rest.
function tokenText(v) {
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' ? String(v) : undefined;
}

function isDotSegment(segment) {
  const s = segment.replaceAll(/%2e/gi, '.');
  return s === '.' || s === '..';
}

// A lone surrogate: a lead unit not followed by a trail unit, or a trail
// unit not after a lead one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isWellFormed(s) {
  return !LONE_SURROGATE.test(s);
}

/**
 * queryString returns the members of values that are not tokens as a
 * query string, sorted by name (UTF-16 order, as the engine sorts them),
 * encoded as URLSearchParams encodes (an array repeats its name), or
 * undefined for a value the engine refuses (an object, or an array holding
 * one).
 */
export function queryString(values, tokens) {
  const names = Object.keys(values)
    .filter((k) => !tokens.includes(k))
    .sort();
  const query = new URLSearchParams();
  for (const name of names) {
    const v = values[name];
    for (const el of Array.isArray(v) ? v : [v]) {
      const text = el === null ? 'null' : tokenText(el);
      if (text === undefined) return undefined;
      query.append(name, text);
    }
  }
  return query.toString();
}

/**
 * pathRegex returns a RegExp that the path part of a URL made from path
 * matches (as data-client's RestEndpoint.testKey reads keys): each token
 * one or more characters (a ':name' no '/'), a group optional, and one '/'
 * allowed at the end.
 */
export function pathRegex(path) {
  const template = parsePath(path);
  if (template === undefined) return /$^/;
  return new RegExp(`^${patternOf(template.parts)}/?$`);
}

function patternOf(parts) {
  let p = '';
  for (const part of parts) {
    if (typeof part === 'string') p += part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (part.group !== undefined) p += `(?:${patternOf(part.group)})?`;
    else p += part.wildcard ? '[^?#]+' : '[^/?#]+';
  }
  return p;
}
