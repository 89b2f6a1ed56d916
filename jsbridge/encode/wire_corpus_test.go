//go:build !js

package encode

import (
	"bytes"
	"encoding/base64"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

var updateCorpus = flag.Bool("update", false, "rewrite jsbridge/wire/testdata/corpus instead of checking it")

// corpusDir holds the differential corpus: outputs of the real encoder with
// what they decode to by the reference decoder, which test/node/wire.test.mjs
// runs the JavaScript decoder over.
const corpusDir = "../wire/testdata/corpus"

// corpusSession records a sequence of outputs decoded with one table, as
// one controller's reads are.
type corpusSession struct {
	t     *testing.T
	name  string
	table *wire.Table // nil: outputs without identity
	steps [][]byte    // the JSON of each step
	seen  map[*wire.Node][]any
	// classes groups the positions (step, path...) of every object by
	// object: what === tells in JavaScript.
	classes map[*wire.Node][][]any
	order   []*wire.Node
	// reset is set when both halves were reset before the next step.
	reset bool
}

func newCorpusSession(t *testing.T, name string, identity bool) *corpusSession {
	c := &corpusSession{t: t, name: name, classes: map[*wire.Node][][]any{}}
	if identity {
		c.table = &wire.Table{}
	}
	return c
}

// add decodes out, records it as the next step and returns its value.
func (c *corpusSession) add(out []byte) *wire.Node {
	c.t.Helper()
	o, err := wire.Decode(out, c.table)
	require.NoError(c.t, err, "%s step %d", c.name, len(c.steps))
	step := len(c.steps)
	var dates, undefs [][]any
	val := o.Value.AppendJSON(nil, nil, func(m wire.Mark, p []any) {
		if m == wire.MarkDate {
			dates = append(dates, p)
		} else {
			undefs = append(undefs, p)
		}
	})
	c.walk(o.Value, []any{step})
	var b []byte
	b = append(b, `{"stream":"`...)
	b = base64.StdEncoding.AppendEncode(b, out)
	b = append(b, `","value":`...)
	if o.Value.Kind == wire.Undefined {
		b = append(b, `null,"undefined":true`...)
	} else {
		b = value.AppendString(b, string(val))
	}
	if c.reset {
		b = append(b, `,"reset":true`...)
		c.reset = false
	}
	b = append(b, `,"dates":`...)
	b = appendPaths(b, dates)
	if len(undefs) > 0 {
		b = append(b, `,"undefs":`...)
		b = appendPaths(b, undefs)
	}
	if o.Header.Response {
		b = fmt.Appendf(b, `,"header":{"expiryStatus":%q,"expiresAt":%s,"afterExpiry":%s,"errorKept":%t}`,
			wire.StatusNames[o.Header.Status], strconv.FormatFloat(o.Header.ExpiresAt, 'g', -1, 64),
			jsonStatus(o.Header.AfterExpiry), o.Header.ErrorKept)
	}
	b = append(b, '}')
	c.steps = append(c.steps, b)
	return o.Value
}

func jsonStatus(s wire.Status) string {
	if s == wire.StatusNone {
		return "null"
	}
	return strconv.Quote(wire.StatusNames[s])
}

// walk records the position of every object and array under n.
func (c *corpusSession) walk(n *wire.Node, path []any) {
	switch n.Kind {
	case wire.Array, wire.Object:
	default:
		return
	}
	if _, ok := c.classes[n]; !ok {
		c.order = append(c.order, n)
	}
	c.classes[n] = append(c.classes[n], append([]any(nil), path...))
	for i, e := range n.Elems {
		c.walk(e, append(path, i))
	}
	for i, k := range n.Keys {
		c.walk(n.Vals[i], append(path, k))
	}
}

func appendPaths(b []byte, paths [][]any) []byte {
	b = append(b, '[')
	for i, p := range paths {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for j, s := range p {
			if j > 0 {
				b = append(b, ',')
			}
			switch s := s.(type) {
			case int:
				b = strconv.AppendInt(b, int64(s), 10)
			case string:
				b = value.AppendString(b, s)
			}
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

// file returns the session as the corpus file's JSON.
func (c *corpusSession) file() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"name\":%q,\"identity\":%t,\"steps\":[\n", c.name, c.table != nil)
	for i, s := range c.steps {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.Write(s)
	}
	b.WriteString("\n],\"same\":[")
	first := true
	for _, n := range c.order {
		if ps := c.classes[n]; len(ps) > 1 {
			if !first {
				b.WriteString(",\n")
			}
			first = false
			b.Write(appendPaths(nil, ps))
		}
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// corpusValues are the values whose decoding is hardest to get exactly
// right: numbers JSON.parse rounds or overflows, -0, escapes, lone
// surrogates, ill-formed UTF-8, __proto__ and integer-like keys, empty
// containers.
const corpusValues = `{
	"numbers": [0, -0, 1, -1, 2147483647, -2147483648, 2147483648, -2147483649, 1.5, 0.1, 1e400, -1e400, 1e-400,
		5e-324, 9007199254740993, 12345678901234567890, 1E2, 1e+2, -0.0, 0e5],
	"strings": ["", "plain", "héllo wörld ✓ 😀", "a\"b\\c\/d\b\f\n\r\t", "\u0000\u001f", "\udc00", "\ud800x",
		"\ud83d\ude00", "x\uDBFF", "\u2028\u2029", "日本語のテキスト", "ascii then 😀"],
	"keys": {"__proto__": {"polluted": true}, "1": "one", "0": "zero", "a": "a", "k\udc00": 1, "é": 2,
		"a\"b": 3, "constructor": 4, "toString": 5, "": 6},
	"empty": [[], {}, [[]], [{}], ""],
	"nested": [[1, [2, [3, [4]]]], {"a": {"b": {"c": {"d": null}}}}],
	"literals": [true, false, null]
}`

func corpusBadUTF8() value.Value {
	return value.Obj(value.M("bad\xff", value.Str("a\xffb\xe2\x82c\xed\xa0\x80")))
}

func TestWireCorpus(t *testing.T) {
	var sessions []*corpusSession

	// Values with no schema, with and without a table; the same value twice
	// with a table is one REF the second time.
	v := value.MustParse(corpusValues)
	for _, identity := range []bool{true, false} {
		name := "values-plain"
		var ids *Identities
		if identity {
			name, ids = "values", NewIdentities()
		}
		c := newCorpusSession(t, name, identity)
		c.add(ids.Output(nil, wire.Header{}, "k", nil, v))
		c.add(ids.Output(nil, wire.Header{}, "k", nil, v))
		c.add(ids.Output(nil, wire.Header{}, "bad", nil, corpusBadUTF8()))
		c.add(ids.Output(nil, wire.Header{}, "none", nil, value.Undef))
		sessions = append(sessions, c)
	}

	// Articles with dates, a shared author, defaults and a deleted member,
	// through the changes the identity rules are about.
	f := newFixture()
	c := newCorpusSession(t, "articles", true)
	page := schema.ObjectOf(schema.Nested("results", f.list), schema.Default("nextPage", value.Str("")))
	dict := schema.ValuesOf(f.article)
	read := func(key string, s schema.Schema, h wire.Header) *wire.Node {
		v, _, _, _ := f.st.Read(key)
		return c.add(f.ids.Output(nil, h, key, s, v))
	}
	f.store(t, "list", f.list, articlesJSON(12), 1)
	f.store(t, "page", page, `{"results":`+articlesJSON(5)+`,"nextPage":"p2"}`, 1)
	f.store(t, "dict", dict, `{"a":{"id":"1"},"b":{"id":"13","title":"only here","author":99,"createdAt":"2024-01-02T03:04:05Z"}}`, 1)
	read("list", f.list, wire.Header{Response: true, Status: wire.StatusValid, ExpiresAt: 1001, AfterExpiry: wire.StatusStale})
	read("list", f.list, wire.Header{})
	read("page", page, wire.Header{})
	read("dict", dict, wire.Header{})
	f.store(t, "one", f.article, `{"id":"3","title":"edited \udc00 ✓"}`, 2)
	read("list", f.list, wire.Header{Response: true, Status: wire.StatusStale, ErrorKept: true})
	read("page", page, wire.Header{})
	f.store(t, "one", f.user, `{"id":7,"name":"Renamed"}`, 3)
	read("list", f.list, wire.Header{})
	read("page", page, wire.Header{})
	p := f.st.AddPending(func() store.Write {
		n, _ := schema.Normalize(f.article, value.MustParse(`{"id":"5","title":"optimistic"}`))
		return store.Write{Entities: n.Entities, Meta: schema.Meta{FetchedAt: 4}}
	}())
	read("list", f.list, wire.Header{})
	f.st.RemovePending(p)
	read("list", f.list, wire.Header{})
	f.store(t, "list", f.list, `["2","1","4"]`, 5)
	read("list", f.list, wire.Header{})
	read("dict", dict, wire.Header{})
	// Both halves reset: everything is sent again, shapes included.
	f.ids.Reset()
	c.table.Reset()
	c.reset = true
	read("list", f.list, wire.Header{})
	sessions = append(sessions, c)

	// Random sessions of the read-protocol fuzz target's steps.
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range 8 {
		// A stored list first, then random steps.
		ops := []byte{2, 1, 2, 2, 2, 3, 2, 4}
		for range 40 {
			ops = append(ops, byte(rng.IntN(256)))
		}
		sessions = append(sessions, protocolSession(t, fmt.Sprintf("protocol-%d", i), ops))
	}

	if *updateCorpus {
		require.NoError(t, os.RemoveAll(corpusDir))
		require.NoError(t, os.MkdirAll(corpusDir, 0o755))
	}
	names := map[string]bool{}
	for _, s := range sessions {
		file := filepath.Join(corpusDir, s.name+".json")
		names[filepath.Base(file)] = true
		if *updateCorpus {
			require.NoError(t, os.WriteFile(file, s.file(), 0o644))
			continue
		}
		got, err := os.ReadFile(file)
		require.NoError(t, err, "run go test ./jsbridge/encode -run TestWireCorpus -update")
		assert.Equal(t, string(s.file()), string(got), "%s is not current: run go test ./jsbridge/encode -run TestWireCorpus -update", file)
	}
	entries, err := os.ReadDir(corpusDir)
	require.NoError(t, err)
	var extra []string
	for _, e := range entries {
		if !names[e.Name()] {
			extra = append(extra, e.Name())
		}
	}
	sort.Strings(extra)
	assert.Empty(t, extra, "files in %s that no session writes", corpusDir)
}

// protocolSession runs FuzzReadProtocol's steps on ops, recording every
// read as a corpus step.
func protocolSession(t *testing.T, name string, ops []byte) *corpusSession {
	c := newCorpusSession(t, name, true)
	m := newProtocolModel()
	m.record = func(out []byte) { c.add(out) }
	for i := 0; i+1 < len(ops); i += 2 {
		m.step(t, ops[i]%7, int(ops[i+1]))
	}
	m.read(t, "list", m.list)
	m.read(t, "page", m.page)
	return c
}
