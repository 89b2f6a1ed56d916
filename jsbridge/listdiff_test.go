package jsbridge

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// elementRef matches a ref op naming an element of the top-level list.
var elementRef = regexp.MustCompile(`\[1,\d+,\d+\]`)

// TestKeptListSendsOneOpForUnchangedElements: after one change in a list,
// the elements that are the same values at the same indices cost one op
// for all of them, not one each, and still decode to the objects
// JavaScript had.
func TestKeptListSendsOneOpForUnchangedElements(t *testing.T) {
	tests := []struct {
		name   string
		change string // a write to the "one" result, changing the list
		// changed are the indices whose objects change; want the kept op's
		// ranges.
		changed []int
		ranges  string
	}{
		{"one article in the middle", `{"id":"25","title":"edited"}`, []int{24}, `[0,24,25,50]`},
		{"the first article", `{"id":"1","title":"edited"}`, []int{0}, `[1,50]`},
		{"the last article", `{"id":"50","title":"edited"}`, []int{49}, `[0,49]`},
		{"a shared author: every article", `{"id":7,"name":"Renamed"}`, seqInts(0, 50), ``},
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
			if n := len(elementRef.FindAllString(out, -1)); n != 0 {
				t.Errorf("%d ref ops for elements of a list JavaScript holds: %s", n, out)
			}
			kept := strings.Contains(out, "[3,")
			if kept != (tt.ranges != "") || (kept && !strings.Contains(out, ","+tt.ranges+"]")) {
				t.Errorf("kept op with ranges %q expected: %s", tt.ranges, out)
			}
			if len(f.dec.objs) != len(f.ids.entries) {
				t.Errorf("JavaScript holds %d ids, Go %d", len(f.dec.objs), len(f.ids.entries))
			}
			// A rollback-like return to the first version is still "r".
			again, out := f.read(t, "list", f.list)
			if !same(again, after) || !strings.HasPrefix(out, `{"r":`) {
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
	if n := len(envelopeRef.FindAllString(out, -1)); n != 0 {
		t.Errorf("%d ref ops for results JavaScript holds: %s", n, out)
	}
	if !strings.Contains(out, `[0,9,10,30],"results"]`) {
		t.Errorf("no kept op for results: %s", out)
	}
	if len(f.dec.objs) != len(f.ids.entries) {
		t.Errorf("JavaScript holds %d ids, Go %d", len(f.dec.objs), len(f.ids.entries))
	}
}

// envelopeRef matches a ref op naming an element of the results list.
var envelopeRef = regexp.MustCompile(`\[1,\d+,"results",\d+\]`)

// TestKeptEntitySendsOnlyChangedMembers: when a shared author changes,
// every article containing it is sent as its new author reference laid over
// the article JavaScript had, not as its whole text.
func TestKeptEntitySendsOnlyChangedMembers(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, articlesJSON(20), 1)
	before, _ := f.read(t, "list", f.list)
	f.store(t, "one", f.user, `{"id":7,"name":"Renamed"}`, 2)
	after, out := f.read(t, "list", f.list)

	if strings.Contains(out, `"title"`) || strings.Contains(out, `"createdAt"`) {
		t.Errorf("unchanged members were sent: %s", out)
	}
	if n := strings.Count(out, "[4,"); n != 20 {
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
	if len(f.dec.objs) != len(f.ids.entries) {
		t.Errorf("JavaScript holds %d ids, Go %d", len(f.dec.objs), len(f.ids.entries))
	}
	// The next change pushes the first version out; what is held balances.
	f.store(t, "one", f.user, `{"id":7,"name":"Renamed again"}`, 3)
	third, _ := f.read(t, "list", f.list)
	if got := third.([]any)[5].(map[string]any)["author"].(map[string]any)["name"]; got != "Renamed again" {
		t.Errorf("author name %v", got)
	}
	if len(f.dec.objs) != len(f.ids.entries) {
		t.Errorf("after a third version JavaScript holds %d ids, Go %d", len(f.dec.objs), len(f.ids.entries))
	}
}
