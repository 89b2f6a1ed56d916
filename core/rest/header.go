package rest

import "strings"

// HeaderField is one header line: a name as the caller spelled it and its
// value.
type HeaderField struct {
	Name  string
	Value string
}

// Header is an ordered list of header fields whose names compare without
// regard to case, as HTTP header names do. It keeps fields in the order they
// were added, unlike net/http's map, so what a transport sends is
// predictable, and it is a plain slice so that package rest does not link
// net/http. The zero Header is empty and ready to use.
//
// Header is a slice: copies share storage, so pass h.Clone() to code that
// may modify it.
type Header []HeaderField

// Get returns the first value of the named header, or "" when there is none.
func (h Header) Get(name string) string {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Values returns every value of the named header in order; nil when there is
// none.
func (h Header) Values(name string) []string {
	var vs []string
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			vs = append(vs, f.Value)
		}
	}
	return vs
}

// Has reports whether the named header is present.
func (h Header) Has(name string) bool {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}

// Set replaces every value of the named header with value, keeping the
// position of the first one, or appends it when there is none.
func (h *Header) Set(name, value string) {
	out := (*h)[:0]
	set := false
	for _, f := range *h {
		if strings.EqualFold(f.Name, name) {
			if set {
				continue
			}
			f = HeaderField{Name: name, Value: value}
			set = true
		}
		out = append(out, f)
	}
	if !set {
		*h = append(out, HeaderField{Name: name, Value: value})
		return
	}
	clear((*h)[len(out):]) // drop references held past the new end
	*h = out
}

// Add appends a value for the named header, keeping any existing ones.
func (h *Header) Add(name, value string) {
	*h = append(*h, HeaderField{Name: name, Value: value})
}

// Del removes every value of the named header.
func (h *Header) Del(name string) {
	out := (*h)[:0]
	for _, f := range *h {
		if !strings.EqualFold(f.Name, name) {
			out = append(out, f)
		}
	}
	clear((*h)[len(out):])
	*h = out
}

// Clone returns a copy of h that shares no storage with it; nil for a nil h.
func (h Header) Clone() Header {
	if h == nil {
		return nil
	}
	return append(Header(make([]HeaderField, 0, len(h))), h...)
}
