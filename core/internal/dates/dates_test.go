package dates

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The oracle: what time.Parse gives with the layouts each function follows.
var (
	isoLayouts  = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04", "2006-01-02"}
	httpLayouts = []string{"Mon, 02 Jan 2006 15:04:05 GMT", "Monday, 02-Jan-06 15:04:05 GMT", "Mon Jan _2 15:04:05 2006"}
)

func oracle(layouts []string, s string) (int64, bool) {
	// time.Parse reads the two-digit year "06" with strconv-like atoi, so it
	// takes a sign ("06-Nov-+0" is 2000, "06-Nov--1" is 1999). An HTTP date's
	// year is two digits; HTTP refuses a sign and so does the oracle.
	if strings.Contains(s, "-+") || strings.Contains(s, "--") {
		return 0, false
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UnixMilli(), true
		}
	}
	return 0, false
}

var isoCases = []string{
	"2024-03-01", "2024-03-01T09:00", "2024-03-01T09:00:05", "2024-03-01T09:00:05Z",
	"2024-03-01T09:00:05.1Z", "2024-03-01T09:00:05.12Z", "2024-03-01T09:00:05.123Z",
	"2024-03-01T09:00:05.123456789Z", "2024-03-01T09:00:05.1234567891234Z", "2024-03-01T09:00:05,5Z",
	"2024-03-01T09:00:05+02:00", "2024-03-01T09:00:05-07:30", "2024-03-01T09:00:05.999-00:00",
	"2024-02-29", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-01-00",
	"2024-03-01T24:00:00Z", "2024-03-01T23:60:00Z", "2024-03-01T23:59:60Z", "2024-03-01T23:59:59+24:00",
	"2024-03-01T23:59:59+23:59", "2024-03-01T23:59:59+01:60", "0001-01-01", "9999-12-31T23:59:59.999Z",
	"1969-12-31T23:59:59.999Z", "1600-02-29", "1700-02-29", "2000-02-29", "2024-3-01", "24-03-01",
	"2024-03-01T9:00", "2024-03-01 09:00", "2024-03-01t09:00:00z", "2024-03-01T09:00:05.", "2024-03-01T09:00:05.Z",
	"2024-03-01T09:00:05Z ", " 2024-03-01", "", "2024-03-01T", "2024-03-01T09", "2024-03-01T09:00:0",
	"2024-03-01T09:00:05+0200", "2024-03-01T09:00:05+02", "+2024-03-01", "2024-03-01T09:00:05.5",
	"２０２４-03-01", "2024-03-01T09:00:05.123+05:45",
}

var httpCases = []string{
	"Sun, 06 Nov 1994 08:49:37 GMT", "sun, 06 nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
	"Sunday, 06-Nov-68 08:49:37 GMT", "Sunday, 06-Nov-69 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
	"Sun Nov 6 08:49:37 1994", "Sun Nov 16 08:49:37 1994", "Mon, 06 Nov 1994 08:49:37 GMT",
	"Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Feb 1994 08:49:37 GMT",
	"Sun, 06 Nov 1994 24:49:37 GMT", "Sun 06 Nov 1994 08:49:37 GMT", "SUNDAY, 06-NOV-94 08:49:37 GMT",
	"Sun, 06 Xyz 1994 08:49:37 GMT", "Sun Nov  6 08:49:37 94", "", "120", "Sun, 06 Nov 1994 08:49:37 GMT ",
	"Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov   6 08:49:37 1994",
	"Sunday, 06-Nov-+4 08:49:37 GMT", "Sunday, 06-Nov--1 08:49:37 GMT",
}

func TestParsersAreTimeParse(t *testing.T) {
	for _, c := range []struct {
		name    string
		parse   func(string) (int64, bool)
		layouts []string
		cases   []string
	}{
		{"ISO", ISO, isoLayouts, isoCases},
		{"HTTP", HTTP, httpLayouts, httpCases},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, s := range c.cases {
				want, wantOK := oracle(c.layouts, s)
				got, ok := c.parse(s)
				assert.Equal(t, wantOK, ok, "%q", s)
				if wantOK && ok {
					assert.Equal(t, want, got, "%q", s)
				}
			}
		})
	}
}

func FuzzISO(f *testing.F)  { fuzzParser(f, ISO, isoLayouts, isoCases) }
func FuzzHTTP(f *testing.F) { fuzzParser(f, HTTP, httpLayouts, httpCases) }

// fuzzParser holds parse to time.Parse with layouts on any string.
func fuzzParser(f *testing.F, parse func(string) (int64, bool), layouts, seeds []string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, wantOK := oracle(layouts, s)
		got, ok := parse(s)
		if ok != wantOK || ok && got != want {
			t.Fatalf("parse(%q) = %d, %v; time.Parse: %d, %v", s, got, ok, want, wantOK)
		}
	})
}
