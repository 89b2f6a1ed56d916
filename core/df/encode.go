package df

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/datafetch/datafetch/core/value"
)

// EncodeError is a Go value that params or a body cannot be made of: which
// field (a Go path, as "Author.Name" or "Tags[2]"; "" for the value itself)
// and its type.
type EncodeError struct {
	Field string
	Type  reflect.Type
	// Msg says why, when it is more than the type: "map keys must be
	// strings", "nested too deep".
	Msg string
}

func (e *EncodeError) Error() string {
	what := "cannot encode " + e.Type.String()
	if e.Msg != "" {
		what += ": " + e.Msg
	}
	if e.Field == "" {
		return what
	}
	return "field " + e.Field + ": " + what
}

// maxEncodeDepth bounds the nesting Encode follows, which stops a pointer
// cycle.
const maxEncodeDepth = 200

// isoLayout writes times as JavaScript's Date.prototype.toISOString does.
const isoLayout = "2006-01-02T15:04:05.000Z"

// Encode converts Go data to a value as params, bodies and SetResponse data
// are sent: structs by their fields' member names (the names decoding uses;
// omitempty/omitzero fields left out when zero; an Unknown field's members
// added back), maps with string keys, slices and arrays, strings, numbers,
// booleans, time.Time as an ISO-8601 string (the zero Time as null),
// value.Value as it is, nil pointers and interfaces as null. Anything else
// (a func, a channel, a complex number) is an *EncodeError naming the field.
func Encode(x any) (value.Value, error) {
	if v, ok := x.(value.Value); ok {
		return v, nil
	}
	return encode(reflect.ValueOf(x), "", 0)
}

func encode(rv reflect.Value, path string, depth int) (value.Value, error) {
	if !rv.IsValid() {
		return value.NullV, nil
	}
	if depth > maxEncodeDepth {
		return value.Undef, &EncodeError{Field: path, Type: rv.Type(), Msg: "nested too deep (a cycle?)"}
	}
	t := rv.Type()
	switch t {
	case valueType:
		return rv.Interface().(value.Value), nil
	case unknownType:
		return rv.Interface().(Unknown).Value(), nil
	case timeType:
		tm := rv.Interface().(time.Time)
		if tm.IsZero() {
			return value.NullV, nil
		}
		return value.Str(tm.UTC().Format(isoLayout)), nil
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return value.NullV, nil
		}
		return encode(rv.Elem(), path, depth+1)
	case reflect.String:
		return value.Str(rv.String()), nil
	case reflect.Bool:
		return value.BoolV(rv.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return value.Int(rv.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return value.MustParse(strconv.FormatUint(rv.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		return value.Num(rv.Float()), nil
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && rv.IsNil() {
			return value.NullV, nil
		}
		elems := make([]value.Value, rv.Len())
		for i := range elems {
			e, err := encode(rv.Index(i), path+"["+strconv.Itoa(i)+"]", depth+1)
			if err != nil {
				return value.Undef, err
			}
			elems[i] = e
		}
		return value.Arr(elems...), nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return value.Undef, &EncodeError{Field: path, Type: t, Msg: "map keys must be strings"}
		}
		if rv.IsNil() {
			return value.NullV, nil
		}
		keys := rv.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		members := make([]value.Member, 0, len(keys))
		for _, k := range keys {
			e, err := encode(rv.MapIndex(k), path+"["+strconv.Quote(k.String())+"]", depth+1)
			if err != nil {
				return value.Undef, err
			}
			members = append(members, value.M(k.String(), e))
		}
		return value.Obj(members...), nil
	case reflect.Struct:
		return encodeStruct(rv, path, depth)
	}
	return value.Undef, &EncodeError{Field: path, Type: t}
}

func encodeStruct(rv reflect.Value, path string, depth int) (value.Value, error) {
	fields, unknown := encFieldsOf(rv.Type())
	members := make([]value.Member, 0, len(fields))
	for _, f := range fields {
		fv, err := rv.FieldByIndexErr(f.index)
		if err != nil {
			continue // a field of a nil embedded pointer
		}
		if f.omitEmpty && fv.IsZero() {
			continue
		}
		p := f.goName
		if path != "" {
			p = path + "." + f.goName
		}
		e, err := encode(fv, p, depth+1)
		if err != nil {
			return value.Undef, err
		}
		members = append(members, value.M(f.name, e))
	}
	if unknown != nil {
		u := rv.FieldByIndex(unknown).Interface().(Unknown)
		for _, m := range u.v.Members() {
			if !slices.ContainsFunc(members, func(x value.Member) bool { return x.Key == m.Key }) {
				members = append(members, m)
			}
		}
	}
	return value.Obj(members...), nil
}

// encField is a struct field as Encode writes it.
type encField struct {
	name, goName string
	index        []int
	omitEmpty    bool
}

var encFields sync.Map // reflect.Type → encFieldSet

type encFieldSet struct {
	fields  []encField
	unknown []int
}

// encFieldsOf lists the fields of struct t that Encode writes, named as
// decoding names them, and the index of its Unknown field (nil if none).
func encFieldsOf(t reflect.Type) ([]encField, []int) {
	if s, ok := encFields.Load(t); ok {
		set := s.(encFieldSet)
		return set.fields, set.unknown
	}
	var set encFieldSet
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			idx := append(slices.Clip(index), i)
			name, opts, skip := fieldTag(sf)
			switch {
			case skip:
			case sf.Type == unknownType:
				set.unknown = idx
			case sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct && sf.Type != timeType:
				walk(sf.Type, idx)
			case sf.IsExported():
				if name == "" {
					name = memberName(sf.Name)
				}
				set.fields = append(set.fields, encField{name: name, goName: sf.Name, index: idx,
					omitEmpty: hasOpt(opts, "omitempty") || hasOpt(opts, "omitzero")})
			}
		}
	}
	walk(t, nil)
	encFields.Store(t, set)
	return set.fields, set.unknown
}

// fieldTag reads a field's df tag, or its json tag when it has none: the
// member name ("" when the tag names none), the options after it, and
// whether the field is left out ("-").
func fieldTag(sf reflect.StructField) (name, opts string, skip bool) {
	tag, ok := sf.Tag.Lookup("df")
	if !ok {
		tag = sf.Tag.Get("json")
	}
	if tag == "-" {
		return "", "", true
	}
	name, opts, _ = strings.Cut(tag, ",")
	return name, opts, false
}

func hasOpt(opts, o string) bool {
	for x := range strings.SplitSeq(opts, ",") {
		if x == o {
			return true
		}
	}
	return false
}

// encodeParams makes params from x: nil is no params (an empty object), a
// value.Value is used as it is (value.NullV reads nothing), and anything
// else must encode to an object: a struct or a map.
func encodeParams(x any) (value.Value, error) {
	switch x := x.(type) {
	case nil:
		return value.Obj(), nil
	case value.Value:
		return x, nil
	}
	v, err := Encode(x)
	if err != nil {
		return value.Undef, fmt.Errorf("params: %w", err)
	}
	if v.Kind() != value.Object {
		return value.Undef, fmt.Errorf("params: want a struct or a map, got %T", x)
	}
	return v, nil
}

// encodeBody makes a request body from x: nil sends the endpoint's default
// body (or none), a value.Value, string or []byte is sent as it is, and
// anything else is encoded to a value, sent as JSON.
func encodeBody(x any) (any, error) {
	switch x.(type) {
	case nil, value.Value, string, []byte:
		return x, nil
	}
	v, err := Encode(x)
	if err != nil {
		return nil, fmt.Errorf("body: %w", err)
	}
	return v, nil
}
