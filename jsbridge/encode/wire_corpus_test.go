//go:build !js

package encode

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"unsafe"

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
	// texts are the documents the outputs may take strings from (their
	// source text, written InPlace).
	texts []string
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
	o, err := wire.Decode(out, c.table, c.texts...)
	require.NoError(c.t, err, "%s step %d", c.name, len(c.steps))
	// The source text goes into the step, and its address in the stream
	// becomes 0: test/node/wire.test.mjs puts the text at the start of a
	// buffer and the output after it.
	source := sourceBytes(c.t, out, c.texts)
	if source != "" {
		out = append([]byte(nil), out...)
		binary.LittleEndian.PutUint64(out[16:], 0)
	}
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
	b = append(b, '"')
	if source != "" {
		b = append(b, `,"source":"`...)
		b = base64.StdEncoding.AppendEncode(b, []byte(source))
		b = append(b, '"')
	}
	b = append(b, `,"value":`...)
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

// sourceBytes returns the bytes of texts that out's header names as its
// source text; "" when it names none.
func sourceBytes(t *testing.T, out []byte, texts []string) string {
	addr := binary.LittleEndian.Uint64(out[16:])
	n := uint64(binary.LittleEndian.Uint32(out[24:]))
	if n == 0 {
		return ""
	}
	for _, s := range texts {
		at := uint64(uintptr(unsafe.Pointer(unsafe.StringData(s))))
		if addr >= at && addr+n <= at+uint64(len(s)) {
			return s[addr-at : addr-at+n]
		}
	}
	t.Fatalf("the source text is none of the texts")
	return ""
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

	sessions = append(sessions, sourceSession(t))

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

// sourceArticles are articles whose strings are slices of their response
// text (SPEC.md section 7a): long titles with characters of two, three and
// four bytes (and so UTF-16 offsets that are not byte offsets), escaped
// ones (JSON literals) and short ones (copies).
const sourceArticles = `[
	{"id":"1","title":"héllo wörld, a title long enough","author":{"id":7,"name":"Ann Author Long Name"},"createdAt":"2024-01-02T03:04:05Z"},
	{"id":"2","title":"日本語のタイトル 😀 four bytes","author":{"id":8,"name":"Bob"},"createdAt":1700000000000},
	{"id":"3","title":"an \"escaped\" title, long enough","author":{"id":7,"name":"Ann Author Long Name"},"createdAt":null},
	{"id":"4","title":"😀😀😀😀 then ASCII to the end of it","author":{"id":8,"name":"Bob"},"createdAt":null}
]`

// sourceSession reads articles parsed as responses are (ParseLazy) with
// outputs written InPlace, whose strings are slices of the response text,
// through a change of one article by a second response.
func sourceSession(t *testing.T) *corpusSession {
	f := newFixture()
	c := newCorpusSession(t, "articles-source", true)
	edit := `{"id":"2","title":"edited: ✓ a new title, long enough"}`
	c.texts = []string{sourceArticles, edit}
	put := func(key string, s schema.Schema, doc string, at int64) {
		data, err := value.ParseLazy(doc)
		require.NoError(t, err)
		n, err := schema.Normalize(s, data)
		require.NoError(t, err)
		f.st.Apply(&store.Write{Key: key, Schema: s, Result: n.Result, Entities: n.Entities,
			Meta: schema.Meta{Date: at, FetchedAt: at, ExpiresAt: at + 1000}})
	}
	read := func() *wire.Node {
		v, _, _, _ := f.st.Read("list")
		return c.add(f.ids.Output(nil, wire.Header{InPlace: true}, "list", f.list, v))
	}
	put("list", f.list, sourceArticles, 1)
	read()
	require.Contains(t, string(c.steps[0]), `"source":`, "the first read slices the response")
	put("one", f.article, edit, 2)
	read()
	c.table.Reset()
	f.ids.Reset()
	c.reset = true
	read()
	return c
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
