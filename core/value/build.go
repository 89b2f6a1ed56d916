package value

// With returns a new Object like v but with the member key set to x:
// replaced in place if v has it, appended otherwise. v is not modified. A v
// that is not an Object counts as an empty one, so Undef.With starts a build.
func (v Value) With(key string, x Value) Value {
	old := v.Members()
	for i := range old {
		if old[i].Key == key {
			obj := make([]Member, len(old))
			copy(obj, old)
			obj[i].Value = x
			return objectOf(obj)
		}
	}
	obj := make([]Member, len(old), len(old)+1)
	copy(obj, old)
	return objectOf(append(obj, Member{Key: key, Value: x}))
}

// Without returns a new Object like v but without the member key. If v has
// no such member, or is not an Object, it returns v itself, which keeps the
// value Same for memoized readers.
func (v Value) Without(key string) Value {
	old := v.Members()
	for i := range old {
		if old[i].Key == key {
			// At least one element of capacity: an emptied object, like
			// any from Obj, has storage of its own (see Same).
			obj := make([]Member, 0, max(len(old)-1, 1))
			obj = append(obj, old[:i]...)
			obj = append(obj, old[i+1:]...)
			return objectOf(obj)
		}
	}
	return v
}
