// Package df is datafetch's typed Go API: entities declared as Go structs,
// endpoints typed by their result, reads that return *Article and
// []*Article instead of value.Value. It sits on top of the controller, rest
// and schema packages and adds no cache of its own beyond the decoded
// structs. The name is the library's initials, short as package names at
// call sites should be (df.Resource[Article], df.Wrap[[]*Post]) and unlike
// the model or api packages an app has of its own.
//
// # Entities
//
// An entity is a struct with a primary key:
//
//	type Article struct {
//		ID        string    `df:"id,pk"`
//		Title     string    `df:"title"`
//		Author    *User     `df:"author"`    // a nested entity
//		Tags      []string  `df:"tags"`
//		CreatedAt time.Time `df:"createdAt"` // a Date
//		Extra     df.Unknown                 // members the struct has no field for
//	}
//
// A field's member name is its df tag's name, else its json tag's, else its
// Go name with the leading capitals lowered ("CreatedAt" is "createdAt",
// "ID" is "id"). The pk is the field tagged pk, else the one named "id"; a
// struct without one is a plain object. The entity's key is the type's name
// (or what an EntityKey method returns). Nested entities are pointers
// (*User) or slices of pointers ([]*Comment); time.Time fields are Dates
// (the store keeps epoch milliseconds; the zero Time is null or absent);
// a value.Value field takes the member as it is. An Unknown field keeps the
// members no field names, so that a record read, changed and sent back
// loses nothing. Tag options: pk, omitempty (omitzero), and "-" to skip a
// field.
//
// EntityOf[T] gives T's schema.Entity and SchemaOf[R] the schema of a
// result type R; NewResource[T] makes the six REST endpoints of T with
// their results typed, and Wrap[R] types any other endpoint.
//
// # Reads are shared and immutable
//
// A read returns the structs the previous read returned wherever the data
// did not change: an unchanged record decodes to the same *Article, an
// unchanged list to the same []*Article (the same backing array), a record
// inside a changed list to its old pointer when it did not change itself,
// and a changed record (and every list or record that holds it) to a new
// one. Components can therefore compare pointers (and lists with Same)
// instead of contents, as React compares results by ===.
//
// The price is that results are shared between every reader: they are
// immutable by contract. Never write to a struct, slice or map a read
// returned; make a copy and change that (a struct copy shares its slices
// and maps: replace them rather than writing into them).
//
// Decoding follows a plan made once per Go type by reflection (member
// names, field offsets, nested plans); a read walks the value and writes
// fields through their offsets. Decoded structs are remembered by the
// identity of the value they came from (value.Identity) for as long as a
// reader holds them (weak pointers), so an unchanged read costs one
// lookup.
//
// # Params and bodies
//
// Params and bodies are Go values: structs (by the same member names),
// maps, value.Value. They are encoded when the call is made, and a value
// that cannot be encoded (a func, a channel) fails the call at once with an
// error naming the endpoint and the field, before anything is sent.
// Errors of requests are those of package rest (*rest.NetworkError, found
// with errors.As); a result that does not fit R is a *DecodeError naming
// the place.
//
// WithParams types an endpoint's params too: a Typed[P, R] takes a P, a
// struct whose fields are the params, so the compiler checks every call.
// WithParams checks P once against the endpoint (each field a param type,
// a field for each required path token) and each call checks that the
// required tokens are set, naming the field, the token and the endpoint.
//
// # Lists, pages and optimistic responses
//
// A list sent in an envelope ({results, nextCursor}) is a struct whose list
// field is tagged collection; ListOf gives its GetList and GetPage typed as
// that struct and the Push, Unshift, Remove and Move that add to it typed
// as the record. Optimistic writes an optimistic response in the
// endpoint's types (params P, body B, result R), with Stored to read what
// the cache holds. ResourceOptions, Options and NetworkError name rest's
// types here, so that a typed program needs no rest, schema or value
// import.
package df

import (
	"unsafe"

	"github.com/datafetch/datafetch/core/value"
)

// Unknown holds the members of a response object that its struct has no
// field for. Give an entity an Unknown field to keep them: encoding the
// struct (as a body) writes them back. The zero Unknown holds none.
type Unknown struct {
	v value.Value
}

// Value returns the members as an object; Undefined when there are none.
func (u Unknown) Value() value.Value { return u.v }

// Get returns the member named key; Undefined when absent.
func (u Unknown) Get(key string) value.Value { return u.v.Get(key) }

// Len returns the number of members.
func (u Unknown) Len() int { return u.v.Len() }

// Same reports whether two slices a read returned are the same list: the
// same backing array and length (two empty slices are the same). It is how
// a component tells that a list did not change without comparing it.
func Same[E any](a, b []E) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.SliceData(a) == unsafe.SliceData(b))
}
