package value

import (
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/datafetch/datafetch/internal/fmtlite"
)

// FromGo converts plain Go data to a Value: nil, bool, every integer and
// float type, string, Value, []any, []Value, []string, []int, []float64,
// map[string]any, map[string]Value and map[string]string, nested freely.
// Map keys are sorted so the result does not depend on map order. NaN and
// infinities become null, as JSON.stringify makes them. Any other type is an
// error, since guessing at structs and pointers belongs in an encoder, not
// here.
func FromGo(x any) (Value, error) {
	switch x := x.(type) {
	case nil:
		return NullV, nil
	case Value:
		return x, nil
	case bool:
		return BoolV(x), nil
	case string:
		return Str(x), nil
	case int:
		return Int(int64(x)), nil
	case int8:
		return Int(int64(x)), nil
	case int16:
		return Int(int64(x)), nil
	case int32:
		return Int(int64(x)), nil
	case int64:
		return Int(x), nil
	case uint:
		return uintValue(uint64(x)), nil
	case uint8:
		return uintValue(uint64(x)), nil
	case uint16:
		return uintValue(uint64(x)), nil
	case uint32:
		return uintValue(uint64(x)), nil
	case uint64:
		return uintValue(x), nil
	case uintptr:
		return uintValue(uint64(x)), nil
	case float64:
		return Num(x), nil
	case float32:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return NullV, nil
		}
		// Formatting at 32-bit precision keeps float32(0.1) as 0.1
		// rather than 0.10000000149011612.
		return Value{hdr: hdr{kind: Number}, raw: strconv.FormatFloat(f, 'g', -1, 32)}, nil
	case []Value:
		return Arr(slices.Clone(x)...), nil
	case []any:
		return arrayFrom(x, FromGo)
	case []string:
		return arrayFrom(x, func(s string) (Value, error) { return Str(s), nil })
	case []int:
		return arrayFrom(x, func(i int) (Value, error) { return Int(int64(i)), nil })
	case []float64:
		return arrayFrom(x, func(f float64) (Value, error) { return Num(f), nil })
	case map[string]any:
		return objectFrom(x, FromGo)
	case map[string]Value:
		return objectFrom(x, func(v Value) (Value, error) { return v, nil })
	case map[string]string:
		return objectFrom(x, func(s string) (Value, error) { return Str(s), nil })
	}
	return Undef, fmtlite.Errorf("value.FromGo: unsupported type %T", x)
}

//go:noinline
func uintValue(u uint64) Value {
	return Value{hdr: hdr{kind: Number}, raw: strconv.FormatUint(u, 10)}
}

func arrayFrom[T any](xs []T, conv func(T) (Value, error)) (Value, error) {
	arr := make([]Value, len(xs))
	for i, x := range xs {
		v, err := conv(x)
		if err != nil {
			return Undef, err
		}
		arr[i] = v
	}
	return Arr(arr...), nil
}

func objectFrom[T any](m map[string]T, conv func(T) (Value, error)) (Value, error) {
	obj := make([]Member, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v, err := conv(m[k])
		if err != nil {
			return Undef, err
		}
		obj = append(obj, Member{Key: k, Value: v})
	}
	return Obj(obj...), nil
}

// Go converts v to the plain Go data encoding/json would decode it into:
// nil for null and undefined, bool, float64 for numbers, string, []any and
// map[string]any. Object members that are Undefined are left out, as in
// AppendJSON, so v.Go() matches what v's JSON decodes to.
func (v Value) Go() any {
	switch v.kind {
	case Bool:
		return v.Boolean()
	case Number:
		f, _ := v.Float()
		return f
	case String:
		return v.Str()
	case Array:
		elems := v.elems()
		arr := make([]any, len(elems))
		for i := range elems {
			arr[i] = elems[i].Go()
		}
		return arr
	case Object:
		members := v.members()
		obj := make(map[string]any, len(members))
		for i := range members {
			if m := &members[i]; m.Value.kind != Undefined {
				obj[m.Key] = m.Value.Go()
			}
		}
		return obj
	}
	return nil
}
