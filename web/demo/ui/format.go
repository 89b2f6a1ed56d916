package ui

import (
	"fmt"
	"time"
)

// countText says how many items a list holds, as "24 articles"; "" while
// the list is not loaded (has false).
func countText(has bool, n int, noun string) string {
	if !has {
		return ""
	}
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// dateText formats a date as "Mar 1, 2024".
func dateText(t time.Time) string {
	return t.UTC().Format("Jan 2, 2006")
}

// clockText formats a time as a time of day with milliseconds.
func clockText(t time.Time) string {
	return t.Local().Format("15:04:05.000")
}
