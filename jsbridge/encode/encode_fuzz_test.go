package encode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"

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
// and members laid over an old object) included. A call is bounded (steps,
// list, queue) to keep its time far below the engine's limit: see
// maxCallWork.
func FuzzReadProtocol(f *testing.F) {
	f.Add([]byte{2, 0, 2, 1, 2, 2, 4, 0, 0, 1, 4, 0, 1, 2, 4, 1})
	f.Add([]byte{2, 3, 2, 4, 4, 1, 5, 3, 4, 1, 6, 0, 4, 1, 3, 0, 4, 0})
	f.Add([]byte{2, 1, 2, 2, 2, 3, 4, 0, 1, 0, 4, 0, 1, 1, 4, 0, 0, 2, 4, 1, 5, 1, 4, 0, 3, 1, 4, 1})
	f.Fuzz(func(t *testing.T, ops []byte) { runReadProtocol(t, ops) })
}

// runReadProtocol runs FuzzReadProtocol's steps on ops and returns the
// model they left.
func runReadProtocol(t *testing.T, ops []byte) *protocolModel {
	if len(ops) > 2*fuzzMaxSteps {
		ops = ops[:2*fuzzMaxSteps]
	}
	m := newProtocolModel()
	for i := 0; i+1 < len(ops); i += 2 {
		m.step(t, ops[i]%7, int(ops[i+1]))
	}
	m.read(t, "list", m.list)
	m.read(t, "page", m.page)
	return m
}

// maxCallWork bounds the work of one call of FuzzReadProtocol, counted as
// protocolModel.work. The fuzzing engine kills a worker process whose call
// of the target takes 10 s of wall time (the worker panics "deadlocked!"
// and the run fails with "fuzzing process hung or terminated unexpectedly"),
// and a loaded machine stretches a call 10 to 20 times. A unit costs about
// 1 µs of CPU here, twice that instrumented for fuzzing. With the list and
// the queue bounded, the worst call (a full queue, then appends, each
// storing a full list twice and replaying the queue twice) does about 12000
// units, 10 ms. Unbounded, 200 appends did 80000: 0.1 s, and up to 2 s
// with both cores busy.
const maxCallWork = 15000

// TestReadProtocolCallIsSmall runs the inputs that make FuzzReadProtocol's
// calls costly (long lists stored and read at every step, long optimistic
// queues replayed at every change) and random ones, and checks that the
// work of each stays within maxCallWork.
func TestReadProtocolCallIsSmall(t *testing.T) {
	repeat := func(n int, pattern ...byte) []byte {
		return bytes.Repeat(pattern, n)
	}
	cases := []struct {
		name string
		ops  []byte
	}{
		{"appends", repeat(fuzzMaxSteps, 2, 1)},
		{"appends and reads", repeat(fuzzMaxSteps/2, 2, 1, 4, 1)},
		{"appends, then reads", append(repeat(fuzzMaxSteps/2, 2, 1), repeat(fuzzMaxSteps/2, 4, 0)...)},
		{"appends, then removes and reads", append(repeat(fuzzMaxSteps/2, 2, 1), repeat(fuzzMaxSteps/4, 3, 0, 4, 1)...)},
		{"optimistic edits", repeat(fuzzMaxSteps, 5, 1)},
		{"a full optimistic queue, then appends", append(repeat(fuzzMaxPending, 5, 1), repeat(fuzzMaxSteps-fuzzMaxPending, 2, 1)...)},
		{"appends, then optimistic edits and reads", append(repeat(fuzzMaxSteps/2, 2, 1), repeat(fuzzMaxSteps/4, 5, 1, 4, 1)...)},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		ops := make([]byte, 2*fuzzMaxSteps)
		for j := range ops {
			ops[j] = byte(rng.IntN(256))
		}
		cases = append(cases, struct {
			name string
			ops  []byte
		}{fmt.Sprintf("random %d", i), ops})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := runReadProtocol(t, c.ops)
			assert.LessOrEqual(t, m.work, maxCallWork, "records stored, replayed and read by one call")
		})
	}
}

