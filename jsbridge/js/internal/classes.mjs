// Entity classes as reads see them: each class declared to the engine gets
// a number, which the engine carries on every object it reads of that
// entity (the wire's CLASS op, jsbridge/wire/SPEC.md), and the decoder
// (wire.mjs) builds that object with the class's prototype. Numbers are
// module-wide, so that one class read through any instance or controller
// is one number.

/** Class number → the prototype of its instances; 0 is no class. */
export const classPrototypes = [undefined];

const numbers = new WeakMap();

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
