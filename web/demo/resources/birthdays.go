package resources

import (
	"time"

	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/rest"
)

// Birthday is a contact's date of birth.
type Birthday struct {
	ID     string    `df:"id,pk"`
	Name   string    `df:"name"`
	Image  string    `df:"image"`
	Source string    `df:"source"`
	Date   time.Time `df:"date"`
}

// UpcomingBirthdays is the body of GET /api/birthdays/upcoming/.
type UpcomingBirthdays struct {
	WithinSevenDays  []*Birthday `df:"withinSevenDays"`
	WithinThirtyDays []*Birthday `df:"withinThirtyDays"`
}

// Birthdays holds GET /api/birthdays/upcoming/: {withinSevenDays,
// withinThirtyDays}, two lists of Birthday.
type Birthdays struct {
	// Upcoming reads the birthdays of the next 30 days; no params.
	Upcoming *df.Endpoint[*UpcomingBirthdays]
}

func newBirthdays(prefix string) (*Birthdays, error) {
	up, err := typed[*UpcomingBirthdays](rest.Options{URLPrefix: prefix, Path: "/api/birthdays/upcoming/", Name: "upcomingBirthdays"})
	if err != nil {
		return nil, err
	}
	return &Birthdays{Upcoming: up}, nil
}
