package ui

import (
	"fmt"
	"time"

	"github.com/datafetch/datafetch/core/value"
)

// countText says how many items a list holds, as "24 articles"; "" while
// the list is not loaded.
func countText(list value.Value, noun string) string {
	if list.Kind() != value.Array {
		return ""
	}
	if list.Len() == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", list.Len(), noun)
}

// timeOf returns a date field, stored as epoch milliseconds, as a time.
func timeOf(v value.Value) time.Time {
	return time.UnixMilli(msOf(v)).UTC()
}

// dateText formats a date field as "Mar 1, 2024".
func dateText(v value.Value) string {
	return timeOf(v).Format("Jan 2, 2006")
}

// clockText formats a date field as a time of day with milliseconds.
func clockText(v value.Value) string {
	return timeOf(v).Local().Format("15:04:05.000")
}
