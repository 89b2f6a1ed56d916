// @data-client/react 0.10 makes its elements with Babel's
// @babel/runtime/helpers/jsx, whose elements carry React 18's
// Symbol.for('react.element'), which React 19 refuses (error 525).
// react.mjs's bundle maps that helper to this one: the same arguments
// (type, props, key, ...children), an element made by React's own
// createElement.

import { createElement } from 'react';

export default function jsx(type, props, key, ...children) {
  const p = { ...props };
  if (key !== undefined) p.key = `${key}`;
  return createElement(type, p, ...children);
}
