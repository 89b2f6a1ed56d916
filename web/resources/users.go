package resources

import (
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// User is a user account.
var User = &schema.Entity{
	Key:      "User",
	Defaults: value.MustParse(`{"id":null,"name":"","email":"","isManager":false}`),
}

// Users is the user resource on /users/:id, with the current user and the
// make_manager action.
type Users struct {
	*rest.Resource
	// Current is GET /current_user/: the logged-in user, a User like any
	// other, so a change to that user shows wherever it is read.
	Current *rest.Endpoint
	// MakeManager is POST /users/:id/make_manager, answering the user. It
	// is optimistic: the user reads as a manager at once.
	MakeManager *rest.Endpoint
}

func newUsers(prefix string) (*Users, error) {
	r, err := rest.NewResource(rest.ResourceOptions{URLPrefix: prefix, Path: "/users/:id", Schema: User})
	if err != nil {
		return nil, err
	}
	current, err := rest.New(rest.Options{URLPrefix: prefix, Path: "/current_user/", Name: "currentUser", Schema: User})
	if err != nil {
		return nil, err
	}
	mm, err := rest.New(rest.Options{
		URLPrefix: prefix,
		Path:      "/users/:id/make_manager",
		Method:    "POST",
		Name:      "makeManager",
		Schema:    User,
		GetOptimisticResponse: func(_ endpoint.Snapshot, params value.Value, _ any) (value.Value, error) {
			return value.Obj(value.M("id", params.Get("id")), value.M("isManager", value.True)), nil
		},
	})
	if err != nil {
		return nil, err
	}
	return &Users{Resource: r, Current: current, MakeManager: mm}, nil
}
