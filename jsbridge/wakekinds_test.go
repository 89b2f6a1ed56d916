package jsbridge

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWakeKindsMatchJS checks that the kinds internal/transport.mjs reports
// a wait's outcome with (named in js/internal/protocol.mjs) are the ones
// exportWake reads: a kind renumbered on one side only would turn a
// Response into an error or the reverse.
func TestWakeKindsMatchJS(t *testing.T) {
	goKinds := map[string]int{
		"WAKE_OK":           wakeOK,
		"WAKE_THROWN":       wakeThrown,
		"WAKE_NOT_RESPONSE": wakeNotResponse,

		"START_FETCH":          startFetch,
		"START_SUSPENSE":       startSuspense,
		"START_FETCH_IF_STALE": startFetchIfStale,
	}
	js := jsConstants(t, protocolJS)
	for name, want := range goKinds {
		got, ok := js[name]
		if assert.True(t, ok, "js/internal/protocol.mjs does not export %s", name) {
			assert.Equal(t, want, got, "js/internal/protocol.mjs: %s", name)
		}
	}
	for name := range js {
		if regexp.MustCompile(`^(WAKE|START)_`).MatchString(name) {
			_, ok := goKinds[name]
			assert.True(t, ok, "js/internal/protocol.mjs exports %s, which Go does not read", name)
		}
	}
}
