//go:build js && wasm

package jsbridge

import (
	_ "embed"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// protocolJS is the JavaScript module that names the numbers, other than
// read ops, that both sides of the bridge agree on.
//
//go:embed js/internal/protocol.mjs
var protocolJS string

// TestProtocolConstantsMatchGo checks every number protocol.mjs exports
// against the Go side that reads or writes it: a number changed on one side
// only would, say, turn a declined call into a done one, or a Response into
// an error. A constant JavaScript adds without a Go counterpart fails too.
func TestProtocolConstantsMatchGo(t *testing.T) {
	goSide := map[string]int{
		"EXPORT_DONE":     done,
		"EXPORT_DECLINED": declined,
		"EXPORT_FAILED":   failed,

		"BODY_NONE": bodyNone,
		"BODY_JSON": bodyJSON,
		"BODY_RAW":  bodyRaw,

		// Go reads these two by shape: any negative handle is no schema
		// (schemaFromHandle), and a member of three elements is a default
		// (buildObject).
		"SCHEMA_NONE":    -1,
		"MEMBER_DEFAULT": 0,

		"WAKE_OK":           wakeOK,
		"WAKE_THROWN":       wakeThrown,
		"WAKE_NOT_RESPONSE": wakeNotResponse,

		"START_FETCH":          startFetch,
		"START_SUSPENSE":       startSuspense,
		"START_FETCH_IF_STALE": startFetchIfStale,

		"SYNC_APPLIED":         syncApplied,
		"SYNC_UNKNOWN_VERSION": syncUnknownVersion,
	}
	re := regexp.MustCompile(`(?m)^export const ([A-Z][A-Z0-9_]*) = (-?[0-9]+);$`)
	js := map[string]int{}
	for _, m := range re.FindAllStringSubmatch(protocolJS, -1) {
		n, err := strconv.Atoi(m[2])
		require.NoError(t, err, "js/internal/protocol.mjs: %s", m[1])
		js[m[1]] = n
	}
	assert.Equal(t, goSide, js, "js/internal/protocol.mjs against Go")
}
