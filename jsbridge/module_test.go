//go:build js && wasm

package jsbridge

import (
	"embed"
	"fmt"
	"path"
	"regexp"
)

// moduleFiles is datafetch.mjs with the modules it imports, for the tests
// to load into the page (see api).
//
//go:embed js/datafetch.mjs js/internal/*.mjs js/internal/inspect/*.mjs
var moduleFiles embed.FS

// relativeImport matches a static import or re-export statement (at the
// start of a line, so not one quoted in a comment) of a module beside (./)
// or above (../) the importing one; group 2 is the specifier.
var relativeImport = regexp.MustCompile(`(?m)(^(?:import|export)\b[^;]*?\bfrom\s+)'(\.\.?/[^']+\.mjs)'`)

// supportImport matches load.mjs's import of the Go toolchain's support
// file, which is not among moduleFiles: the page that runs these tests has
// evaluated it already (it started this program), so it is dropped.
var supportImport = regexp.MustCompile(`(?m)^import '\.\./wasm_exec\.js';$`)

// moduleURL returns a blob: URL of the module name in moduleFiles. A blob:
// module cannot import by a relative URL, so each relative import in it is
// rewritten to the blob: URL of the module it names, made first; made
// holds the URLs made so far, by name (an empty one: being made, so an
// import cycle is an error rather than a loop).
func moduleURL(name string, made map[string]string) (string, error) {
	if u, ok := made[name]; ok {
		if u == "" {
			return "", fmt.Errorf("module %s: import cycle", name)
		}
		return u, nil
	}
	made[name] = ""
	src, err := moduleFiles.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("module %s: %w", name, err)
	}
	var depErr error
	out := supportImport.ReplaceAllString(string(src), "")
	out = relativeImport.ReplaceAllStringFunc(out, func(m string) string {
		sub := relativeImport.FindStringSubmatch(m)
		u, err := moduleURL(path.Join(path.Dir(name), sub[2]), made)
		if err != nil {
			if depErr == nil {
				depErr = fmt.Errorf("module %s: %w", name, err)
			}
			return m
		}
		return sub[1] + "'" + u + "'"
	})
	if depErr != nil {
		return "", depErr
	}
	blob, err := mustGet(global, "Blob").New([]any{out}, map[string]any{"type": "text/javascript"})
	if err != nil {
		return "", fmt.Errorf("module %s: Blob: %w", name, err)
	}
	url, err := mustGet(global, "URL").Call("createObjectURL", blob)
	if err != nil {
		return "", fmt.Errorf("module %s: createObjectURL: %w", name, err)
	}
	u, err := url.String()
	if err != nil {
		return "", fmt.Errorf("module %s: createObjectURL: %w", name, err)
	}
	made[name] = u
	return u, nil
}
