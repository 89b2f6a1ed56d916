package schema

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Meta is when an entity's data was produced: Date is the response's time,
// FetchedAt when its request was started, ExpiresAt when it goes stale. All
// are epoch milliseconds, as JavaScript's Date.now().
type Meta struct {
	Date      int64
	FetchedAt int64
	ExpiresAt int64
}

// Entity is a record type with a primary key: the unit of the normalized
// cache. Configure it with the fields below, then use it only by pointer and
// do not change it.
type Entity struct {
	// Key names the entity type (as "Article"); it keys the store's table.
	Key string
	// PK names the field holding the primary key; "" means "id".
	PK string
	// PKFunc, when set, computes the key instead of PK. It returns ok false
	// when the record has no key yet. args are the args of the request
	// whose response holds the record, as an array (Args.List), as
	// data-client passes an endpoint's args to pk.
	PKFunc func(record, parent value.Value, key string, args value.Value) (pk string, ok bool, err error)
	// PKIgnoresParent tells that PKFunc never reads its parent: a list of
	// the entity may then be stored element by element (ElementWise),
	// where an element's parent is not the whole list.
	PKIgnoresParent bool
	// Defaults is an Object with a default for every field; a read fills
	// absent fields from it.
	Defaults value.Value
	// Schema maps fields to nested schemas (entities, lists, Date).
	Schema map[string]Schema
	// Process transforms a raw record before it is normalized; args are
	// as PKFunc's.
	Process func(record, parent value.Value, key string, args value.Value) (value.Value, error)
	// Merge combines a stored record with an incoming one; nil is a shallow
	// merge where incoming members win.
	Merge func(existing, incoming value.Value) value.Value
	// UseIncoming decides whether incoming data is stored at all; nil is
	// always true.
	UseIncoming func(existingMeta, incomingMeta Meta, existing, incoming value.Value) bool
	// ShouldReorder, when true, makes existing fields win the merge; nil is
	// incomingMeta.FetchedAt < existingMeta.FetchedAt, so a response to an
	// older request never overwrites data from a newer one.
	ShouldReorder func(existingMeta, incomingMeta Meta, existing, incoming value.Value) bool
	// MergeWithStore, when set, makes the record stored when incoming data
	// meets a stored record, in place of UseIncoming, ShouldReorder and
	// Merge (data-client's mergeWithStore, for a class that overrides it).
	MergeWithStore func(existingMeta, incomingMeta Meta, existing, incoming value.Value) value.Value
	// MergeMetaWithStore, when set, makes the meta stored with it; nil is
	// the meta of whichever side ShouldReorder (or its default) says is
	// newer (data-client's mergeMetaWithStore).
	MergeMetaWithStore func(existingMeta, incomingMeta Meta, existing, incoming value.Value) Meta
	// Valid, when set, tells whether a stored record may be read
	// (data-client's validate, which its reads apply too): a record it
	// refuses reads as deleted, so that what requires it reads as
	// deleted as well and a read that needs it fetches it again, as for
	// a partial record another response stored. It gets the record as
	// stored (nested entities as keys, no defaults filled). Its answer is
	// memoized with the record's read form: it is asked again only when
	// the record changes.
	Valid func(record value.Value) bool
	// MaxDepth, when above 0, lowers the depth limit of reads for this
	// entity (data-client's maxEntityDepth): reached through MaxDepth
	// entities or more, it reads as its record with nested entities left
	// as keys. The limit is never above the package's MaxDepth.
	MaxDepth int
	// DepthLimited, when set, is called once per read that cuts this
	// entity at its depth limit, with that limit, so that the cut can be
	// reported (data-client warns with console.error).
	DepthLimited func(limit int)

	once        sync.Once
	nested      []Field         // Schema in a fixed order
	defaultKeys map[string]bool // the fields of Defaults
	// shape is fill's layout for the last key sequence it saw.
	shape atomic.Pointer[fillShape]
	// stability caches stable: 0 not known yet, 1 stable, 2 not.
	stability atomic.Int32
	// collection is set on the table entity of a Collection, whose records
	// are lists (or maps) of pks, not objects (see RecordRefs).
	collection *Collection
	// cells is set on the table entity of a Lens (see CellTable).
	cells bool
}

