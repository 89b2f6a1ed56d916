package encode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// classOf returns the class the reference decoder gave the object at path
// (member keys and element indices) in n.
func classOf(t *testing.T, n *wire.Node, path ...any) uint64 {
	t.Helper()
	for _, p := range path {
		switch p := p.(type) {
		case string:
			n = n.Get(p)
		case int:
			n = n.Elems[p]
		}
		require.NotNil(t, n, "path %v", path)
	}
	return n.Class
}

func TestEncodeMarksEntityClasses(t *testing.T) {
	f := newFixture()
	SetEntityClass(f.article, 3)
	SetEntityClass(f.user, 4)
	t.Cleanup(func() {
		SetEntityClass(f.article, 0)
		SetEntityClass(f.user, 0)
	})
	f.store(t, "list", f.list, twoArticles, 1)
	_, out := f.read(t, "list", f.list)
	root := out.Value

	assert.Equal(t, uint64(0), root.Class, "the list is no instance")
	assert.Equal(t, uint64(3), classOf(t, root, 0))
	assert.Equal(t, uint64(3), classOf(t, root, 1))
	assert.Equal(t, uint64(4), classOf(t, root, 0, "author"))
	assert.Equal(t, 3, out.Counts[wire.OpClass], "two articles and one author (the second is a ref)")

	// One article changed: written over the object JavaScript holds, whose
	// class it keeps without a CLASS op of its own.
	f.store(t, "list", f.list, `[
		{"id":"1","title":"one","author":{"id":7,"name":"Ann"},"createdAt":"2024-01-02T03:04:05Z"},
		{"id":"2","title":"TWO","author":{"id":7,"name":"Ann"},"createdAt":1700000000000}
	]`, 2)
	_, out = f.read(t, "list", f.list)
	require.Equal(t, 1, out.Counts[wire.OpOver], "%s", out)
	assert.Equal(t, uint64(3), classOf(t, out.Value, 1))
	assert.Equal(t, 0, out.Counts[wire.OpClass])
}

func TestEncodePlainEntitiesHaveNoClass(t *testing.T) {
	f := newFixture()
	f.store(t, "list", f.list, twoArticles, 1)
	_, out := f.read(t, "list", f.list)
	assert.Equal(t, 0, out.Counts[wire.OpClass])
	assert.Equal(t, uint64(0), classOf(t, out.Value, 0))
}

func TestDecodeClassFaults(t *testing.T) {
	tests := []struct {
		name string
		ops  []byte
		want string
	}{
		{"class 0", []byte{byte(wire.OpClass), 0, byte(wire.OpObject), 0}, "CLASS 0"},
		{"class of a number", []byte{byte(wire.OpClass), 1, byte(wire.OpInt), 2}, "not an object"},
		{"class at the end", []byte{byte(wire.OpClass), 1}, "not an object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := append(make([]byte, wire.HeaderSize), tc.ops...)
			out[0] = wire.Version
			_, err := wire.Decode(out, &wire.Table{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestEncodeMarksConversions(t *testing.T) {
	f := newFixture()
	f.user.Schema = map[string]schema.Schema{"name": schema.ScalarOf(5)}
	f.store(t, "list", f.list, `[
		{"id":"1","title":"one","author":{"id":7,"name":"Ann"}},
		{"id":"2","title":"two","author":{"id":8,"name":null}}
	]`, 1)
	_, out := f.read(t, "list", f.list)
	assert.Equal(t, 1, out.Counts[wire.OpConvert], "a null is not converted: %s", out)
	assert.Equal(t, uint64(5), out.Value.Elems[0].Get("author").Get("name").Convert)
	assert.Equal(t, uint64(0), out.Value.Elems[1].Get("author").Get("name").Convert)
}
