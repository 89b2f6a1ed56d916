package schema

import (
	"math"
	"strconv"
	"time"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Times in epoch milliseconds (Meta's, a result's, a clock's) enter the
// cache from outside as float64s: JSON numbers in a snapshot or a sync
// message, JavaScript numbers from a clock. Every such conversion goes
// through Millis or ClockMillis, which refuse what is out of range, rather
// than through int64(f): a time near or beyond the range of int64 would
// saturate or wrap there, and the stamps that order responses (one past the
// last one, strictly increasing) would overflow after it, so that a
// record taken at such a time could never again be replaced by a fetch.

// MaxTime is the largest time, in epoch ms, that the store takes from
// outside, and -MaxTime the smallest: 2^53 − 1, the largest integer a
// float64 (a JavaScript number) holds exactly. It is beyond any clock's
// reading (MaxClock) plus any expiry length (a time.Duration, under 300
// years), and far enough below the range of int64 that the arithmetic on
// times cannot overflow.
const MaxTime = 1<<53 - 1

// MaxClock bounds what a clock may read, in epoch ms: ±8.64e15, the range
// of a JavaScript Date (the year 275760 either way).
const MaxClock = 8.64e15

// Millis converts a time in epoch ms read from JSON or JavaScript to the
// int64 the store keeps, rounded down. A value that is not finite or is
// beyond ±MaxTime is an error that shows it.
func Millis(ms float64) (int64, error) { return millisWithin(ms, "", MaxTime) }

// MillisOf is Millis for a JSON number, whose error shows the number as it
// is written. v must be a Number.
func MillisOf(v value.Value) (int64, error) {
	f, _ := v.Float()
	return millisWithin(f, v.Raw(), MaxTime)
}

// ClockMillis is Millis for a clock's reading, which must be within
// ±MaxClock.
func ClockMillis(ms float64) (int64, error) { return millisWithin(ms, "", MaxClock) }

// millisWithin is Millis with the bound limit; text, when set, is how ms
// was written.
func millisWithin(ms float64, text string, limit float64) (int64, error) {
	if !(math.Abs(ms) <= limit) { // NaN fails too
		if text == "" {
			text = strconv.FormatFloat(ms, 'g', -1, 64)
		}
		return 0, fmtlite.Errorf("%s is out of range (a time is epoch milliseconds within ±%s)",
			text, strconv.FormatFloat(limit, 'f', -1, 64))
	}
	return int64(math.Floor(ms)), nil
}

// ClockTime returns a clock's reading t in epoch ms, clamped to ±MaxClock:
// beyond it, t.UnixMilli would be far from what the store can order (or
// undefined, past int64), and a clock has no caller to refuse it to.
func ClockTime(t time.Time) int64 {
	switch {
	case t.After(maxClockTime):
		return MaxClock
	case t.Before(minClockTime):
		return -MaxClock
	}
	return t.UnixMilli()
}

var (
	maxClockTime = time.UnixMilli(MaxClock)
	minClockTime = time.UnixMilli(-MaxClock)
)
