package wire

import (
	"flag"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite generated files (wireops.mjs, testdata/corpus) instead of checking them")

// jsOpsPath is the generated JavaScript table, from this package's folder.
const jsOpsPath = "../js/internal/wireops.mjs"

// TestGeneratedJS checks that internal/wireops.mjs is what JSModule
// generates from the constants here: an op renumbered in Go only would
// decode every read wrongly. With -update (go generate) it writes it.
func TestGeneratedJS(t *testing.T) {
	want := JSModule()
	if *update {
		require.NoError(t, os.WriteFile(jsOpsPath, []byte(want), 0o644))
	}
	got, err := os.ReadFile(jsOpsPath)
	require.NoError(t, err)
	assert.Equal(t, want, string(got), "%s is not current: run go generate ./jsbridge/wire", jsOpsPath)
}
