// Entity classes as reads see them: each class declared to the engine gets
// a number, which the engine carries on every object it reads of that
// entity (the wire's CLASS op, jsbridge/wire/SPEC.md), and the decoder
// (wire.mjs) builds that object with the class's prototype. Numbers are
// module-wide, so that one class read through any instance or controller
// is one number.

/** Class number → the prototype of its instances; 0 is no class. */
export const classPrototypes = [undefined];

const numbers = new WeakMap();

/** Conversion number → the function that converts a value read; 0 is none. */
export const converters = [undefined];

const conversions = new WeakMap();

/**
 * Returns the number of the conversion a field schema fn stands for,
 * giving it one the first time: fn.fromJSON(value) for a class with a
 * static fromJSON, new fn(value) for another class, fn(value) for a
 * function (Number, Temporal.Instant.from).
 */
export function converterNumber(fn) {
  let n = conversions.get(fn);
  if (n === undefined) {
    n = converters.length;
    converters.push(conversionOf(fn));
    conversions.set(fn, n);
  }
  return n;
}

function conversionOf(fn) {
  if (typeof fn.fromJSON === 'function') return (v) => fn.fromJSON(v);
  if (/^class\b/.test(Function.prototype.toString.call(fn))) return (v) => new fn(v);
  return (v) => fn(v);
}

/** Returns the number of cls, giving it one the first time. */
export function classNumber(cls) {
  let n = numbers.get(cls);
  if (n === undefined) {
    n = classPrototypes.length;
    classPrototypes.push(cls.prototype);
    numbers.set(cls, n);
  }
  return n;
}
