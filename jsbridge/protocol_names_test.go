package jsbridge

import (
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpCodesAreDefinedOnce checks that no JavaScript module but the one
// generated from package wire (internal/wireops.mjs, which
// wire.TestGeneratedJS keeps current) defines a read op's number: a copy
// elsewhere could drift from Go's.
func TestOpCodesAreDefinedOnce(t *testing.T) {
	opConst := regexp.MustCompile(`(?m)^\s*(?:export\s+)?const\s+OP_[A-Z0-9_]*\s*=`)
	var checked int
	err := fs.WalkDir(os.DirFS("js"), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".mjs") {
			return err
		}
		checked++
		src, err := os.ReadFile("js/" + path)
		if err != nil {
			return err
		}
		if path != "internal/wireops.mjs" {
			assert.Empty(t, opConst.FindAllString(string(src), -1), "js/%s defines op codes; they belong in the generated internal/wireops.mjs", path)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, checked, 5, "modules checked under js/")
}
