package jsbridge

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// FuzzReadProtocol drives a store through random changes (records edited,
// list members added and removed, optimistic writes queued and rolled
// back) and reads a list and a {results, next} page of it after each, as
// JavaScript would decode them. Every read must decode to the value Go
// read, each element Go reads as the same value as last time must decode to
// the same object, and both halves of the identity table must stay the
// same size. It covers the ops a read can carry, list diffs (kept ranges
// and members laid over an old object) included.
func FuzzReadProtocol(f *testing.F) {
	f.Add([]byte{2, 0, 2, 1, 2, 2, 4, 0, 0, 1, 4, 0, 1, 2, 4, 1})
	f.Add([]byte{2, 3, 2, 4, 4, 1, 5, 3, 4, 1, 6, 0, 4, 1, 3, 0, 4, 0})
	f.Add([]byte{2, 1, 2, 2, 2, 3, 4, 0, 1, 0, 4, 0, 1, 1, 4, 0, 0, 2, 4, 1, 5, 1, 4, 0, 3, 1, 4, 1})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 400 {
			ops = ops[:400]
		}
		m := newProtocolModel()
		for i := 0; i+1 < len(ops); i += 2 {
			m.step(t, ops[i]%7, int(ops[i+1]))
		}
		m.read(t, "list", m.list)
		m.read(t, "page", m.page)
	})
}

const (
	fuzzArticles = 6
	fuzzUsers    = 3
)

// protocolModel is the store, the encoder's table and the simulated
// JavaScript side of one controller.
type protocolModel struct {
	f          *fixture
	list, page schema.Schema
	members    []int // the ids in the list, in order
	edits      int
	pending    []*store.Pending
	// last read of each key: Go's value and what it decoded to
	lastV   map[string]value.Value
	lastOut map[string]any
}

func newProtocolModel() *protocolModel {
	f := newFixture()
	m := &protocolModel{
		f:       f,
		list:    f.list,
		page:    schema.ObjectOf(schema.Nested("results", f.list), schema.Default("next", value.Str(""))),
		lastV:   map[string]value.Value{},
		lastOut: map[string]any{},
	}
	return m
}

func (m *protocolModel) apply(w store.Write) {
	m.f.st.Apply(&w)
}

func (m *protocolModel) normalized(s schema.Schema, data string, key string) store.Write {
	n, err := schema.Normalize(s, value.MustParse(data))
	if err != nil {
		panic(err)
	}
	m.edits++
	return store.Write{Key: key, Schema: s, Result: n.Result, Entities: n.Entities,
		Meta: schema.Meta{Date: int64(m.edits), FetchedAt: int64(m.edits), ExpiresAt: int64(m.edits) + 1000}}
}

// storeList stores the list and the page of the current members, with
// each article's record as the server would send it.
func (m *protocolModel) storeList() {
	recs := make([]string, len(m.members))
	for i, id := range m.members {
		recs[i] = fmt.Sprintf(`{"id":"%d","title":"t%d","author":{"id":%d,"name":"u%d"}}`, id, id, id%fuzzUsers, id%fuzzUsers)
	}
	list := "[" + strings.Join(recs, ",") + "]"
	m.apply(m.normalized(m.list, list, "list"))
	m.apply(m.normalized(m.page, `{"results":`+list+`,"next":"n"}`, "page"))
}

func (m *protocolModel) step(t *testing.T, op byte, arg int) {
	switch op {
	case 0: // edit an article's title
		id := arg%fuzzArticles + 1
		m.apply(m.normalized(m.f.article, fmt.Sprintf(`{"id":"%d","title":"edit %d"}`, id, m.edits), "one"))
	case 1: // rename a user
		id := arg % fuzzUsers
		m.apply(m.normalized(m.f.user, fmt.Sprintf(`{"id":%d,"name":"name %d"}`, id, m.edits), "user"))
	case 2: // append an article to the list
		m.members = append(m.members, arg%fuzzArticles+1)
		m.storeList()
	case 3: // remove a member
		if len(m.members) > 0 {
			i := arg % len(m.members)
			m.members = append(m.members[:i:i], m.members[i+1:]...)
			m.storeList()
		}
	case 4: // read
		if arg%2 == 0 {
			m.read(t, "list", m.list)
		} else {
			m.read(t, "page", m.page)
		}
	case 5: // an optimistic edit
		id := arg%fuzzArticles + 1
		w := m.normalized(m.f.article, fmt.Sprintf(`{"id":"%d","title":"optimistic %d"}`, id, m.edits), "")
		w.Key, w.Schema, w.Result = "", nil, value.Undef
		m.pending = append(m.pending, m.f.st.AddPending(w))
	case 6: // the oldest optimistic edit rolled back
		if len(m.pending) > 0 {
			m.f.st.RemovePending(m.pending[0])
			m.pending = m.pending[1:]
		}
	}
}

// read emits key, decodes it and checks it against what Go read.
func (m *protocolModel) read(t *testing.T, key string, s schema.Schema) {
	t.Helper()
	v, _, _, ok := m.f.st.Read(key)
	if !ok {
		return
	}
	got, out := m.f.read(t, key, s)
	var want any
	if err := json.Unmarshal([]byte(v.JSON()), &want); err != nil {
		t.Fatalf("Go's read is not JSON: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s decodes to\n%v\nwant\n%v\noutput %s", key, got, want, out)
	}
	if len(m.f.dec.objs) != len(m.f.ids.entries) {
		t.Fatalf("JavaScript holds %d ids, Go %d, after %s", len(m.f.dec.objs), len(m.f.ids.entries), out)
	}
	if prev, ok := m.lastV[key]; ok {
		now, before := elems(v, key), elems(prev, key)
		gotList, beforeList := decodedElems(got, key), decodedElems(m.lastOut[key], key)
		for i := range min(len(now), len(before), len(gotList), len(beforeList)) {
			if value.Same(now[i], before[i]) && !same(gotList[i], beforeList[i]) {
				t.Fatalf("%s[%d] is the same value as last read but a new object: %s", key, i, out)
			}
		}
	}
	m.lastV[key], m.lastOut[key] = v, got
}

func elems(v value.Value, key string) []value.Value {
	if key == "page" {
		v = v.Get("results")
	}
	return v.Elems()
}

func decodedElems(x any, key string) []any {
	if key == "page" {
		obj, _ := x.(map[string]any)
		x = obj["results"]
	}
	list, _ := x.([]any)
	return list
}
