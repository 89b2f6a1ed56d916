package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/datafetch/datafetch/web/goapp"
)

// inspector is the demo's cache inspector: goapp.Inspector on the demo's
// controller, with result keys shown relative to the demo's API, as the
// side panel or, full (every record), as the Cache page. Its id is the one
// the end-to-end tests look for.
func (d *Demo) inspector(full bool) app.UI {
	return &goapp.Inspector{Ctrl: d.ctrl, Prefix: d.api.Prefix, ID: "inspector", Full: full}
}
