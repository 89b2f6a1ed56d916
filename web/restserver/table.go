package restserver

// Table is an insertion-ordered map of records keyed by their id as a
// string, so list endpoints answer in a stable order across requests. Like
// the data of every state route, it has no lock of its own: the server's
// lock guards it (see [Server.HandleState]).
type Table[T any] struct {
	ids  []string
	rows map[string]T
}

// NewTable returns an empty table.
func NewTable[T any]() *Table[T] {
	return &Table[T]{rows: make(map[string]T)}
}

// All returns the records in insertion order.
func (t *Table[T]) All() []T {
	out := make([]T, 0, len(t.ids))
	for _, id := range t.ids {
		out = append(out, t.rows[id])
	}
	return out
}

// Get returns the record stored under id and whether there is one.
func (t *Table[T]) Get(id string) (T, bool) {
	v, ok := t.rows[id]
	return v, ok
}

// Put stores v under id, appending id to the order when it is new.
func (t *Table[T]) Put(id string, v T) {
	if _, ok := t.rows[id]; !ok {
		t.ids = append(t.ids, id)
	}
	t.rows[id] = v
}

// Remove deletes the record stored under id and reports whether there was
// one.
func (t *Table[T]) Remove(id string) bool {
	if _, ok := t.rows[id]; !ok {
		return false
	}
	delete(t.rows, id)
	for i, v := range t.ids {
		if v == id {
			t.ids = append(t.ids[:i:i], t.ids[i+1:]...)
			break
		}
	}
	return true
}

// firstCreatedID is where server-assigned ids start, far enough above the
// seed ids that a test can tell a created record from a seeded one.
const firstCreatedID = 101
