package sampleapi

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/datafetch/datafetch/web/restserver"
)

// Todo is a to-do item as served by /todos: data-client's example todo app
// runs on it (web/demo/todos), each user with a list of their own.
type Todo struct {
	ID        int    `json:"id"`
	UserID    int    `json:"userId"`
	Title     string `json:"title"`
	Completed bool   `json:"completed"`
}

// seedTodoTitles are the items every seeded user's list is built from.
var seedTodoTitles = []string{
	"Read the release notes",
	"Answer the review comments",
	"Write the migration guide",
	"Water the office plants",
}

// todosPerUser is how many of seedTodoTitles each of the first users gets.
const todosPerUser = 4

// seedTodoUsers is how many users have a to-do list at the start.
const seedTodoUsers = 3

func seedTodos() []Todo {
	todos := make([]Todo, 0, seedTodoUsers*todosPerUser)
	for u := 1; u <= seedTodoUsers; u++ {
		for i, title := range seedTodoTitles[:todosPerUser] {
			todos = append(todos, Todo{ID: len(todos) + 1, UserID: u, Title: title, Completed: (i+u)%3 == 0})
		}
	}
	return todos
}

func todoSpec() restserver.CollectionSpec[Todo] {
	return restserver.CollectionSpec[Todo]{
		Noun:  "todo",
		Seed:  seedTodos,
		ID:    func(t Todo) string { return strconv.Itoa(t.ID) },
		Blank: func(old *Todo) Todo { return Todo{ID: idOf(old)} },
		SetID: func(t *Todo, n int) { t.ID = n },
		Apply: applyTodoFields,
		Filter: func(rows []Todo, q url.Values) ([]Todo, *restserver.Reply) {
			s := q.Get("userId")
			if s == "" {
				return rows, nil
			}
			user, err := strconv.Atoi(s)
			if err != nil {
				rp := restserver.ErrorReply(http.StatusBadRequest, "userId=%q is not a number", s)
				return nil, &rp
			}
			out := []Todo{}
			for _, t := range rows {
				if t.UserID == user {
					out = append(out, t)
				}
			}
			return out, nil
		},
	}
}

func idOf(old *Todo) int {
	if old == nil {
		return 0
	}
	return old.ID
}

func applyTodoFields(t *Todo, fields map[string]json.RawMessage) *restserver.Reply {
	// Sorted, so a body with several bad fields always names the same one.
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		raw := fields[name]
		var rp *restserver.Reply
		switch name {
		case "title":
			t.Title = ""
			rp = restserver.DecodeField(name, raw, &t.Title)
		case "completed":
			t.Completed = false
			rp = restserver.DecodeField(name, raw, &t.Completed)
		case "userId":
			t.UserID = 0
			rp = restserver.DecodeField(name, raw, &t.UserID)
		}
		if rp != nil {
			return rp
		}
	}
	return nil
}