// TestReadProtocolCallLeavesNothing checks that a call of FuzzReadProtocol
// leaves nothing behind: a fuzzing worker process makes tens of thousands
// of calls, and what each kept would grow the heap, and the collector's
// work with it, call after call. Each call builds its own schemas, which
// must be collected once it is over (the encoder's schema cache kept every
// one).
func TestReadProtocolCallLeavesNothing(t *testing.T) {
	ops := []byte{2, 1, 2, 2, 4, 0, 4, 1, 5, 1, 4, 1, 0, 1, 4, 0, 1, 1, 4, 1}
	var pages []weak.Pointer[schema.Object]
	var articles []weak.Pointer[schema.Entity]
	for range 20 {
		m := runReadProtocol(t, ops)
		pages = append(pages, weak.Make(m.page.(*schema.Object)))
		articles = append(articles, weak.Make(m.f.article))
	}
	runtime.GC()
	kept := 0
	for i := range pages {
		if pages[i].Value() != nil || articles[i].Value() != nil {
			kept++
		}
	}
	assert.Zero(t, kept, "calls whose schemas are still reachable after they ended, of %d", len(pages))
}

const (
	fuzzArticles = 6
	fuzzUsers    = 3
	// fuzzMaxSteps bounds the steps of a call (two bytes each).
	fuzzMaxSteps = 200
	// fuzzMaxMembers and fuzzMaxPending bound the list and the optimistic
	// queue, so that the work of a call stays small (see maxCallWork):
	// every step stores or reads the list whole, and every change replays
	// the queue. Twice as many members as articles still holds every
	// article more than once; a longer queue would only repeat edits of
	// the same records.
	fuzzMaxMembers = 2 * fuzzArticles
	fuzzMaxPending = fuzzArticles + 2
)

// protocolModel is the store, the encoder's table and the simulated
// JavaScript side of one controller.
type protocolModel struct {
	f          *fixture
	list, page schema.Schema
	members    []int // the ids in the list, in order
	edits      int
	// work counts the records stored, the pending writes replayed and the
	// list elements read: what the time of a call is proportional to.
	work    int
	pending []*store.Pending
	// last read of each key: Go's value and what it decoded to
	lastV   map[string]value.Value
	lastOut map[string]any
	// record, when set, is given every output read (TestWireCorpus).
	record func(out []byte)
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
	m.work += len(w.Entities) + m.f.st.PendingCount()
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
	case 2: // append an article to the list (a full list drops its first)
		if len(m.members) == fuzzMaxMembers {
			m.members = m.members[1:]
		}
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
	case 5: // an optimistic edit (a full queue rolls back its oldest first)
		if len(m.pending) == fuzzMaxPending {
			m.removePending()
		}
		id := arg%fuzzArticles + 1
		w := m.normalized(m.f.article, fmt.Sprintf(`{"id":"%d","title":"optimistic %d"}`, id, m.edits), "")
		w.Key, w.Schema, w.Result = "", nil, value.Undef
		m.pending = append(m.pending, m.f.st.AddPending(w))
		m.work += len(w.Entities) + m.f.st.PendingCount()
	case 6: // the oldest optimistic edit rolled back
		if len(m.pending) > 0 {
			m.removePending()
		}
	}
}

// removePending rolls back the oldest optimistic edit.
func (m *protocolModel) removePending() {
	m.f.st.RemovePending(m.pending[0])
	m.pending = m.pending[1:]
	m.work += m.f.st.PendingCount()
}

// read emits key, decodes it and checks it against what Go read.
func (m *protocolModel) read(t *testing.T, key string, s schema.Schema) {
	t.Helper()
	v, _, _, ok := m.f.st.Read(key)
	if !ok {
		return
	}
	got, out := m.f.read(t, key, s)
	if m.record != nil {
		m.record(out.raw)
	}
	m.work += len(elems(v, key))
	var want any
	if err := json.Unmarshal([]byte(v.JSON()), &want); err != nil {
		t.Fatalf("Go's read is not JSON: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s decodes to\n%v\nwant\n%v\noutput %s", key, got, want, out)
	}
	if m.f.dec.held() != m.f.ids.entries.len() {
		t.Fatalf("JavaScript holds %d ids, Go %d, after %s", m.f.dec.held(), m.f.ids.entries.len(), out)
	}
	checkWireIDs(t, m.f.ids)
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
