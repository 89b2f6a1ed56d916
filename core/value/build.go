package value

// With returns a new Object like v but with the member key set to x:
// replaced in place if v has it, appended otherwise. v is not modified. A v
// that is not an Object counts as an empty one, so Undef.With starts a build.
func (v Value) With(key string, x Value) Value {
	var obj []Member
	if v.kind == Object {
		for i := range v.obj {
			if v.obj[i].Key == key {
				obj = make([]Member, len(v.obj))
				copy(obj, v.obj)
				obj[i].Value = x
				return Value{kind: Object, obj: obj}
			}
		}
		obj = make([]Member, len(v.obj), len(v.obj)+1)
		copy(obj, v.obj)
	}
	return Value{kind: Object, obj: append(obj, Member{Key: key, Value: x})}
}

// Without returns a new Object like v but without the member key. If v has
// no such member, or is not an Object, it returns v itself, which keeps the
// value Same for memoized readers.
func (v Value) Without(key string) Value {
	for i := range v.obj {
		if v.obj[i].Key == key {
			// At least one element of capacity: an emptied object, like
			// any from Obj, has storage of its own (see Same).
			obj := make([]Member, 0, max(len(v.obj)-1, 1))
			obj = append(obj, v.obj[:i]...)
			obj = append(obj, v.obj[i+1:]...)
			return Value{kind: Object, obj: obj}
		}
	}
	return v
}
