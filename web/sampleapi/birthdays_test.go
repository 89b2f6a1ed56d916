package sampleapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/web/sampleapi"
)

func names(bs []sampleapi.Birthday) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Name
	}
	return out
}

// TestUpcomingBirthdays checks the upcoming lists at several clocks,
// including across a year end and on a leap day.
func TestUpcomingBirthdays(t *testing.T) {
	for _, now := range []time.Time{
		apitest.FixedNow,
		time.Date(2025, time.December, 28, 23, 59, 0, 0, time.UTC),
		time.Date(2024, time.February, 29, 0, 0, 0, 0, time.UTC),
		time.Date(2027, time.January, 1, 12, 0, 0, 0, time.UTC),
	} {
		t.Run(now.Format(time.DateOnly), func(t *testing.T) {
			f := newFixture(t, sampleapi.Options{Now: func() time.Time { return now }})
			r := f.Do(http.MethodGet, "/api/birthdays/upcoming/", nil)
			require.Equal(t, http.StatusOK, r.Status)
			u := apitest.Decode[sampleapi.UpcomingBirthdays](t, r)
			assert.Equal(t, []string{"Marta Ruiz", "Kwame Asante", "Lena Fischer", "Oskar Nilsen"}, names(u.WithinSevenDays))
			assert.Equal(t, []string{"Priya Raman", "Tomás Silva", "Yuki Aoki", "Zanele Dlamini"}, names(u.WithinThirtyDays))
		})
	}
}

func TestBirthdayRecords(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	bs := apitest.Decode[[]sampleapi.Birthday](t, f.Do(http.MethodGet, "/api/birthdays/", nil))
	require.Len(t, bs, 12)
	for _, b := range bs {
		born, err := time.Parse(time.RFC3339, b.Date)
		require.NoError(t, err, "date %q is ISO 8601", b.Date)
		assert.True(t, born.Before(apitest.FixedNow))
		assert.NotEmpty(t, b.Image)
		assert.NotEmpty(t, b.Source)
	}
	// Marta's birthday is today in the seed.
	assert.Equal(t, "06-10", bs[0].Date[5:10])
}
