package resources

import (
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
)

// User is a user account.
type User struct {
	ID        int    `df:"id,pk"`
	Name      string `df:"name"`
	Email     string `df:"email"`
	IsManager bool   `df:"isManager"`
}

// Users is the user resource on /users/:id, with the current user and the
// make_manager action.
type Users struct {
	*df.Resource[User]
	// Current is GET /current_user/: the logged-in user, a User like any
	// other, so a change to that user shows wherever it is read.
	Current *df.Endpoint[*User]
	// MakeManager is POST /users/:id/make_manager, answering the user. It
	// is optimistic: the user reads as a manager at once.
	MakeManager *df.Endpoint[*User]
}

func newUsers(prefix string) (*Users, error) {
	r, err := df.NewResource[User](rest.ResourceOptions{URLPrefix: prefix, Path: "/users/:id"})
	if err != nil {
		return nil, err
	}
	current, err := rest.New(rest.Options{URLPrefix: prefix, Path: "/current_user/", Name: "currentUser", Schema: r.Schema()})
	if err != nil {
		return nil, err
	}
	mm, err := rest.New(rest.Options{
		URLPrefix: prefix,
		Path:      "/users/:id/make_manager",
		Method:    "POST",
		Name:      "makeManager",
		Schema:    r.Schema(),
		GetOptimisticResponse: func(_ endpoint.Snapshot, params value.Value, _ any) (value.Value, error) {
			return value.Obj(value.M("id", params.Get("id")), value.M("isManager", value.True)), nil
		},
	})
	if err != nil {
		return nil, err
	}
	u := &Users{Resource: r}
	if u.Current, err = df.Wrap[*User](current); err != nil {
		return nil, err
	}
	if u.MakeManager, err = df.Wrap[*User](mm); err != nil {
		return nil, err
	}
	return u, nil
}
