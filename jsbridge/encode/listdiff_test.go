package encode

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// TestKeptListSendsOneOpForUnchangedElements: after one change in a list,
// the elements that are the same values at the same indices cost one op
// for all of them, not one each, and still decode to the objects
// JavaScript had.
func TestKeptListSendsOneOpForUnchangedElements(t *testing.T) {
	tests := []struct {
		name   string
		change string // a write to the "one" result, changing the list
		// changed are the indices whose objects change; runs the number of
		// kept runs, which keep the other elements.
		changed []int
		runs    int
	}{
		{"one article in the middle", `{"id":"25","title":"edited"}`, []int{24}, 2},
		{"the first article", `{"id":"1","title":"edited"}`, []int{0}, 1},
		{"the last article", `{"id":"50","title":"edited"}`, []int{49}, 1},
		{"a shared author: every article", `{"id":7,"name":"Renamed"}`, seqInts(0, 50), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture()
			f.store(t, "list", f.list, articlesJSON(50), 1)
			before, _ := f.read(t, "list", f.list)
			s := f.article
			if strings.Contains(tt.change, "name") {
				s = f.user
			}
			f.store(t, "one", s, tt.change, 2)
			after, out := f.read(t, "list", f.list)

			b, a := before.([]any), after.([]any)
			if len(a) != 50 || same(before, after) {
				t.Fatalf("changed list: %d elements, same object %v: %s", len(a), same(before, after), out)
			}
			changed := map[int]bool{}
			for _, i := range tt.changed {
				changed[i] = true
			}
			for i := range a {
				if same(a[i], b[i]) == changed[i] {
					t.Errorf("element %d: same object %v, want %v", i, same(a[i], b[i]), !changed[i])
				}
			}
			if out.Counts[wire.OpKeptList] != 1 || out.Counts[wire.OpKeep] != tt.runs || out.Kept != 50-len(tt.changed) {
				t.Errorf("want one kept list, %d runs keeping %d elements: %s (kept %d)", tt.runs, 50-len(tt.changed), out, out.Kept)
			}
			// Only the author inside a changed article is a ref.
			if n := out.Counts[wire.OpRef]; n > len(tt.changed) {
				t.Errorf("%d ref ops for %d changed elements: %s", n, len(tt.changed), out)
			}
			if f.dec.held() != f.ids.entries.len() {
				t.Errorf("JavaScript holds %d ids, Go %d", f.dec.held(), f.ids.entries.len())
			}
			// A rollback-like return to the first version is still "r".
			again, out := f.read(t, "list", f.list)
			if !same(again, after) || !out.only(wire.OpRef) {
				t.Errorf("unchanged re-read: %s", out)
			}
		})
	}
}

func seqInts(lo, hi int) []int {
	var out []int
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// articlesJSON is n articles with ids 1..n, all by the author 7.
func articlesJSON(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"%d","title":"t%d","author":{"id":7,"name":"Ann"},"createdAt":%d}`, i, i, 1700000000000+i)
	}
	b.WriteByte(']')
	return b.String()
}

// TestKeptListInAnEnvelope: the list of a {results, nextPage} page is kept
// the same way as a top-level one, found at the same member of the
// previous page object.
func TestKeptListInAnEnvelope(t *testing.T) {
	f := newFixture()
	page := schema.ObjectOf(schema.Nested("results", f.list), schema.Default("nextPage", value.Str("")))
	f.store(t, "page", page, `{"results":`+articlesJSON(30)+`,"nextPage":"2"}`, 1)
	before, _ := f.read(t, "page", page)
	f.store(t, "one", f.article, `{"id":"10","title":"edited"}`, 2)
	after, out := f.read(t, "page", page)

	b := before.(map[string]any)["results"].([]any)
	a := after.(map[string]any)["results"].([]any)
	if len(a) != 30 {
		t.Fatalf("%d results: %s", len(a), out)
	}
	for i := range a {
		if same(a[i], b[i]) == (i == 9) {
			t.Errorf("result %d: same object %v", i, same(a[i], b[i]))
		}
	}
	if out.Counts[wire.OpKeptList] != 1 || out.Counts[wire.OpKeep] != 2 || out.Kept != 29 || out.Counts[wire.OpRef] > 1 {
		t.Errorf("want one kept list of results, 2 runs keeping 29: %s (kept %d)", out, out.Kept)
	}
	if f.dec.held() != f.ids.entries.len() {
		t.Errorf("JavaScript holds %d ids, Go %d", f.dec.held(), f.ids.entries.len())
	}
}

// TestKeptEntitySendsOnlyChangedMembers: when a shared author changes,
// every article containing it is sent as its new author reference laid over
// the article JavaScript had, not as its whole text.
func TestKeptEntitySendsOnlyChangedMembers(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, articlesJSON(20), 1)
	before, _ := f.read(t, "list", f.list)
	f.store(t, "one", f.user, `{"id":7,"name":"Renamed"}`, 2)
	after, out := f.read(t, "list", f.list)

	if bytes.Contains(out.raw, []byte("title")) || bytes.Contains(out.raw, []byte("createdAt")) {
		t.Errorf("unchanged members were sent: %s", out)
	}
	if n := out.Counts[wire.OpOver]; n != 20 {
		t.Errorf("%d over ops, want one per article: %s", n, out)
	}
	b, a := before.([]any), after.([]any)
	author := a[0].(map[string]any)["author"]
	if author.(map[string]any)["name"] != "Renamed" {
		t.Fatalf("author is %v", author)
	}
	for i := range a {
		art, old := a[i].(map[string]any), b[i].(map[string]any)
		if same(art, old) {
			t.Errorf("article %d is the old object", i)
		}
		if art["title"] != old["title"] || art["createdAt"] != old["createdAt"] || art["id"] != old["id"] {
			t.Errorf("article %d lost its members: %v", i, art)
		}
		if !same(art["author"], author) {
			t.Errorf("article %d has another author object", i)
		}
	}
	if f.dec.held() != f.ids.entries.len() {
		t.Errorf("JavaScript holds %d ids, Go %d", f.dec.held(), f.ids.entries.len())
	}
	// The next change pushes the first version out; what is held balances.
	f.store(t, "one", f.user, `{"id":7,"name":"Renamed again"}`, 3)
	third, _ := f.read(t, "list", f.list)
	if got := third.([]any)[5].(map[string]any)["author"].(map[string]any)["name"]; got != "Renamed again" {
		t.Errorf("author name %v", got)
	}
	if f.dec.held() != f.ids.entries.len() {
		t.Errorf("after a third version JavaScript holds %d ids, Go %d", f.dec.held(), f.ids.entries.len())
	}
}
