package ui

import (
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// avatar shows a person's initials on a colour picked from their name.
func avatar(name string) app.UI {
	var initials string
	for _, w := range strings.Fields(name) {
		r := []rune(w)
		initials += string(r[0])
		if len([]rune(initials)) == 2 {
			break
		}
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	hue := h.Sum32() % 360
	return app.Span().Class("avatar").Aria("hidden", true).
		Style("background", "hsl("+strconv.Itoa(int(hue))+" 55% 88%)").
		Style("color", "hsl("+strconv.Itoa(int(hue))+" 45% 30%)").
		Text(initials)
}
