package encode

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/wire"
)

// An output JavaScript has not decoded yet keeps its bytes while other
// outputs are written from the shared scratch, by the same table or
// another, and after its buffer is put back, the next output reuses it.
func TestScratchOutputsAreNotShared(t *testing.T) {
	one, two := NewIdentities(), NewIdentities()
	a := one.Output(TakeOutput(), wire.Header{}, "k", nil, value.MustParse(`{"a":"first","n":[1,2,3]}`))
	want := bytes.Clone(a)
	for i, v := range []string{`{"b":"second, a longer string than the first"}`, `["third"]`, `"fourth"`} {
		out := two.Output(TakeOutput(), wire.Header{}, "k", nil, value.MustParse(v))
		require.Equal(t, want, a, "after output %d", i)
		o, err := wire.Decode(out, &wire.Table{})
		require.NoError(t, err)
		require.NoError(t, wire.Match(o.Value, value.MustParse(v)))
		PutOutput(out)
	}
	for b := TakeOutput(); b != nil; b = TakeOutput() {
	}
	PutOutput(a)
	b := TakeOutput()
	assert.Zero(t, len(b))
	assert.Same(t, &a[0], &b[:1][0], "a buffer put back is reused")
	PutOutput(b)
}

// A buffer larger than maxKeptBuffer is let go rather than kept, so one
// huge read does not pin its size for good.
func TestScratchKeepsNoHugeBuffer(t *testing.T) {
	for b := TakeOutput(); b != nil; b = TakeOutput() {
	}
	PutOutput(make([]byte, 10, maxKeptBuffer+1))
	assert.Nil(t, TakeOutput())
	PutOutput(make([]byte, 10, 100))
	b := TakeOutput()
	assert.Equal(t, 0, len(b))
	assert.Equal(t, 100, cap(b))
}
