package df

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// DecodeError is a value that does not fit the Go type it is decoded into:
// where (as "Article.author.name" or "[]Article[3].title") and why.
type DecodeError struct {
	// Path names the place, from the type decoded into.
	Path string
	// Msg says what was found instead of what was expected.
	Msg string
}

func (e *DecodeError) Error() string { return "df: decode " + e.Path + ": " + e.Msg }

// decodeInto decodes v into the value of p's type at dst. The caller holds
// cacheMu. path is built only when an error occurs, by the callers that
// see it unwinding (see wrapPath).
func (p *plan) decodeInto(v value.Value, dst unsafe.Pointer) error {
	switch p.kind {
	case kValue:
		*(*value.Value)(dst) = v
	case kUnknown:
		*(*Unknown)(dst) = Unknown{v: v}
	case kAny:
		*(*any)(dst) = v.Go()
	case kString:
		switch v.Kind() {
		case value.String:
			setString(p, dst, v.Str())
		case value.Null, value.Undefined:
			setString(p, dst, "")
		default:
			return mismatch(v, "a string")
		}
	case kBool:
		switch v.Kind() {
		case value.Bool, value.Null, value.Undefined:
			b := v.Boolean()
			if p.t == boolType {
				*(*bool)(dst) = b
			} else {
				reflect.NewAt(p.t, dst).Elem().SetBool(b)
			}
		default:
			return mismatch(v, "a boolean")
		}
	case kInt, kUint, kFloat:
		return p.decodeNumber(v, dst)
	case kTime:
		t, err := decodeTime(v)
		if err != nil {
			return err
		}
		*(*time.Time)(dst) = t
	case kStruct:
		return p.decodeStruct(v, dst)
	case kPtr:
		return p.decodePtr(v, dst)
	case kSlice:
		return p.decodeSlice(v, dst)
	case kMap:
		return p.decodeMap(v, dst)
	}
	return nil
}

var (
	boolType    = reflect.TypeFor[bool]()
	stringType  = reflect.TypeFor[string]()
	intType     = reflect.TypeFor[int]()
	float64Type = reflect.TypeFor[float64]()
)

func setString(p *plan, dst unsafe.Pointer, s string) {
	if p.t == stringType {
		*(*string)(dst) = s
		return
	}
	reflect.NewAt(p.t, dst).Elem().SetString(s)
}

func mismatch(v value.Value, want string) error {
	return &DecodeError{Msg: fmt.Sprintf("want %s, got %s", want, describe(v))}
}

// describe names v's kind, with its text for short scalars.
func describe(v value.Value) string {
	switch v.Kind() {
	case value.String, value.Number, value.Bool:
		s := v.JSON()
		if len(s) > 40 {
			s = s[:37] + "..."
		}
		return v.Kind().String() + " " + s
	}
	return v.Kind().String()
}

// wrapPath puts step in front of the path of a *DecodeError.
func wrapPath(err error, step string) error {
	if de, ok := err.(*DecodeError); ok {
		de.Path = step + de.Path
	}
	return err
}

func (p *plan) decodeNumber(v value.Value, dst unsafe.Pointer) error {
	if v.IsNullish() {
		reflect.NewAt(p.t, dst).Elem().SetZero()
		return nil
	}
	if v.Kind() != value.Number {
		return mismatch(v, "a number")
	}
	switch p.kind {
	case kFloat:
		f, _ := v.Float()
		if p.t == float64Type {
			*(*float64)(dst) = f
		} else {
			reflect.NewAt(p.t, dst).Elem().SetFloat(f)
		}
	case kInt:
		i, err := strconv.ParseInt(v.Raw(), 10, 64)
		if err != nil {
			f, _ := v.Float()
			if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
				return mismatch(v, "an integer")
			}
			i = int64(f)
		}
		if p.t == intType {
			*(*int)(dst) = int(i)
			return nil
		}
		e := reflect.NewAt(p.t, dst).Elem()
		if e.OverflowInt(i) {
			return mismatch(v, "an integer that fits "+p.t.String())
		}
		e.SetInt(i)
	case kUint:
		u, err := strconv.ParseUint(v.Raw(), 10, 64)
		if err != nil {
			f, _ := v.Float()
			if f != math.Trunc(f) || f < 0 || f >= math.MaxUint64 {
				return mismatch(v, "a non-negative integer")
			}
			u = uint64(f)
		}
		e := reflect.NewAt(p.t, dst).Elem()
		if e.OverflowUint(u) {
			return mismatch(v, "an integer that fits "+p.t.String())
		}
		e.SetUint(u)
	}
	return nil
}

// decodeTime reads a Date: epoch milliseconds (as the store keeps Date
// fields) or an ISO-8601 string (a date outside an entity); null and
// absent are the zero Time. Times are in UTC.
func decodeTime(v value.Value) (time.Time, error) {
	switch v.Kind() {
	case value.Null, value.Undefined:
		return time.Time{}, nil
	case value.Number:
		ms, err := schema.MillisOf(v)
		if err != nil {
			return time.Time{}, &DecodeError{Msg: err.Error()}
		}
		return time.UnixMilli(ms).UTC(), nil
	case value.String:
		ms, err := schema.ParseDate(v.Str())
		if err != nil {
			return time.Time{}, &DecodeError{Msg: err.Error()}
		}
		return time.UnixMilli(ms).UTC(), nil
	}
	return time.Time{}, mismatch(v, "a date")
}

