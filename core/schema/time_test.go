package schema_test

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// TestMillis: times within ±MaxTime are taken, rounded down; beyond it,
// and for NaN and the infinities, an error shows the value and the range.
func TestMillis(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want int64
		err  string
	}{
		{0, 0, ""},
		{1_700_000_000_000.7, 1_700_000_000_000, ""},
		{-1.5, -2, ""},
		{schema.MaxTime, schema.MaxTime, ""},
		{-schema.MaxTime, -schema.MaxTime, ""},
		{schema.MaxTime + 1, 0, "9.007199254740992e+15 is out of range (a time is epoch milliseconds within ±9007199254740991)"},
		{1e300, 0, "1e+300 is out of range (a time is epoch milliseconds within ±9007199254740991)"},
		{-9.3e18, 0, "-9.3e+18 is out of range (a time is epoch milliseconds within ±9007199254740991)"},
		{math.NaN(), 0, "NaN is out of range (a time is epoch milliseconds within ±9007199254740991)"},
		{math.Inf(1), 0, "+Inf is out of range (a time is epoch milliseconds within ±9007199254740991)"},
	} {
		got, err := schema.Millis(tc.in)
		if tc.err != "" {
			assert.EqualError(t, err, tc.err, "%v", tc.in)
			continue
		}
		assert.NoError(t, err, "%v", tc.in)
		assert.Equal(t, tc.want, got, "%v", tc.in)
	}

	_, err := schema.MillisOf(value.MustParse(`1e300`))
	assert.EqualError(t, err, "1e300 is out of range (a time is epoch milliseconds within ±9007199254740991)", "shown as written")

	ms, err := schema.ClockMillis(8.64e15)
	assert.NoError(t, err)
	assert.Equal(t, int64(8.64e15), ms)
	_, err = schema.ClockMillis(8.64e15 + 1)
	assert.EqualError(t, err, "8.640000000000001e+15 is out of range (a time is epoch milliseconds within ±8640000000000000)")
}

// TestClockTime: a reading within ±MaxClock is its epoch ms; beyond, the
// bound, also where UnixMilli would overflow int64.
func TestClockTime(t *testing.T) {
	assert.Equal(t, int64(1_700_000_000_123), schema.ClockTime(time.UnixMilli(1_700_000_000_123)))
	assert.Equal(t, int64(schema.MaxClock), schema.ClockTime(time.UnixMilli(schema.MaxClock)))
	assert.Equal(t, int64(schema.MaxClock), schema.ClockTime(time.UnixMilli(schema.MaxClock+1)))
	assert.Equal(t, int64(schema.MaxClock), schema.ClockTime(time.Unix(1<<62, 0)))
	assert.Equal(t, int64(-schema.MaxClock), schema.ClockTime(time.Unix(-1<<62, 0)))
}
