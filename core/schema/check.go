package schema

import (
	"strconv"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Checking data the store takes from outside. A response is normalized,
// which refuses what does not fit its schema; a snapshot or a sync message
// brings data already normalized (records by table and pk, results with
// their entities as pks), made elsewhere. CheckNormalized and CheckRecord
// are the checks such data passes before it is read as data of a schema:
// that it is what Normalize could have made.

// CheckNormalized reports whether v is a value of s as Normalize returns
// it, a result as the store keeps it: entities as their pks, lists as
// arrays, and so on down s. The error names where in v it went wrong, as
// a path (".data[2]: an object, not the pk of an Article"). A nil schema
// takes anything.
func CheckNormalized(s Schema, v value.Value) error {
	if err := checkNormalized(s, v); err != nil {
		return err
	}
	return nil
}

// CheckRecord reports whether rec is a record of e as the store keeps it
// under pk: an object whose primary key is pk, with its nested fields
// normalized (CheckNormalized); for the table entity of a Collection, its
// list (or map) of pks. An entity with a PKFunc is not asked for its pk
// here (that would run the app's code during a read): its record is
// checked for the rest.
func (e *Entity) CheckRecord(pk string, rec value.Value) error {
	if err := e.checkRecord(pk, rec); err != nil {
		return err
	}
	return nil
}

func (e *Entity) checkRecord(pk string, rec value.Value) *CheckError {
	if e.collection != nil {
		return checkNormalized(e.collection.Of, rec)
	}
	if rec.Kind() != value.Object {
		return &CheckError{Msg: KindName(rec) + ", not a record (an object)"}
	}
	if e.PKFunc == nil {
		field := e.pkField()
		got := rec.Get(field)
		text, ok := got.Text()
		switch {
		case got.IsNullish() || (ok && text == ""):
			return &CheckError{Path: MemberStep(field), Msg: "missing: the record has no primary key"}
		case !ok:
			return &CheckError{Path: MemberStep(field), Msg: KindName(got) + ", not a primary key (a string or a number)"}
		case text != pk:
			return &CheckError{Path: MemberStep(field), Msg: fmtlite.Sprintf("%s, not the record's key %s", got.JSON(), strconv.Quote(pk))}
		}
	}
	for _, f := range e.nestedFields() {
		if i, child := rec.Find(f.Name); i >= 0 {
			if err := checkNormalized(f.Schema, child); err != nil {
				return err.under(MemberStep(f.Name))
			}
		}
	}
	return nil
}

// CheckError is the error of CheckNormalized and CheckRecord: Msg says what
// is wrong at Path, a path into the value checked ("" for the value
// itself, else as ".author" or "[2].id").
type CheckError struct {
	Path, Msg string
}

func (e *CheckError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// under puts step before e's path, on the way back up from where it was
// found.
func (e *CheckError) under(step string) *CheckError {
	e.Path = step + e.Path
	return e
}

func checkNormalized(s Schema, v value.Value) *CheckError {
	switch s := s.(type) {
	case nil:
		return nil
	case *Entity:
		if s == nil || v.IsNullish() {
			return nil
		}
		return checkPK(v, s.Key)
	case *Invalidate:
		if s == nil || s.Entity == nil {
			return nil
		}
		return checkPK(v, s.Entity.Key)
	case *Collection:
		if s == nil || v.IsNullish() {
			return nil
		}
		return checkPK(v, s.describe())
	case *Union:
		if s == nil || v.IsNullish() {
			return nil
		}
		if v.Kind() != value.Object {
			return &CheckError{Msg: KindName(v) + `, not a union member ({id, schema}) or a record`}
		}
		text, _ := v.Get("schema").Text()
		m := s.Schemas[text]
		if m == nil {
			// A record no member took, kept as it came.
			return nil
		}
		var err *CheckError
		if e, ok := m.(*Entity); ok {
			err = checkPK(v.Get("id"), e.Key)
		} else {
			err = checkNormalized(m, v.Get("id"))
		}
		if err != nil {
			return err.under(".id")
		}
		return nil
	case *Array:
		if s == nil || v.IsNullish() {
			return nil
		}
		if v.Kind() != value.Array {
			return &CheckError{Msg: KindName(v) + ", not an array"}
		}
		for i, el := range v.Elems() {
			if err := checkNormalized(s.Of, el); err != nil {
				return err.under("[" + strconv.Itoa(i) + "]")
			}
		}
		return nil
	case *Values:
		if s == nil || v.IsNullish() {
			return nil
		}
		if v.Kind() != value.Object {
			return &CheckError{Msg: KindName(v) + ", not an object"}
		}
		for _, m := range v.Members() {
			if err := checkNormalized(s.Of, m.Value); err != nil {
				return err.under(MemberStep(m.Key))
			}
		}
		return nil
	case *Object:
		if s == nil || v.IsNullish() {
			return nil
		}
		if v.Kind() != value.Object {
			return &CheckError{Msg: KindName(v) + ", not an object"}
		}
		for _, f := range s.Fields {
			if f.Schema == nil {
				continue
			}
			if i, child := v.Find(f.Name); i >= 0 {
				if err := checkNormalized(f.Schema, child); err != nil {
					return err.under(MemberStep(f.Name))
				}
			}
		}
		return nil
	case *CollectionAdd:
		switch {
		case s == nil || s.Collection == nil:
			return nil
		case s.Op == Assign:
			return checkNormalized(s.Collection.Of, v)
		case v.Kind() == value.Array:
			return checkNormalized(ArrayOf(s.elem()), v)
		}
		return checkNormalized(s.elem(), v)
	case *All:
		if s == nil {
			return nil
		}
		return checkNormalized(s.readSchema(), v)
	case *Query:
		if s == nil {
			return nil
		}
		return checkNormalized(s.Schema, v)
	case *Lazy:
		if s == nil {
			return nil
		}
		return checkNormalized(s.Of, v)
	case dateSchema:
		if v.IsNullish() || v.Kind() == value.Number {
			return nil
		}
		return &CheckError{Msg: KindName(v) + ", not a date (epoch milliseconds)"}
	}
	return nil
}

// checkPK checks that v is a pk (a string or a number) of what names.
func checkPK(v value.Value, what string) *CheckError {
	if k := v.Kind(); k == value.String || k == value.Number {
		return nil
	}
	return &CheckError{Msg: fmtlite.Sprintf("%s, not a pk of %s (a string or a number)", KindName(v), what)}
}

// MemberStep writes a member name as a step of a path into a value:
// .name for an identifier, ["name"] otherwise.
func MemberStep(name string) string {
	if isIdentifier(name) {
		return "." + name
	}
	return "[" + strconv.Quote(name) + "]"
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r == '$' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// KindName names a value's kind for a message: "a string", "null",
// "missing" for undefined.
func KindName(v value.Value) string {
	switch v.Kind() {
	case value.Undefined:
		return "missing"
	case value.Null:
		return "null"
	case value.Array:
		return "an array"
	case value.Object:
		return "an object"
	}
	return "a " + v.Kind().String()
}

// describeValue shows a short value in a message: its JSON, or "missing".
func describeValue(v value.Value) string {
	if v.IsUndefined() {
		return "missing"
	}
	if s := v.JSON(); len(s) <= 40 {
		return s
	}
	return KindName(v)
}

// EachEntity calls f once for every entity in s, nested ones included,
// and for the table entity of every Collection in it.
func EachEntity(s Schema, f func(*Entity)) {
	eachEntity(s, f, map[*Entity]bool{})
}

func eachEntity(s Schema, f func(*Entity), seen map[*Entity]bool) {
	switch s := s.(type) {
	case *Entity:
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		f(s)
		// Schema, not nestedFields: walking a schema must not fix the
		// fields of an entity that is not in use yet.
		for _, fs := range s.Schema {
			eachEntity(fs, f, seen)
		}
	case *Invalidate:
		if s != nil {
			eachEntity(s.Entity, f, seen)
		}
	case *Lens:
		if s != nil {
			eachEntity(s.table, f, seen)
			eachEntity(s.entity, f, seen)
		}
	case *Union:
		if s != nil {
			for _, e := range s.Schemas {
				eachEntity(e, f, seen)
			}
		}
	case *Array:
		if s != nil {
			eachEntity(s.Of, f, seen)
		}
	case *Values:
		if s != nil {
			eachEntity(s.Of, f, seen)
		}
	case *Object:
		if s != nil {
			for _, fl := range s.Fields {
				eachEntity(fl.Schema, f, seen)
			}
		}
	case *Collection:
		if s != nil {
			eachEntity(s.entity(), f, seen)
			eachEntity(s.Of, f, seen)
		}
	case *CollectionAdd:
		if s != nil && s.Collection != nil {
			eachEntity(s.Collection, f, seen)
		}
	case *All:
		if s != nil {
			eachEntity(s.readSchema(), f, seen)
		}
	case *Query:
		if s != nil {
			eachEntity(s.Schema, f, seen)
		}
	case *Lazy:
		if s != nil {
			eachEntity(s.Of, f, seen)
		}
	case *LazyQuery:
		if s != nil {
			eachEntity(s.Of, f, seen)
		}
	}
}
