// Package encode writes the wire output (package wire, SPEC.md there) of a
// read for the JavaScript side of jsbridge: the denormalized value of a
// result or a get, with ids for the objects JavaScript already holds, so
// unchanged data keeps its identity, and the lists a page holds sent as
// differences. It is portable Go (it builds and is tested natively): what
// touches JavaScript stays in package jsbridge, which keeps one Identities
// table per controller and hands each Output to JavaScript.
package encode
