//go:build !js

package jsbridge

import (
	"flag"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeneratedCalls checks that the files generated from the call table
// and the protocol numbers (calls_gen.go, internal/calls.mjs,
// internal/protocol.mjs, CALLS.md) are what the table makes now: an entry
// renamed or a number changed on one side only would break the bridge at
// run time. With -update (go generate ./jsbridge) it writes them.
func TestGeneratedCalls(t *testing.T) {
	update := flag.Lookup("update").Value.(flag.Getter).Get().(bool)
	for path, want := range generatedFiles() {
		if update {
			require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, want, string(got), "%s is not current: run go generate ./jsbridge", path)
	}
}

// TestCallTable checks the table itself: names unique, every argument
// named, a doc for each.
func TestCallTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range callSpecs {
		assert.False(t, seen[c.name], "entry %s twice", c.name)
		seen[c.name] = true
		assert.Regexp(t, `^[a-z][A-Za-z]*$`, c.name)
		assert.NotEmpty(t, c.doc, "entry %s has no doc", c.name)
		for _, a := range c.args {
			assert.Regexp(t, `^[a-z][A-Za-z]*$`, a.name, "entry %s", c.name)
		}
	}
	names := map[string]bool{}
	for _, p := range protocolConsts {
		assert.False(t, names[p.name], "constant %s twice", p.name)
		names[p.name] = true
	}
}

// TestJSCallsAreInTheTable checks the JavaScript side of the table: every
// entry a module calls through the stubs (calls.name) is in callSpecs, and
// no module but the generated one calls an entry by its name (call('x'),
// callAsync('x'), go.x or go['x']), which would bypass the table.
func TestJSCallsAreInTheTable(t *testing.T) {
	// this.calls is another table (transport.mjs's calls in flight), /calls.mjs an import.
	byStub := regexp.MustCompile(`(this\.|/)?\bcalls\.([A-Za-z_$][\w$]*)`)
	var known []string
	for _, c := range callSpecs {
		known = append(known, c.name)
	}
	byName := regexp.MustCompile(`\b(?:call|callAsync)\(\s*['"]|\bgo\s*\[\s*['"]|\bgo\.(?:` + strings.Join(known, "|") + `)\b`)
	var modules, uses int
	err := fs.WalkDir(os.DirFS("js"), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".mjs") || path == "internal/calls.mjs" {
			return err
		}
		modules++
		src, err := os.ReadFile("js/" + path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			for _, m := range byStub.FindAllStringSubmatch(line, -1) {
				if m[1] != "" {
					continue
				}
				uses++
				assert.True(t, slices.Contains(known, m[2]), "js/%s:%d calls %s, which the bridge's table (calls.go) lacks", path, i+1, m[2])
			}
			assert.Empty(t, byName.FindAllString(line, -1), "js/%s:%d calls a Go entry by name; call it through calls.mjs's stubs", path, i+1)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, modules, 5, "modules checked under js/")
	assert.Greater(t, uses, len(callSpecs)/2, "stub calls found under js/")
}