// ErrNoPK is wrapped by the error for a record that has no primary key.
var ErrNoPK = errors.New("record has no primary key")

// temporaryPrefix starts every TemporaryPK; data-client's are "MISS-"
// and a random number.
const temporaryPrefix = "MISS-"

// temporaryPKs counts the TemporaryPKs handed out in this process.
var temporaryPKs atomic.Uint64

// TemporaryPK returns a new primary key, unlike any other it returned,
// for a record of an optimistic response that has none yet (a record
// being created, whose pk the server gives): the record is stored under
// it until the server answers, and its pending write is dropped then.
// The record itself is not changed: its pk field stays absent.
func TemporaryPK() string {
	return temporaryPrefix + strconv.FormatUint(temporaryPKs.Add(1), 10)
}

// IsTemporaryPK reports whether pk has the form of a TemporaryPK (a
// server's pk of that form would be taken for one).
func IsTemporaryPK(pk string) bool { return strings.HasPrefix(pk, temporaryPrefix) }

func (e *Entity) describe() string { return e.Key }

// Validate reports a configuration error: no key, or no defaults object.
func (e *Entity) Validate() error {
	if e == nil {
		return errors.New("entity is nil")
	}
	if e.Key == "" {
		return errors.New("entity has no key")
	}
	if e.Defaults.Kind() != value.Object {
		return fmtlite.Errorf("entity %s: defaults must be an object, got %s", e.Key, e.Defaults.Kind())
	}
	return nil
}

func (e *Entity) pkField() string {
	if e.PK == "" {
		return "id"
	}
	return e.PK
}

// PKOf returns the primary key of a raw or normalized record, as a string.
// ok is false when the record has none (an unsaved record). args are the
// request's, for PKFunc (see Args.List).
func (e *Entity) PKOf(record, parent value.Value, key string, args value.Value) (pk string, ok bool, err error) {
	if e.PKFunc != nil {
		return e.PKFunc(record, parent, key, args)
	}
	v := record.Get(e.pkField())
	if v.IsNullish() {
		return "", false, nil
	}
	pk, ok = v.Text()
	if !ok {
		return "", false, fmtlite.Errorf("primary key field %q is %s, want a string or number", e.pkField(), v.Kind())
	}
	return pk, true, nil
}

// Hooked reports whether storing a record of e runs code of the caller's:
// a Merge, UseIncoming, ShouldReorder, MergeWithStore or MergeMetaWithStore
// hook. A Collection's table, whose merge is its own (the incoming list
// replaces the stored one), runs none.
func (e *Entity) Hooked() bool {
	return (e.Merge != nil && e.collection == nil) || e.UseIncoming != nil || e.ShouldReorder != nil ||
		e.MergeWithStore != nil || e.MergeMetaWithStore != nil
}

// Resolve decides what to store when incoming data meets the record already
// stored (exists false when there is none): the merged record and its meta.
// keep is true when the stored record stays exactly as it was, so callers
// can skip the write and keep read identity.
func (e *Entity) Resolve(existing value.Value, existingMeta Meta, exists bool, incoming value.Value, incomingMeta Meta) (merged value.Value, meta Meta, keep bool) {
	if !exists {
		return incoming, incomingMeta, false
	}
	if e.MergeWithStore == nil && e.UseIncoming != nil && !e.UseIncoming(existingMeta, incomingMeta, existing, incoming) {
		return existing, existingMeta, true
	}
	reorder := incomingMeta.FetchedAt < existingMeta.FetchedAt
	if e.ShouldReorder != nil {
		reorder = e.ShouldReorder(existingMeta, incomingMeta, existing, incoming)
	}
	switch {
	case e.MergeWithStore != nil:
		merged, meta = e.MergeWithStore(existingMeta, incomingMeta, existing, incoming), incomingMeta
		if reorder {
			meta = existingMeta
		}
	case reorder:
		merged, meta = e.merge(incoming, existing), existingMeta
	default:
		merged, meta = e.merge(existing, incoming), incomingMeta
	}
	if e.MergeMetaWithStore != nil {
		meta = e.MergeMetaWithStore(existingMeta, incomingMeta, existing, incoming)
	}
	if value.Equal(merged, existing) {
		return existing, meta, true
	}
	return merged, meta, false
}

