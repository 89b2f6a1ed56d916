package sampleapi

import (
	"net/http"
	"sort"
	"time"

	"github.com/datafetch/datafetch/web/restserver"
)

// Birthday is a birthday record as served by /api/birthdays/. Date is the
// date of birth as an ISO 8601 string at midnight UTC.
type Birthday struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Image  string `json:"image"`
	Source string `json:"source"`
	Date   string `json:"date"`
}

// UpcomingBirthdays is the body of /api/birthdays/upcoming/. The lists are
// disjoint: WithinSevenDays holds birthdays 0 to 7 days away (today
// included), WithinThirtyDays those 8 to 30 days away, each soonest first.
type UpcomingBirthdays struct {
	WithinSevenDays  []Birthday `json:"withinSevenDays"`
	WithinThirtyDays []Birthday `json:"withinThirtyDays"`
}

func (st *state) listBirthdays(*http.Request) restserver.Reply {
	return restserver.JSONReply(http.StatusOK, st.birthdays)
}

func (st *state) getBirthday(r *http.Request) restserver.Reply {
	id := r.PathValue("id")
	for _, b := range st.birthdays {
		if b.ID == id {
			return restserver.JSONReply(http.StatusOK, b)
		}
	}
	return restserver.ErrorReply(http.StatusNotFound, "birthday %s not found", id)
}

func (st *state) upcomingBirthdays(*http.Request) restserver.Reply {
	today := civilDay(st.now())
	type dated struct {
		b    Birthday
		days int
	}
	var soon []dated
	for _, b := range st.birthdays {
		born, err := time.Parse(time.RFC3339, b.Date)
		if err != nil {
			continue // cannot happen: the server formats every date itself
		}
		if d := daysUntilAnniversary(today, born); d <= 30 {
			soon = append(soon, dated{b, d})
		}
	}
	sort.SliceStable(soon, func(i, j int) bool { return soon[i].days < soon[j].days })
	body := UpcomingBirthdays{WithinSevenDays: []Birthday{}, WithinThirtyDays: []Birthday{}}
	for _, d := range soon {
		if d.days <= 7 {
			body.WithinSevenDays = append(body.WithinSevenDays, d.b)
		} else {
			body.WithinThirtyDays = append(body.WithinThirtyDays, d.b)
		}
	}
	return restserver.JSONReply(http.StatusOK, body)
}

// daysUntilAnniversary counts whole days from today to the next anniversary
// of born, 0 when it is today. A February 29 birthday falls on March 1 in
// common years, as time.Date normalizes it.
func daysUntilAnniversary(today, born time.Time) int {
	next := time.Date(today.Year(), born.Month(), born.Day(), 0, 0, 0, 0, time.UTC)
	if next.Before(today) {
		next = time.Date(today.Year()+1, born.Month(), born.Day(), 0, 0, 0, 0, time.UTC)
	}
	return int(next.Sub(today).Hours()+0.5) / 24
}
