// Package static holds the demo's stylesheet and icons, embedded in the
// demo server so that it needs no files besides the app.wasm it serves.
package static

import "embed"

// FS holds style.css, icon.svg and icon.png at its root.
//
//go:embed style.css icon.svg icon.png
var FS embed.FS