func (e *Entity) merge(older, newer value.Value) value.Value {
	if e.Merge != nil {
		return e.Merge(older, newer)
	}
	return ShallowMerge(older, newer)
}

// ShallowMerge returns an object with the members of a, overwritten and
// extended by those of b. Either may be a non-object, which counts as empty.
// The result keeps a's members in a's order, each with b's value where b has
// the key, followed by b's new members in b's order. It takes time linear in
// the two objects' sizes: a record of 40,000 fields fetched again must cost
// about what its first fetch did.
//
// When b has exactly a's keys in a's order, as a record set or fetched
// again whole has, that object is b's members themselves, and b is the
// result, not a copy of it; when b changes nothing in a, a is. Either way
// neither is built: lazy records (value.ParseLazy, value.Patched) are
// read off their tapes (value.PeekMembers).
func ShallowMerge(a, b value.Value) value.Value {
	if value.Same(a, b) {
		return a
	}
	if a.Kind() != value.Object || a.Len() == 0 {
		if b.Kind() == value.Object {
			return b
		}
		return a
	}
	if b.Kind() != value.Object || b.Len() == 0 {
		return a
	}
	var abuf, bbuf [peekBuf]value.Member
	am, bm := a.PeekMembers(abuf[:0]), b.PeekMembers(bbuf[:0])
	if sameKeys(am, bm) {
		for i := range am {
			if !value.Equal(am[i].Value, bm[i].Value) {
				return b
			}
		}
		return a
	}
	f := memberFinder{ms: am}
	if covers(&f, bm) {
		return a
	}
	out := make([]value.Member, len(am), len(am)+len(bm))
	copy(out, am)
	for j, m := range bm {
		if i := f.find(m.Key, j); i >= 0 {
			out[i].Value = m.Value
		} else {
			out = append(out, m)
		}
	}
	return value.Obj(out...)
}

// peekBuf is the room ShallowMerge keeps on its stack for the members of
// a lazy record it reads off the tape: a typical record's fit.
const peekBuf = 8

// sameKeys reports whether a and b have the same keys in the same order.
func sameKeys(a, b []value.Member) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key {
			return false
		}
	}
	return true
}

// covers reports whether every member of b is in f's object with an equal
// value, so that merging b into it changes nothing: the common case of a
// refetch, and of one entity repeated within a response.
func covers(f *memberFinder, b []value.Member) bool {
	for j, m := range b {
		i := f.find(m.Key, j)
		if i < 0 || !value.Equal(f.ms[i].Value, m.Value) {
			return false
		}
	}
	return true
}

// smallObject is the member count up to which scanning for a key beats
// hashing the keys: typical records are well under it.
const smallObject = 16

// memberFinder finds keys among an object's members. Members usually come
// in the same order in the objects being merged, so the position the key
// has in the other object is tried first; a large object is indexed on its
// first miss, so each lookup costs O(1) and a merge stays linear.
type memberFinder struct {
	ms    []value.Member
	index map[string]int
}

// find returns the index of key in f.ms, trying position hint first; -1
// when it is absent.
func (f *memberFinder) find(key string, hint int) int {
	if hint >= 0 && hint < len(f.ms) && f.ms[hint].Key == key {
		return hint
	}
	if len(f.ms) <= smallObject {
		for i := range f.ms {
			if f.ms[i].Key == key {
				return i
			}
		}
		return -1
	}
	if f.index == nil {
		f.index = make(map[string]int, len(f.ms))
		for i := range f.ms {
			f.index[f.ms[i].Key] = i
		}
	}
	if i, ok := f.index[key]; ok {
		return i
	}
	return -1
}
