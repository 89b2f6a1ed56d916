package resources

import (
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Birthday is a contact's date of birth.
var Birthday = &schema.Entity{
	Key:      "Birthday",
	Defaults: value.MustParse(`{"id":null,"name":"","image":"","source":"","date":null}`),
	Schema:   map[string]schema.Schema{"date": schema.Date},
}

// Birthdays holds GET /api/birthdays/upcoming/: {withinSevenDays,
// withinThirtyDays}, two lists of Birthday.
type Birthdays struct {
	// Upcoming reads the birthdays of the next 30 days; no params.
	Upcoming *rest.Endpoint
}

func newBirthdays(prefix string) (*Birthdays, error) {
	up, err := rest.New(rest.Options{
		URLPrefix: prefix,
		Path:      "/api/birthdays/upcoming/",
		Name:      "upcomingBirthdays",
		Schema: schema.ObjectOf(
			schema.Nested("withinSevenDays", schema.ArrayOf(Birthday)),
			schema.Nested("withinThirtyDays", schema.ArrayOf(Birthday)),
		),
	})
	if err != nil {
		return nil, err
	}
	return &Birthdays{Upcoming: up}, nil
}
