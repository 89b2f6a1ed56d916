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

var update = flag.Bool("update", false, "rewrite the files generated from the call table (go generate ./jsbridge) instead of checking them")

// TestGeneratedCalls checks that the files generated from the call table
// and the protocol numbers (calls_gen.go, internal/calls.mjs,
// internal/protocol.mjs, CALLS.md) are what the table makes now: an entry
// renamed or a number changed on one side only would break the bridge at
// run time. With -update (go generate ./jsbridge) it writes them.
func TestGeneratedCalls(t *testing.T) {
	for path, want := range generatedFiles() {
		if *update {
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
// entry a module calls through the stubs (calls.name) is in callSpecs and
// gets no more arguments than the table names (a stub would drop the rest),
// and no module but the generated one calls an entry by its name
// (call('x'), callAsync('x'), go.x or go['x']), which would bypass the
// table.
func TestJSCallsAreInTheTable(t *testing.T) {
	// this.calls is another table (transport.mjs's calls in flight), /calls.mjs an import.
	byStub := regexp.MustCompile(`(this\.|/)?\bcalls\.([A-Za-z_$][\w$]*)(\s*\()?`)
	arity := map[string]int{}
	var known []string
	for _, c := range callSpecs {
		known = append(known, c.name)
		arity[c.name] = len(c.args)
	}
	byName := regexp.MustCompile(`\b(?:call|callAsync)\(\s*['"]|\bgo\s*\[\s*['"]|\bgo\.(?:` + strings.Join(known, "|") + `)\b`)
	var modules, uses int
	err := fs.WalkDir(os.DirFS("js"), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".mjs") || path == "internal/calls.mjs" {
			return err
		}
		modules++
		raw, err := os.ReadFile("js/" + path)
		if err != nil {
			return err
		}
		src := withoutComments(string(raw))
		line := func(at int) int { return strings.Count(src[:at], "\n") + 1 }
		for _, m := range byStub.FindAllStringSubmatchIndex(src, -1) {
			if m[2] >= 0 {
				continue
			}
			uses++
			name := src[m[4]:m[5]]
			if !assert.True(t, slices.Contains(known, name), "js/%s:%d calls %s, which the bridge's table (calls.go) lacks", path, line(m[0]), name) {
				continue
			}
			if m[6] >= 0 {
				if n, spread := argCount(src, m[7]); !spread {
					assert.LessOrEqual(t, n, arity[name], "js/%s:%d passes %s %d arguments; the table (calls.go) names %d", path, line(m[0]), name, n, arity[name])
				}
			}
		}
		for _, m := range byName.FindAllStringIndex(src, -1) {
			assert.Fail(t, "a Go entry called by name", "js/%s:%d: %q; call it through calls.mjs's stubs", path, line(m[0]), src[m[0]:m[1]])
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, modules, 5, "modules checked under js/")
	assert.Greater(t, uses, len(callSpecs)/2, "stub calls found under js/")
}

// withoutComments returns JavaScript source with its comments blanked
// (newlines kept, for line numbers), strings and template literals skipped.
// Regular expression literals are not recognized; the modules checked have
// none in a call of a stub.
func withoutComments(src string) string {
	b := []byte(src)
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\'' || c == '"' || c == '`':
			i = skipString(b, i)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			for ; i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/'); i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			if i+1 < len(b) {
				b[i], b[i+1] = ' ', ' '
				i++
			}
		}
	}
	return string(b)
}

// skipString returns the index of the quote that closes the string opened
// at b[i].
func skipString(b []byte, i int) int {
	q := b[i]
	for i++; i < len(b) && b[i] != q; i++ {
		if b[i] == '\\' {
			i++
		}
	}
	return i
}

// argCount counts the arguments of the call whose parenthesis opens at
// src[open-1]: the commas at its top level, plus one unless it is empty.
// spread is true when an argument is spread (...args): the count is then
// unknown.
func argCount(src string, open int) (n int, spread bool) {
	b := []byte(src)
	depth, some := 0, false
	for i := open; i < len(b); i++ {
		switch c := b[i]; c {
		case '\'', '"', '`':
			i = skipString(b, i)
			some = true
		case '(', '[', '{':
			depth++
			some = true
		case ')', ']', '}':
			if depth == 0 {
				if some {
					n++
				}
				return n, spread
			}
			depth--
		case ',':
			if depth == 0 {
				n++
				some = false
				// A trailing comma adds no argument.
				rest := strings.TrimLeft(src[i+1:], " \t\r\n")
				if strings.HasPrefix(rest, ")") {
					return n, spread
				}
			}
		case '.':
			if depth == 0 && strings.HasPrefix(src[i:], "...") {
				spread = true
			}
			some = true
		case ' ', '\t', '\r', '\n':
		default:
			some = true
		}
	}
	return n, spread
}
