package jsbridge

import (
	_ "embed"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// protocolJS is the JavaScript module that names the numbers both sides of
// the bridge agree on.
//
//go:embed js/internal/protocol.mjs
var protocolJS string

// jsConstants returns the `export const NAME = <integer>;` declarations of
// a JavaScript module, by name.
func jsConstants(t *testing.T, src string) map[string]int {
	t.Helper()
	re := regexp.MustCompile(`(?m)^export const ([A-Z][A-Z0-9_]*) = (-?[0-9]+);$`)
	out := map[string]int{}
	for _, m := range re.FindAllStringSubmatch(src, -1) {
		n, err := strconv.Atoi(m[2])
		require.NoError(t, err, "js/internal/protocol.mjs: %s", m[1])
		out[m[1]] = n
	}
	return out
}

// TestReadProtocolOpsMatchJS checks that the op kinds decode applies (named
// in js/internal/protocol.mjs) are the ones the encoder writes: a kind
// renumbered on one side only would decode reads wrongly.
func TestReadProtocolOpsMatchJS(t *testing.T) {
	goOps := map[string]int{
		"OP_REGISTER": opRegister,
		"OP_REF":      opRef,
		"OP_DATE":     opDate,
		"OP_KEPT":     opKept,
		"OP_OVER":     opOver,
	}
	js := jsConstants(t, protocolJS)
	for name, want := range goOps {
		got, ok := js[name]
		if assert.True(t, ok, "js/internal/protocol.mjs does not export %s", name) {
			assert.Equal(t, want, got, "js/internal/protocol.mjs: %s", name)
		}
	}
	// Every op JavaScript names is one Go writes.
	for name := range js {
		if regexp.MustCompile(`^OP_`).MatchString(name) {
			_, ok := goOps[name]
			assert.True(t, ok, "js/internal/protocol.mjs exports %s, which Go does not write", name)
		}
	}
}