func (p *plan) decodeStruct(v value.Value, dst unsafe.Pointer) error {
	switch v.Kind() {
	case value.Object:
	case value.Null, value.Undefined:
		return nil // the zero struct, which dst holds already
	default:
		return mismatch(v, "an object")
	}
	var unknown []value.Member
	for i, m := range v.Members() {
		// Members usually come in the order of the fields (the entity's
		// defaults are in that order): try the field at i before the map.
		fi := -1
		if i < len(p.fields) && p.fields[i].name == m.Key {
			fi = i
		} else if j, ok := p.byName[m.Key]; ok {
			fi = j
		}
		if fi < 0 {
			if p.hasUnknown && !m.Value.IsUndefined() {
				unknown = append(unknown, m)
			}
			continue
		}
		f := &p.fields[fi]
		if err := f.plan.decodeInto(m.Value, ptrAt(dst, f.off)); err != nil {
			return wrapPath(err, "."+f.name)
		}
	}
	if len(unknown) > 0 {
		*(*Unknown)(ptrAt(dst, p.unknown)) = Unknown{v: value.Obj(unknown...)}
	}
	return nil
}

func (p *plan) decodePtr(v value.Value, dst unsafe.Pointer) error {
	if v.IsNullish() {
		*(*unsafe.Pointer)(dst) = nil
		return nil
	}
	if p.cache != nil {
		if q, _, ok := p.cache.get(v); ok {
			*(*unsafe.Pointer)(dst) = q
			return nil
		}
	}
	q := reflect.New(p.elem.t).UnsafePointer()
	if err := p.elem.decodeInto(v, q); err != nil {
		return err
	}
	if p.cache != nil {
		p.cache.put(v, q, 0)
	}
	*(*unsafe.Pointer)(dst) = q
	return nil
}

// sliceHeader is the layout of every slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

func (p *plan) decodeSlice(v value.Value, dst unsafe.Pointer) error {
	switch v.Kind() {
	case value.Array:
	case value.Null, value.Undefined:
		*(*sliceHeader)(dst) = sliceHeader{}
		return nil
	default:
		return mismatch(v, "an array")
	}
	if p.cache != nil {
		if q, n, ok := p.cache.get(v); ok {
			*(*sliceHeader)(dst) = sliceHeader{data: q, len: n, cap: n}
			return nil
		}
	}
	elems := v.Elems()
	n := len(elems)
	var data unsafe.Pointer
	switch {
	case p.elem.kind == kPtr:
		// Every pointer slice has the layout of []unsafe.Pointer, whose
		// elements the garbage collector scans as pointers too.
		data = unsafe.Pointer(unsafe.SliceData(make([]unsafe.Pointer, n)))
	case p.elem.t == stringType:
		data = unsafe.Pointer(unsafe.SliceData(make([]string, n)))
	default:
		data = reflect.MakeSlice(p.t, n, n).UnsafePointer()
	}
	size := p.elem.size
	for i, e := range elems {
		if err := p.elem.decodeInto(e, unsafe.Add(data, uintptr(i)*size)); err != nil {
			return wrapPath(err, "["+strconv.Itoa(i)+"]")
		}
	}
	if n == 0 {
		data = unsafe.Pointer(&zeroArray)
	} else if p.cache != nil {
		p.cache.put(v, data, n)
	}
	*(*sliceHeader)(dst) = sliceHeader{data: data, len: n, cap: n}
	return nil
}

// zeroArray backs every empty slice decoded from an empty array, which is
// thereby not nil (a null is).
var zeroArray [0]uintptr

func (p *plan) decodeMap(v value.Value, dst unsafe.Pointer) error {
	m := reflect.NewAt(p.t, dst).Elem()
	switch v.Kind() {
	case value.Object:
	case value.Null, value.Undefined:
		m.SetZero()
		return nil
	default:
		return mismatch(v, "an object")
	}
	out := reflect.MakeMapWithSize(p.t, v.Len())
	for _, mem := range v.Members() {
		if mem.Value.IsUndefined() {
			continue
		}
		e := reflect.New(p.elem.t)
		if err := p.elem.decodeInto(mem.Value, e.UnsafePointer()); err != nil {
			return wrapPath(err, "["+strconv.Quote(mem.Key)+"]")
		}
		out.SetMapIndex(reflect.ValueOf(mem.Key).Convert(p.t.Key()), e.Elem())
	}
	m.Set(out)
	return nil
}

// decodeValue decodes v as a value of p's type into dst, holding the
// caches' lock. Errors name the place from the type's name.
func decodeValue(p *plan, v value.Value, dst unsafe.Pointer) error {
	cacheMu.Lock()
	err := p.decodeInto(v, dst)
	cacheMu.Unlock()
	if err != nil {
		if de, ok := err.(*DecodeError); ok && (de.Path == "" || de.Path[0] == '.' || de.Path[0] == '[') {
			de.Path = p.t.String() + de.Path
		}
		return err
	}
	return nil
}
